/**
 * The main agent (seed 000 §职责, §主 Agent, §出错处理).
 *
 * One `handle(words)` per user input (ASR or the text box). The words are matched against voice
 * commands ("大声点") and the global intents first ("再说一遍", "停/不玩了"), then the fast path (a clear
 * in-game utterance goes straight to the game), and otherwise the "main" ChatModel decides, step by step, among list_games /
 * start_game / end_game / send_message / reply. The returned promise settles when the round is over:
 * the main agent's own reply has been spoken, or the game's FIRST reply has been spoken — then the
 * microphone may listen again. Later game replies keep being spoken as they arrive (background reader).
 */
import '../a2a/errors.ts'; // the game_* entries of the error catalogue
import { GameRequestError, type GameClient, type GameRequest } from '../a2a/types.ts';
import { describe } from '../core/errors/catalogue.ts';
import type { ChatMessage, ChatModel, Step } from '../core/llm/types.ts';
import { ModelError } from '../core/llm/types.ts';
import { gameInput, type GameInputKind } from '../core/protocol/game-protocol.ts';
import { nullTrace, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { SAY } from './errors.ts';
import { globalIntent, isClearInGame, normalize, voiceCommand, type GlobalIntent, type VoiceCommand } from '../core/arcade/intents.ts';
import { buildMessages, listGamesResult, mainTools } from '../core/arcade/prompt.ts';
import type {
  AgentEvent,
  AgentSnapshot,
  ArcadeGame,
  HistoryEntry,
  RoundResult,
  Session,
  Speaker,
  SpeakerRole,
  SpokenOutcome,
} from '../core/arcade/types.ts';

export interface MainAgentDeps {
  /** The current "main" model (a getter: the user may switch models in settings). */
  model: () => ChatModel;
  games: GameClient;
  /** Installed games and whether each can be played now. */
  catalog: () => readonly ArcadeGame[];
  speaker: Speaker;
  trace?: TraceSink;
  newId?: () => string;
  now?: () => number;
  /** Forward clear in-game utterances without a main-agent model call (default true). */
  fastPath?: boolean;
  /** Model steps per round before giving up (list_games then reply needs 2). */
  maxSteps?: number;
  /** After this long waiting on the model, say "嗯，让我想想" once (no dead air; anchors §4 row 8). */
  thinkingFillerMs?: number;
  /**
   * Opens a trace round for the user's words and returns its id (TraceRecorder.startRound); it
   * records the user input itself. Without it the agent records `user_input` with its own id.
   */
  startRound?: (text: string) => string;
  /** Remembers the running session across reloads (src/trace/session-guard.ts). */
  sessions?: { remember(gameId: string, contextId: string): void; forget(): void };
  /**
   * Voice commands ("大声点", "小声一点", "说慢一点"; anchors §4 row 9): applies one to the speech
   * settings (and persists it) at once; returns false when already at the limit. Without it such
   * words are ordinary words.
   */
  voice?: { adjust(cmd: VoiceCommand): boolean };
  /**
   * A failed request (crashed worker, failed `start`/`end`) cleared the session; called after the
   * error was spoken, unless another game has started meanwhile. The game never said `ended`, so
   * nothing reset the robot: the app puts it back to idle here.
   */
  onSessionCleared?: (gameId: string) => void;
}

interface Pending {
  request: GameRequest;
  kind: GameInputKind;
  session: Session;
  cancelledByUs: boolean;
  settled: Promise<void>;
  /** Ends the round waiting on this request's first reply (used when we cancel it). */
  release: () => void;
}

const MAX_TOKENS = 160;

/** The child's sentence for an error code, or our own fallback when the code is not catalogued. */
function childText(code: string, fallback: string): string {
  const entry = describe(code);
  return entry === describe('unknown') ? describe(fallback).child : entry.child;
}

/** What the child hears when a game cannot be played now (e.g. the robot cannot draw). */
function unavailableText(game: ArcadeGame): string {
  return `${game.declaration.title}现在还不能玩：${game.reason ?? describe('main_game_unavailable').child}`;
}

export class MainAgent {
  private readonly history: HistoryEntry[] = [];
  private session: Session | null = null;
  private pending: Pending | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private roundActive = false;
  private speaking = 0;
  private lastSpoken: { text: string; role: SpeakerRole; gameId?: string } | null = null;
  private modelAbort: AbortController | null = null;
  private readonly listeners = new Set<(e: AgentEvent) => void>();
  private readonly trace: TraceSink;
  private readonly newId: () => string;
  private readonly now: () => number;
  /** Background readers of reply streams (tests and shutdown wait on them). */
  private readonly readers = new Set<Promise<void>>();

  constructor(private readonly deps: MainAgentDeps) {
    this.trace = deps.trace ?? nullTrace;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.now = deps.now ?? (() => Date.now());
  }

  // ---- observation -------------------------------------------------------------------------

  subscribe(fn: (e: AgentEvent) => void): () => void {
    this.listeners.add(fn);
    fn({ type: 'state', snapshot: this.snapshot() });
    return () => this.listeners.delete(fn);
  }

  snapshot(): AgentSnapshot {
    return {
      phase: this.speaking > 0 ? 'speaking' : this.roundActive ? 'thinking' : 'idle',
      session: this.session ? { ...this.session } : null,
      gameBusy: this.pending !== null,
    };
  }

  getHistory(): readonly HistoryEntry[] {
    return this.history;
  }

  /** Resolves when every reply stream read so far has finished and been spoken. */
  async settled(): Promise<void> {
    await this.chain;
    while (this.readers.size) await Promise.all([...this.readers]);
  }

  // ---- input -------------------------------------------------------------------------------

  /** One user input (the exact words). Resolves when the round is over and the mic may listen again. */
  handle(words: string): Promise<RoundResult> {
    // A voice command applies now (what is still being said gets louder at its next piece); its
    // confirmation is spoken in turn. It never reaches the model or the game.
    const voice = this.deps.voice ? voiceCommand(words) : null;
    const changed = voice ? this.adjustVoice(voice) : false;
    const intent = voice ? null : globalIntent(words, this.deps.catalog());
    if (intent === 'stop') this.interruptForStop();
    return this.inTurn(() => (voice ? this.voiceRound(words, voice, changed) : this.round(words, intent)));
  }

  /** Rounds run one after another, in the order the child spoke or tapped. */
  private inTurn<T>(round: () => Promise<T>): Promise<T> {
    const run = this.chain.then(round);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * A tap on a game card: the same as asking for that game, without a model call. The words sent
   * with `start` are what the tap means, "我要玩<title>" (there are no spoken words to keep).
   */
  startByTap(gameId: string): Promise<RoundResult> {
    return this.inTurn(async () => {
      const game = this.deps.catalog().find((g) => g.declaration.id === gameId);
      const words = `我要玩${game?.declaration.title ?? gameId}`;
      const roundId = this.openRound(words);
      try {
        if (!game) await this.sayMain(describe('main_no_decision').child, roundId);
        else if (!game.available) await this.sayMain(unavailableText(game), roundId);
        else {
          this.record({ kind: 'main_tool', roundId, name: 'start_game', data: { args: { game_id: gameId }, tap: true } });
          await this.startGame(game, words, roundId);
        }
        return { roundId, route: 'tap', modelCalls: 0, action: 'start_game' } as RoundResult;
      } finally {
        this.roundActive = false;
        this.emitState();
      }
    });
  }

  /** Tap anywhere: stop talking now (queued sentences are dropped; the game keeps its state). */
  stopTalking(): void {
    this.deps.speaker.stop();
  }

  /**
   * The app is closing or hidden for good (pagehide/unload): with a game running, send `end` with
   * empty text so the game agent closes the session cleanly. Nothing is spoken; nothing awaited.
   */
  shutdown(): void {
    const s = this.session;
    if (!s) return;
    if (this.pending) this.cancelPending(this.pending);
    this.session = null;
    try {
      const req = this.deps.games.request(s.gameId, s.contextId, gameInput('end', ''));
      this.record({ kind: 'a2a_request', name: 'end', requestId: req.requestId, data: { gameId: s.gameId, contextId: s.contextId, kind: 'end', text: '' } });
      // Drain quietly so the transport can finish; errors do not matter any more.
      void (async () => {
        try {
          for await (const ev of req.replies) this.record({ kind: 'reply', requestId: req.requestId, data: ev });
        } catch {
          /* closing */
        }
      })();
    } catch {
      /* closing */
    }
    this.emitState();
  }

  // ---- one round ---------------------------------------------------------------------------

  private async round(words: string, intent: GlobalIntent | null): Promise<RoundResult> {
    if (!normalize(words)) return { roundId: '', route: 'model', modelCalls: 0, action: 'ignored' };
    const roundId = this.openRound(words);
    try {
      if (intent === 'repeat') {
        const last = this.lastSpoken;
        if (last) await this.speak(last.text, last.role, roundId, { gameId: last.gameId, keepAsLast: true });
        else await this.speak(SAY.nothingToRepeat, 'main', roundId);
        return { roundId, route: 'repeat', modelCalls: 0, action: 'repeat' };
      }
      if (intent === 'stop') {
        if (this.session) {
          await this.endGame(words, roundId);
          return { roundId, route: 'stop', modelCalls: 0, action: 'end_game' };
        }
        await this.sayMain(SAY.stopped, roundId);
        return { roundId, route: 'stop', modelCalls: 0, action: 'reply' };
      }
      const games = this.deps.catalog();
      if (this.deps.fastPath !== false && isClearInGame(words, games, this.session !== null)) {
        this.record({ kind: 'main_tool', roundId, name: 'send_message', data: { args: { text: words }, fastPath: true } });
        if (this.pending) {
          await this.sayMain(SAY.wait, roundId);
          return { roundId, route: 'wait', modelCalls: 0, action: 'send_message' };
        }
        await this.send('message', words, roundId);
        return { roundId, route: 'fast', modelCalls: 0, action: 'send_message' };
      }
      return await this.think(words, roundId, games);
    } finally {
      this.roundActive = false;
      this.emitState();
    }
  }

  /** "大声点" and friends: no model call, nothing sent to the game; a short confirmation at the new setting. */
  private async voiceRound(words: string, cmd: VoiceCommand, changed: boolean): Promise<RoundResult> {
    const roundId = this.openRound(words);
    try {
      this.record({ kind: 'main_tool', roundId, name: 'voice', data: { command: cmd, changed } });
      const text = changed ? SAY.voice[cmd] : SAY.voiceLimit[cmd];
      // An aside: "再说一遍" afterwards still repeats what was said before it (now louder).
      await this.speak(text, 'main', roundId, { aside: true });
      this.history.push({ role: 'main', text, at: this.now() });
      return { roundId, route: 'voice', modelCalls: 0, action: 'voice' };
    } finally {
      this.roundActive = false;
      this.emitState();
    }
  }

  private adjustVoice(cmd: VoiceCommand): boolean {
    try {
      return this.deps.voice!.adjust(cmd);
    } catch (err) {
      this.record({ kind: 'error', name: 'voice_adjust_failed', data: { command: cmd, message: String((err as Error)?.message ?? err) } });
      return false;
    }
  }

  private openRound(words: string): string {
    let roundId: string;
    if (this.deps.startRound) roundId = this.deps.startRound(words);
    else {
      roundId = this.newId();
      this.record({ kind: 'user_input', roundId, data: { text: words } });
    }
    this.emit({ type: 'heard', text: words, roundId });
    this.history.push({ role: 'user', text: words, at: this.now() });
    this.roundActive = true;
    this.emitState();
    return roundId;
  }

  /** The model loop: constrained steps until a routing tool or `reply`. */
  private async think(words: string, roundId: string, games: readonly ArcadeGame[]): Promise<RoundResult> {
    const scratch: ChatMessage[] = [];
    const maxSteps = this.deps.maxSteps ?? 3;
    let calls = 0;
    const result = (action: string): RoundResult => ({ roundId, route: 'model', modelCalls: calls, action });
    for (let i = 0; i < maxSteps; i++) {
      const inGame = this.session !== null;
      const messages = buildMessages(games, this.history.slice(0, -1), this.session, this.pending !== null, words, scratch);
      const tools = mainTools(games, inGame);
      calls++;
      let step: Step;
      try {
        step = await this.modelStep(messages, tools, roundId);
      } catch (err) {
        if (this.modelAbort?.signal.aborted) return result('aborted');
        const code = err instanceof ModelError ? err.code : 'main_model_failed';
        this.record({ kind: 'error', roundId, name: code, data: { message: String((err as Error)?.message ?? err) } });
        await this.sayMain(childText(code, 'main_model_failed'), roundId);
        return result('error');
      } finally {
        this.modelAbort = null;
      }
      this.record({ kind: 'main_tool', roundId, name: step.action, data: { args: step.args } });
      switch (step.action) {
        case 'reply': {
          const text = typeof step.args.text === 'string' && step.args.text.trim() ? step.args.text : describe('main_no_decision').child;
          await this.sayMain(text, roundId);
          return result('reply');
        }
        case 'list_games':
          scratch.push({ role: 'assistant', content: JSON.stringify({ action: 'list_games', args: {} }) });
          scratch.push({ role: 'user', content: listGamesResult(games) });
          continue;
        case 'start_game': {
          const game = games.find((g) => g.declaration.id === step.args.game_id);
          if (!game) {
            scratch.push({ role: 'assistant', content: JSON.stringify(step) });
            scratch.push({ role: 'user', content: `【错误】没有这个游戏：${String(step.args.game_id)}` });
            continue;
          }
          if (!game.available) {
            await this.sayMain(unavailableText(game), roundId);
            return result('start_game');
          }
          await this.startGame(game, words, roundId);
          return result('start_game');
        }
        case 'end_game':
          await this.endGame(words, roundId);
          return result('end_game');
        case 'send_message':
          if (!this.session) {
            await this.sayMain(SAY.noGameToEnd, roundId);
          } else if (this.pending) {
            await this.sayMain(SAY.wait, roundId);
          } else {
            await this.send('message', words, roundId);
          }
          return result('send_message');
        default:
          scratch.push({ role: 'assistant', content: JSON.stringify(step) });
          scratch.push({ role: 'user', content: `【错误】没有这个动作：${step.action}` });
      }
    }
    await this.sayMain(describe('main_no_decision').child, roundId);
    return result('error');
  }

  private async modelStep(messages: ChatMessage[], tools: ReturnType<typeof mainTools>, roundId: string): Promise<Step> {
    const abort = new AbortController();
    this.modelAbort = abort;
    const started = this.now();
    const fillerMs = this.deps.thinkingFillerMs ?? 3000;
    const timer = fillerMs > 0 ? setTimeout(() => void this.speak(SAY.thinking, 'main', roundId, { filler: true }), fillerMs) : null;
    try {
      const step = await this.deps.model().step({ agent: 'main', messages, tools, maxTokens: MAX_TOKENS, signal: abort.signal });
      this.record({ kind: 'model_step', roundId, name: step.action, durationMs: this.now() - started, data: { promptChars: messages.reduce((n, m) => n + m.content.length, 0) } });
      return step;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  // ---- the three game tools ----------------------------------------------------------------

  private async startGame(game: ArcadeGame, words: string, roundId: string): Promise<void> {
    if (this.session) this.closeQuietly(this.session, words);
    this.session = { gameId: game.declaration.id, title: game.declaration.title, contextId: this.newId() };
    this.emitState();
    await this.send('start', words, roundId);
  }

  private async endGame(words: string, roundId: string): Promise<void> {
    if (!this.session) {
      await this.sayMain(SAY.noGameToEnd, roundId);
      return;
    }
    if (this.pending) {
      const p = this.pending;
      await this.cancelPending(p);
    }
    await this.send('end', words, roundId);
  }

  /** Switching games: the old session gets `end` (the user's words) and its replies are not spoken. */
  private closeQuietly(s: Session, words: string): void {
    if (this.pending) void this.cancelPending(this.pending);
    this.session = null;
    try {
      const req = this.deps.games.request(s.gameId, s.contextId, gameInput('end', words));
      this.record({ kind: 'a2a_request', name: 'end', requestId: req.requestId, data: { gameId: s.gameId, contextId: s.contextId, kind: 'end', text: words, quiet: true } });
      const reader = (async () => {
        try {
          for await (const ev of req.replies) this.record({ kind: 'reply', requestId: req.requestId, data: { ...ev, quiet: true } });
        } catch (err) {
          this.record({ kind: 'error', requestId: req.requestId, name: (err as GameRequestError).code ?? 'game_failed', data: { quiet: true } });
        }
      })();
      this.track(reader);
    } catch {
      /* the old worker is gone; nothing to close */
    }
  }

  private async cancelPending(p: Pending): Promise<void> {
    p.cancelledByUs = true;
    if (this.pending === p) this.pending = null;
    p.release();
    this.emitState();
    try {
      await p.request.cancel();
    } catch {
      /* already finished */
    }
  }

  /**
   * Sends one GameInput in the current session and reads its replies in the background.
   * Resolves when the FIRST reply (or the failure notice) has been spoken: the round is over.
   */
  private async send(kind: GameInputKind, words: string, roundId: string): Promise<void> {
    const s = this.session;
    if (!s) return;
    let request: GameRequest;
    try {
      request = this.deps.games.request(s.gameId, s.contextId, gameInput(kind, words));
    } catch (err) {
      await this.requestFailed(kind, s, err, roundId);
      return;
    }
    this.record({ kind: 'a2a_request', roundId, requestId: request.requestId, name: kind, data: { gameId: s.gameId, contextId: s.contextId, kind, text: words } });
    if (kind !== 'end') this.deps.sessions?.remember(s.gameId, s.contextId);
    let firstSpoken!: () => void;
    const roundOver = new Promise<void>((r) => (firstSpoken = r));
    const p: Pending = { request, kind, session: s, cancelledByUs: false, settled: Promise.resolve(), release: firstSpoken };
    this.pending = p;
    this.emitState();
    p.settled = this.read(p, roundId, firstSpoken);
    this.track(p.settled);
    await roundOver;
  }

  private async read(p: Pending, roundId: string, firstSpoken: () => void): Promise<void> {
    const { request, session: s } = p;
    const speeches: Promise<unknown>[] = [];
    let replies = 0;
    try {
      for await (const ev of request.replies) {
        if (p.cancelledByUs) break;
        this.record({ kind: 'reply', roundId, requestId: request.requestId, source: `game:${s.gameId}`, data: { text: ev.reply.text, session: ev.reply.session, final: ev.final } });
        const isFirst = replies++ === 0;
        if (ev.final && ev.reply.session === 'ended') this.clearSession(s);
        const spoken = this.speak(ev.reply.text, 'game_agent', roundId, { gameId: s.gameId, requestId: request.requestId }).then(() => {
          this.history.push({ role: 'game_agent', text: ev.reply.text, gameId: s.gameId, at: this.now() });
          if (isFirst) firstSpoken();
        });
        speeches.push(spoken);
      }
      if (this.pending === p) this.pending = null;
      if (p.kind === 'end') this.clearSession(s); // after `end` the session is over, whatever it said
      this.emitState();
      if (replies === 0 && !p.cancelledByUs) await this.requestFailed(p.kind, s, new GameRequestError('game_protocol', 'no reply'), roundId);
    } catch (err) {
      if (this.pending === p) this.pending = null;
      this.emitState();
      if (!p.cancelledByUs) {
        await Promise.all(speeches);
        await this.requestFailed(p.kind, s, err, roundId);
      }
    }
    await Promise.all(speeches);
    firstSpoken();
  }

  /** Seed §出错处理: tell the user and keep running; `start`/`end` clear the session, `message` keeps it. */
  private async requestFailed(kind: GameInputKind, s: Session, err: unknown, roundId: string): Promise<void> {
    const code = err instanceof GameRequestError ? err.code : 'main_game_request_failed';
    this.record({ kind: 'error', roundId, name: code, source: `game:${s.gameId}`, data: { kind, message: String((err as Error)?.message ?? err) } });
    // A failed `message` keeps the session — unless the game's state went with its worker (crash/hang).
    const lost = err instanceof GameRequestError && err.sessionLost;
    const over = kind !== 'message' || lost;
    if (over) this.clearSession(s);
    await this.sayMain(childText(code, 'main_game_request_failed'), roundId);
    if (over && !this.session) {
      try {
        this.deps.onSessionCleared?.(s.gameId);
      } catch (e) {
        this.record({ kind: 'error', roundId, name: 'session_cleared_hook_failed', data: { message: String((e as Error)?.message ?? e) } });
      }
    }
  }

  private clearSession(s: Session): void {
    if (this.session && this.session.contextId === s.contextId) {
      this.session = null;
      this.deps.sessions?.forget();
      this.emitState();
    }
  }

  // ---- speaking ----------------------------------------------------------------------------

  private async sayMain(text: string, roundId: string): Promise<void> {
    await this.speak(text, 'main', roundId);
    this.history.push({ role: 'main', text, at: this.now() });
  }

  private async speak(
    text: string,
    role: SpeakerRole,
    roundId: string,
    opts: { gameId?: string; filler?: boolean; keepAsLast?: boolean; requestId?: string; aside?: boolean } = {},
  ): Promise<SpokenOutcome> {
    const started = this.now();
    this.speaking++;
    this.emitState();
    let outcome: SpokenOutcome;
    try {
      outcome = await this.deps.speaker.say(text, role);
    } catch (err) {
      outcome = { completed: false, reason: String((err as Error)?.message ?? err) };
    } finally {
      this.speaking--;
    }
    if (!opts.filler && !opts.aside) this.lastSpoken = { text, role, gameId: opts.gameId };
    // Timed from the request to speak (queue wait included); a game reply's speech is filed under its request.
    this.record({ kind: 'speech', roundId, requestId: opts.requestId, at: started, durationMs: this.now() - started, name: 'spoken', data: { role, text, ...outcome } });
    this.emit({ type: 'spoken', role, text, gameId: opts.gameId, completed: outcome.completed });
    this.emitState();
    return outcome;
  }

  // ---- plumbing ----------------------------------------------------------------------------

  /** "停/不玩了" must not wait behind a slow model call or a game that is still thinking. */
  private interruptForStop(): void {
    this.deps.speaker.stop();
    this.modelAbort?.abort();
    if (this.pending) void this.cancelPending(this.pending);
  }

  private track(p: Promise<void>): void {
    this.readers.add(p);
    void p.finally(() => this.readers.delete(p));
  }

  private record(e: Omit<TraceEvent, 'at' | 'source'> & { source?: string; at?: number }): void {
    try {
      this.trace.record({ source: 'main', at: this.now(), ...e });
    } catch {
      /* tracing never breaks the conversation */
    }
  }

  private emit(e: AgentEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        /* a broken listener does not break the agent */
      }
    }
  }

  private emitState(): void {
    this.emit({ type: 'state', snapshot: this.snapshot() });
  }
}
