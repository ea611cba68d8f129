/**
 * The main agent's side of a game session (seed 000 §主 Agent, §出错处理): the running session, the
 * request in flight, and every request's life — send, read the replies in the background, cancel,
 * close quietly when another game starts, shut down on exit, and tell the child when it fails.
 *
 * - `start` makes a new context id; `message` and `end` carry the child's words unchanged;
 * - replies are read in the background; each is spoken through the speaking path and written to
 *   history as `game_agent` once spoken; the round ends when the FIRST reply has been spoken;
 * - a final `ended` reply clears the session; so does the end of an `end` request, whatever it said;
 *   a sentence of that reply that says the game goes on (「我们接着玩」) is not said — whichever game
 *   wrote it (a remote game's words are checked only where the arcade knows the truth: the session);
 * - a failed request is told to the child; `start` and `end` clear the session, `message` keeps it
 *   (unless the game's worker went with it: `sessionLost`) — and the line says truly which;
 * - every request carries what is left of the turn's budget (the game answers in time with what its
 *   rules decided); a request with no reply by the deadline is cancelled and the child hears a
 *   true line (a game that goes on says so), so no turn goes past T2 in silence;
 * - switching games: the old game's `end` is sent first and its goodbye spoken (the answer the child
 *   was playing for is told), then the new game starts.
 */
import { GameRequestError, type GameClient, type GameRequest, type ReplyEvent } from '../a2a/types.ts';
import type { ArcadeGame, HistoryEntry, Session } from '../core/arcade/types.ts';
import { childSentence } from '../core/errors/catalogue.ts';
import { gameInput, type GameInputKind } from '../core/protocol/game-protocol.ts';
import { lineFits } from '../core/games/claim-kinds.ts';
import { sentencesOf } from '../core/speech/split.ts';
import { SAY } from './errors.ts';

const SAY_WAIT = SAY.wait;
import type { TraceEvent } from '../core/trace/types.ts';
import type { SpeakingPath } from './speaking-path.ts';

export interface GameRequestsDeps {
  games: GameClient;
  voice: SpeakingPath;
  record(e: Omit<TraceEvent, 'at' | 'source'> & { source?: string; at?: number }): void;
  newId(): string;
  now(): number;
  /** A line the main agent says itself (spoken, then written to history as `main`). */
  sayMain(text: string, roundId: string): Promise<void>;
  /** A game's reply was spoken: into the history. */
  heard(entry: HistoryEntry): void;
  /** The session or the pending request changed. */
  changed(): void;
  /** Remembers the running session across reloads (src/trace/session-guard.ts). */
  sessions?: { remember(gameId: string, contextId: string): void; forget(): void; endSent?(): void };
  /**
   * A failed request (crashed worker, failed `start`/`end`) cleared the session; called after the
   * error was spoken, unless another game has started meanwhile. The game never said `ended`, so
   * nothing reset the robot: the app puts it back to idle here.
   */
  onSessionCleared?: (gameId: string) => void;
  /** The child's sentence for a catalogue code, in turn among its variants (`fallback` when not catalogued). */
  line(code: string, fallback: string): string;
  /** When a request sent for this round must have its first reply (the round's T2). */
  deadlineOf(roundId: string, gameId: string): number;
  /** A deadline a full budget from now (a start after the old game's goodbye was spoken). */
  freshDeadline(): number;
  /** The turn budget's colour window, sent with every request (a game's rules-first turns use it). */
  colourMs?(): number;
}

interface Pending {
  request: GameRequest;
  kind: GameInputKind;
  session: Session;
  cancelledByUs: boolean;
  /** Ends the round waiting on this request's first reply (used when we cancel it). */
  release: () => void;
  /** Resolves once the game is done with this request (its last reply read, or it was cancelled). */
  done: Promise<void>;
  finish: () => void;
}

/** The code of the line that tells a failure (one the catalogue has a sentence for). */
function failureCode(err: unknown): string {
  const code = err instanceof GameRequestError ? err.code : 'main_game_request_failed';
  return childSentence(code) !== undefined ? code : 'main_game_request_failed';
}

export class GameRequests {
  private current: Session | null = null;
  /** Stops so far (「停」「不玩了」): words kept while the game was busy are not sent after one. */
  private stops = 0;
  private inFlight: Pending | null = null;
  /** Background readers of reply streams (tests and shutdown wait on them). */
  private readonly readers = new Set<Promise<void>>();

  constructor(private readonly deps: GameRequestsDeps) {}

  get session(): Session | null {
    return this.current;
  }

  /** The game is still handling the previous input. */
  get busy(): boolean {
    return this.inFlight !== null;
  }

  /** Resolves when every reply stream read so far has finished and been spoken. */
  async settled(): Promise<void> {
    while (this.readers.size) await Promise.all([...this.readers]);
  }

  /**
   * `start_game`: a new session. A game still running is ended first and its goodbye spoken (the
   * child hears the answer it was playing for); then the new game starts with a full budget.
   * Resolves when the new game's first reply was spoken.
   */
  async start(game: ArcadeGame, words: string, roundId: string): Promise<void> {
    let deadline: number | undefined;
    if (this.current) {
      await this.endBeforeSwitching(this.current, words, roundId);
      deadline = this.deps.freshDeadline();
    }
    this.current = { gameId: game.declaration.id, title: game.declaration.title, contextId: this.deps.newId() };
    this.deps.changed();
    await this.send('start', words, roundId, deadline);
  }

  /** `send_message`: the child's words to the running game. */
  message(words: string, roundId: string): Promise<void> {
    return this.send('message', words, roundId);
  }

  /**
   * The child's words while the game may still be busy with the previous input (drawing, a slow
   * step): kept, and handed to the game once it is free — never dropped. The child who talks over a
   * turn hears 「请稍等」 first (seed 000), and the round ends there: the mic and the text box take
   * the child's next words at once (kept too, and handed over in the order said). Words kept
   * across a stop (「不玩了」) or a new game are not sent to the game they were not said to; that
   * is recorded.
   */
  async messageWhenFree(words: string, roundId: string): Promise<void> {
    const s = this.current;
    if (!s) return;
    if (!this.inFlight) return this.send('message', words, roundId, this.deps.freshDeadline());
    const stops = this.stops;
    this.deps.record({ kind: 'main_tool', roundId, name: 'send_message', data: { kept: true, text: words } });
    await this.deps.sayMain(SAY_WAIT, roundId);
    this.track(
      (async () => {
        // Each waiter resumes as the request before it finishes, and sends at once (in the order kept).
        while (this.inFlight) await this.inFlight.done;
        if (this.current !== s || this.stops !== stops) {
          this.deps.record({ kind: 'error', roundId, name: 'kept_words_not_sent', data: { text: words, why: this.stops !== stops ? 'the child stopped the game' : this.current ? 'another game started' : 'the game ended' } });
          return;
        }
        await this.send('message', words, roundId, this.deps.freshDeadline());
      })(),
    );
  }

  /** `end_game`: cancel the unfinished request, then send `end` with the child's words. */
  async end(words: string, roundId: string): Promise<void> {
    if (this.inFlight) await this.cancelPending(this.inFlight);
    await this.send('end', words, roundId);
  }

  /** "停" / "不玩了" must not wait behind a game that is still thinking. */
  interrupt(): void {
    this.stops++;
    if (this.inFlight) void this.cancelPending(this.inFlight);
  }

  /**
   * The app is closing or hidden for good (pagehide): with a game running, send `end` with empty
   * text so the game agent closes the session cleanly. Nothing is spoken; nothing awaited.
   */
  shutdown(): void {
    const s = this.current;
    if (!s) return;
    if (this.inFlight) void this.cancelPending(this.inFlight);
    this.current = null;
    this.endQuietly(s, '');
    // One `end` per session: the reload tells the child, and does not end it again.
    this.deps.sessions?.endSent?.();
    this.deps.changed();
  }

  /**
   * Switching games: the old session gets `end` (the child's words) and its replies are spoken —
   * its goodbye tells the answer — before the new game starts. A game that does not answer in time
   * is left (the new start replaces its session); nothing else is said for it.
   */
  private async endBeforeSwitching(s: Session, words: string, roundId: string): Promise<void> {
    if (this.inFlight) await this.cancelPending(this.inFlight);
    this.current = null;
    this.deps.changed();
    const deadline = this.deps.deadlineOf(roundId, s.gameId);
    let req: GameRequest;
    try {
      req = this.deps.games.request(s.gameId, s.contextId, gameInput('end', words), { budgetMs: this.budgetFrom(deadline), colourMs: this.deps.colourMs?.() });
    } catch {
      return; // the old worker is gone; nothing to close
    }
    this.deps.record({ kind: 'a2a_request', roundId, name: 'end', requestId: req.requestId, data: { gameId: s.gameId, contextId: s.contextId, kind: 'end', text: words, switching: true } });
    const speeches: Promise<unknown>[] = [];
    let left = false;
    const read = (async () => {
      try {
        for await (const ev of req.replies) {
          if (left) break; // too late: the new game has begun
          speeches.push(this.speakReply(ev, s, req.requestId, roundId));
        }
      } catch (err) {
        if (!left) this.deps.record({ kind: 'error', roundId, requestId: req.requestId, name: (err as GameRequestError).code ?? 'game_failed', data: { switching: true } });
      }
    })();
    this.track(read);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = await Promise.race([read.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), this.budgetFrom(deadline))))]);
    clearTimeout(timer);
    if (!answered) {
      left = true;
      void req.cancel().catch(() => {});
    }
    await Promise.all(speeches);
  }

  /** One reply of a game: recorded, spoken, and what the child heard kept in the history (the safety check may have said something else, or nothing). */
  private speakReply(ev: ReplyEvent, s: Session, requestId: string, roundId: string): Promise<void> {
    this.deps.record({ kind: 'reply', roundId, requestId, source: `game:${s.gameId}`, data: { text: ev.reply.text, session: ev.reply.session, final: ev.final } });
    const ends = ev.final && ev.reply.session === 'ended';
    const text = ends ? withoutContinuing(ev.reply.text) : ev.reply.text;
    if (!text) {
      this.deps.record({ kind: 'error', roundId, requestId, name: 'untrue_line', data: { gameId: s.gameId, text: ev.reply.text, claim: 'continue' } });
      return Promise.resolve();
    }
    if (text !== ev.reply.text) this.deps.record({ kind: 'error', roundId, requestId, name: 'untrue_line', data: { gameId: s.gameId, text: ev.reply.text, said: text, claim: 'continue' } });
    return this.deps.voice.say(text, 'game_agent', { roundId, gameId: s.gameId, requestId, final: ev.final, sessionEnds: ends }).then((o) => {
      const said = o.said ?? text;
      if (said) this.deps.heard({ role: 'game_agent', text: said, gameId: s.gameId, at: this.deps.now() });
    });
  }

  /** What is left until a deadline, as a request's budget. */
  private budgetFrom(deadline: number): number {
    return Math.max(0, deadline - this.deps.now());
  }

  private endQuietly(s: Session, words: string): void {
    try {
      const req = this.deps.games.request(s.gameId, s.contextId, gameInput('end', words));
      this.deps.record({ kind: 'a2a_request', name: 'end', requestId: req.requestId, data: { gameId: s.gameId, contextId: s.contextId, kind: 'end', text: words } });
      this.track(
        (async () => {
          try {
            for await (const ev of req.replies) this.deps.record({ kind: 'reply', requestId: req.requestId, data: { ...ev } });
          } catch {
            // The app is closing: a failure to say goodbye is nobody's to hear.
          }
        })(),
      );
    } catch {
      // The old worker is gone; nothing to close.
    }
  }

  private async cancelPending(p: Pending): Promise<void> {
    p.cancelledByUs = true;
    if (this.inFlight === p) this.inFlight = null;
    p.finish();
    p.release();
    this.deps.changed();
    try {
      await p.request.cancel();
    } catch {
      // Already finished.
    }
  }

  /** Sends one GameInput in the current session and reads its replies in the background; resolves when the first reply (or the failure notice) was spoken. */
  private async send(kind: GameInputKind, words: string, roundId: string, deadlineAt?: number): Promise<void> {
    const s = this.current;
    if (!s) return;
    const deadline = deadlineAt ?? this.deps.deadlineOf(roundId, s.gameId);
    let request: GameRequest;
    try {
      request = this.deps.games.request(s.gameId, s.contextId, gameInput(kind, words), { budgetMs: this.budgetFrom(deadline), colourMs: this.deps.colourMs?.() });
    } catch (err) {
      await this.failed(kind, s, err, roundId);
      return;
    }
    this.deps.record({ kind: 'a2a_request', roundId, requestId: request.requestId, name: kind, data: { gameId: s.gameId, contextId: s.contextId, kind, text: words } });
    if (kind !== 'end') this.deps.sessions?.remember(s.gameId, s.contextId);
    let firstSpoken!: () => void;
    const roundOver = new Promise<void>((r) => (firstSpoken = r));
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    const p: Pending = { request, kind, session: s, cancelledByUs: false, release: firstSpoken, done, finish };
    this.inFlight = p;
    this.deps.changed();
    this.track(this.read(p, roundId, firstSpoken, deadline));
    await roundOver;
  }

  private async read(p: Pending, roundId: string, firstSpoken: () => void, deadline: number): Promise<void> {
    const { request, session: s } = p;
    const speeches: Promise<unknown>[] = [];
    let replies = 0;
    // No reply by the deadline: the game is given up on for this turn, and the child told truly.
    const overdue = setTimeout(() => {
      if (replies === 0 && !p.cancelledByUs) void this.overdue(p, roundId);
    }, Math.max(0, deadline - this.deps.now()));
    try {
      for await (const ev of request.replies) {
        if (p.cancelledByUs) break;
        const isFirst = replies++ === 0;
        if (ev.final && ev.reply.session === 'ended') this.clear(s);
        const spoken = this.speakReply(ev, s, request.requestId, roundId);
        speeches.push(isFirst ? spoken.then(firstSpoken) : spoken);
      }
      if (this.inFlight === p) this.inFlight = null;
      p.finish();
      if (p.kind === 'end') this.clear(s); // after `end` the session is over, whatever it said
      this.deps.changed();
      if (replies === 0 && !p.cancelledByUs) await this.failed(p.kind, s, new GameRequestError('game_protocol', 'no reply'), roundId);
    } catch (err) {
      if (this.inFlight === p) this.inFlight = null;
      p.finish();
      this.deps.changed();
      if (!p.cancelledByUs) {
        await Promise.all(speeches);
        await this.failed(p.kind, s, err, roundId);
      }
    } finally {
      clearTimeout(overdue);
      p.finish();
    }
    await Promise.all(speeches);
    firstSpoken();
  }

  /**
   * The deadline passed with no reply (the game's worker is stuck, or its reply lost): the request
   * is cancelled and the child hears a true line — a `message`'s game goes on; a `start` did not
   * start; after an `end` the game is over anyway.
   */
  private async overdue(p: Pending, roundId: string): Promise<void> {
    const s = p.session;
    this.deps.record({ kind: 'error', roundId, requestId: p.request.requestId, name: 'game_overdue', source: `game:${s.gameId}`, data: { kind: p.kind } });
    await this.cancelPending(p);
    const code = p.kind === 'message' ? 'main_game_slow' : p.kind === 'start' ? 'main_game_slow_start' : 'main_game_slow_end';
    if (p.kind !== 'message') this.clear(s);
    await this.deps.sayMain(this.deps.line(code, code), roundId);
    if (p.kind !== 'message' && !this.current) this.clearedHook(s, roundId);
  }

  private clearedHook(s: Session, roundId: string): void {
    try {
      this.deps.onSessionCleared?.(s.gameId);
    } catch (e) {
      this.deps.record({ kind: 'error', roundId, name: 'session_cleared_hook_failed', data: { message: String((e as Error)?.message ?? e) } });
    }
  }

  /** Seed §出错处理: tell the user and keep running; `start`/`end` clear the session, `message` keeps it. */
  private async failed(kind: GameInputKind, s: Session, err: unknown, roundId: string): Promise<void> {
    const code = err instanceof GameRequestError ? err.code : 'main_game_request_failed';
    this.deps.record({ kind: 'error', roundId, name: code, source: `game:${s.gameId}`, data: { kind, message: String((err as Error)?.message ?? err) } });
    // A failed `message` keeps the session — unless the game's state went with its worker (crash/hang).
    const lost = err instanceof GameRequestError && err.sessionLost;
    const over = kind !== 'message' || lost;
    if (over) this.clear(s);
    // The line is true about what happens next: no 「我们接着玩」 for a session that is over.
    const told = lineFits(childSentence(failureCode(err)) ?? '', { continues: !over }) ? failureCode(err) : 'main_game_request_failed';
    await this.deps.sayMain(this.deps.line(told, 'main_game_request_failed'), roundId);
    if (over && !this.current) this.clearedHook(s, roundId);
  }

  private clear(s: Session): void {
    if (this.current && this.current.contextId === s.contextId) {
      this.current = null;
      this.deps.sessions?.forget();
      this.deps.changed();
    }
  }

  private track(p: Promise<void>): void {
    this.readers.add(p);
    void p.finally(() => this.readers.delete(p));
  }
}

/** A game's last reply without the sentences that say the game goes on (its session has ended). */
function withoutContinuing(text: string): string {
  return sentencesOf(text)
    .filter((s) => lineFits(s, { continues: false, restarted: true }))
    .join('')
    .trim();
}
