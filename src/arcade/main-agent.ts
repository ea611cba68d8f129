/**
 * The main agent (seed 000 §职责, §主 Agent, §出错处理).
 *
 * One `handle(words)` per user input (ASR or the text box). The words are routed before any model
 * call (src/core/arcade/router.ts): voice commands ("大声点"), "再说一遍", "停/不玩了", and the fast
 * path (a clear in-game utterance goes straight to the game); anything else goes to the model loop
 * (./model-loop.ts; its rules in a game on WebLLM). The game session and its requests live in
 * ./game-requests.ts; every line goes through the speaking path (./speaking-path.ts). The agent's
 * deps: ./main-agent-deps.ts; its history: src/core/arcade/history.ts.
 *
 * The returned promise settles when the round is over: the main agent's own reply has been spoken,
 * or the game's FIRST reply has been spoken — then the microphone may listen again. Later game
 * replies keep being spoken as they arrive.
 *
 * Every round runs on the turn budget (./turn-watch.ts): a "still thinking" line at T1 when nothing
 * has been said yet, and a real answer or a true fallback by T2, whether the main agent's model or
 * a game is thinking. Fallback lines take turns among their variants, never the same twice in a row.
 */
import type { VoiceCommand } from '../core/arcade/intents.ts';
import { AgentEvents } from '../core/arcade/agent-events.ts';
import { RoundHistory } from '../core/arcade/history.ts';
import { route } from '../core/arcade/router.ts';
import type { AgentEvent, AgentSnapshot, HistoryEntry, RoundResult } from '../core/arcade/types.ts';
import { DEFAULT_TURN_BUDGET, MAIN_REPLY_MARGIN_MS } from '../core/arcade/turn-budget.ts';
import { childSentence } from '../core/errors/catalogue.ts';
import { LineRotation } from '../core/speech/line-rotation.ts';
import { caringFor } from '../core/safety/replies.ts';
import { nullTrace, recordSafely, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { SAY, unavailableText } from './errors.ts';
import { GameRequests } from './game-requests.ts';
import type { MainAgentDeps } from './main-agent-deps.ts';
import { loadSafetyCheck } from './safety-screen.ts';
import type { MainModelLoop, ModelLoopDeps } from './model-loop.ts';
import { SpeakingPath } from './speaking-path.ts';
import { TurnWatch } from './turn-watch.ts';

export type { MainAgentDeps } from './main-agent-deps.ts';
export { HISTORY_KEPT } from '../core/arcade/history.ts';

const LOCKED: RoundResult = { roundId: '', route: 'locked', modelCalls: 0, action: 'locked' };

export class MainAgent {
  /** The one speaking path: the app routes every other line the robot says through it too. */
  readonly voice: SpeakingPath;
  private readonly history = new RoundHistory();
  private readonly requests: GameRequests;
  /** The model loop (and the step validation it needs) is loaded on the first round that needs the model. */
  private loop: Promise<MainModelLoop> | null = null;
  private readonly loopDeps: ModelLoopDeps;
  private chain: Promise<unknown> = Promise.resolve();
  private roundActive = false;
  private modelAbort: AbortController | null = null;
  private readonly events = new AgentEvents(() => this.snapshot());
  private readonly trace: TraceSink;
  private readonly newId: () => string;
  private readonly now: () => number;
  private readonly watch: TurnWatch;
  /** The round being handled now (its "still thinking" line is due until something is said). */
  private roundNow: string | undefined;
  /** The last line handed to the speaking path: a fallback is never the same line twice in a row. */
  private lastLine: string | null = null;
  private readonly lines = new LineRotation(() => this.lastLine);

  constructor(private readonly deps: MainAgentDeps) {
    this.trace = deps.trace ?? nullTrace;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.now = deps.now ?? (() => Date.now());
    const budget = () => deps.budget?.() ?? DEFAULT_TURN_BUDGET;
    const timers = { setTimer: (fn: () => void, ms: number): unknown => setTimeout(fn, ms), clearTimer: (t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>) };
    this.voice = new SpeakingPath({ speaker: deps.speaker, trace: this.trace, now: this.now });
    this.watch = new TurnWatch({
      budget,
      stillThinking: (roundId) => void this.voice.say(this.lines.pick('still_thinking', SAY.stillThinking), 'main', { roundId, aside: true, yields: true }),
      now: this.now,
      ...timers,
    });
    this.voice.subscribe((e) => {
      if (e.type === 'line') {
        this.lastLine = e.text;
        this.watch.spoke(e.roundId);
      }
      if (e.type === 'spoken') this.events.emit(e);
      this.events.state();
    });
    /** A catalogue code's sentence in turn among its variants (`fallback`'s when the code is not catalogued). */
    const line = (code: string, fallback: string) => this.lines.child(childSentence(code) !== undefined ? code : fallback);
    const record = (e: Omit<TraceEvent, 'at' | 'source'> & { source?: string; at?: number }) => this.record(e);
    this.requests = new GameRequests({
      games: deps.games,
      voice: this.voice,
      record,
      newId: this.newId,
      now: this.now,
      sayMain: (text, roundId) => this.sayMain(text, roundId),
      heard: (entry) => this.history.remember(entry),
      changed: () => this.events.state(),
      sessions: deps.sessions,
      onSessionCleared: deps.onSessionCleared,
      line,
      deadlineOf: (roundId, gameId) => {
        const wait = deps.gameWaitMs?.(gameId);
        return wait !== undefined ? this.now() + wait : this.watch.deadline(roundId);
      },
      freshDeadline: () => this.now() + budget().answerMs,
      colourMs: () => budget().colourMs,
    });
    this.loopDeps = {
      model: deps.model,
      requests: this.requests,
      sayMain: (text, roundId) => this.sayMain(text, roundId),
      saySentence: (text, roundId) => this.voice.say(text, 'main', { roundId }),
      remember: (text) => this.history.remember({ role: 'main', text, at: this.now() }),
      record,
      now: this.now,
      maxSteps: deps.maxSteps ?? 3,
      deadlineOf: (roundId) => this.watch.deadline(roundId) - MAIN_REPLY_MARGIN_MS,
      line,
      gamesOnly: deps.gamesOnly,
      rulesInGame: deps.rulesInGame,
      ...timers,
    };
  }

  private modelLoop(): Promise<MainModelLoop> {
    this.loop ??= import('./model-loop.ts').then((m) => new m.MainModelLoop(this.loopDeps));
    return this.loop;
  }

  // ---- observation -------------------------------------------------------------------------
  subscribe(fn: (e: AgentEvent) => void): () => void {
    return this.events.subscribe(fn);
  }

  snapshot(): AgentSnapshot {
    const session = this.requests.session;
    return {
      phase: this.voice.speaking > 0 ? 'speaking' : this.roundActive ? 'thinking' : 'idle',
      session: session ? { ...session } : null,
      gameBusy: this.requests.busy,
    };
  }

  getHistory(): readonly HistoryEntry[] {
    return this.history.entries;
  }

  /** Resolves when every round so far and every reply stream read so far has finished and been spoken. */
  async settled(): Promise<void> {
    await this.chain;
    await this.requests.settled();
  }

  // ---- input -------------------------------------------------------------------------------

  /** One user input (the exact words). Resolves when the round is over and the mic may listen again. */
  handle(words: string): Promise<RoundResult> {
    if (!this.playAllowed()) return Promise.resolve(LOCKED);
    const now = route(words, this.routeContext());
    // A voice command applies at once (what is still being said gets louder at its next piece); its
    // confirmation is spoken in turn. It never reaches the model or the game.
    if (now.kind === 'voice') {
      const changed = this.adjustVoice(now.command);
      return this.inTurn(() => this.voiceRound(words, now.command, changed));
    }
    if (now.kind === 'stop') this.interruptForStop();
    return this.inTurn(() => this.round(words));
  }

  /**
   * A tap on a game card: the same as asking for that game, without a model call. The words sent
   * with `start` are what the tap means, "我要玩<title>" (there are no spoken words to keep).
   */
  startByTap(gameId: string): Promise<RoundResult> {
    if (!this.playAllowed()) return Promise.resolve(LOCKED);
    return this.inTurn(async () => {
      const game = this.deps.catalog().find((g) => g.declaration.id === gameId);
      const words = `我要玩${game?.declaration.title ?? gameId}`;
      const roundId = this.openRound(words);
      try {
        if (!game) await this.sayMain(this.lines.child('main_no_decision'), roundId);
        else if (!game.available) await this.sayMain(unavailableText(game), roundId);
        else if (game.declaration.engine !== 'remote' && !this.hasBrain() && !this.deps.playsWithoutBrain?.(game)) await this.noBrain(roundId);
        else {
          this.record({ kind: 'main_tool', roundId, name: 'start_game', data: { args: { game_id: gameId }, tap: true } });
          await this.requests.start(game, words, roundId);
        }
        return { roundId, route: 'tap', modelCalls: 0, action: 'start_game' } as RoundResult;
      } finally {
        this.endRound();
      }
    });
  }

  /**
   * Play time is over: the running game ends through its normal `end` (its end turn tells the
   * answer), every reply is spoken, then a goodbye. Runs in turn after the rounds before it; the
   * round is the app's own (`roundId`, opened by the caller).
   */
  timeUp(o: { roundId: string; words: string; goodbye: string }): Promise<void> {
    return this.inTurn(async () => {
      this.roundActive = true;
      this.events.state();
      try {
        if (this.requests.session) await this.requests.end(o.words, o.roundId);
        await this.requests.settled();
        await this.sayMain(o.goodbye, o.roundId);
      } finally {
        this.endRound();
      }
    });
  }

  /** A short notice in turn (play time's warning); not what "再说一遍" repeats. */
  announce(text: string, roundId?: string): Promise<void> {
    return this.inTurn(async () => {
      await this.requests.settled();
      await this.voice.say(text, 'main', { roundId, aside: true });
    });
  }

  private playAllowed(): boolean {
    try {
      return this.deps.playAllowed?.() ?? true;
    } catch {
      return true;
    }
  }

  /** Tap anywhere: stop talking now (queued sentences are dropped; the game keeps its state). */
  stopTalking(): void {
    this.voice.stop();
  }

  /** The app is closing or hidden for good: see GameRequests.shutdown. */
  shutdown(): void {
    this.requests.shutdown();
  }

  // ---- one round ---------------------------------------------------------------------------

  /** Rounds run one after another, in the order the child spoke or tapped. */
  private inTurn<T>(round: () => Promise<T>): Promise<T> {
    const run = this.chain.then(round);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private routeContext() {
    return { games: this.deps.catalog(), inGame: this.requests.session !== null, running: this.requests.session?.gameId, voiceCommands: !!this.deps.voice, fastPath: this.deps.fastPath !== false };
  }

  /**
   * After a round, the main agent's next prompt is read into a local engine's cache (the hub stops
   * it when any step comes); in a game only on an engine that keeps prompts apart (EngineTraits).
   * After a chat step the deadline cut: the cut request read on, with the line said instead.
   */
  prewarm(): void {
    if (this.roundActive || !this.hasBrain()) return;
    const inGame = this.requests.session !== null;
    void this.modelLoop()
      .then(async (l) => (inGame && !(await this.deps.model().traits?.())?.keepsPromptsApart) || this.roundActive || l.prewarm(this.deps.catalog(), this.history.entries))
      .catch(() => undefined);
  }

  private async round(words: string): Promise<RoundResult> {
    // Routed again now: an earlier round may have started or ended a game meanwhile; and with the
    // child-safety check of the child's words (loaded with the speaking path).
    const checkLine = await loadSafetyCheck();
    const r = route(words, { ...this.routeContext(), checkChild: (w) => checkLine(w, 'child') });
    if (r.kind === 'ignore') return { roundId: '', route: 'model', modelCalls: 0, action: 'ignored' };
    // Words answered with care stay out of the history the model sees later.
    const roundId = this.openRound(words, r.kind !== 'care');
    try {
      switch (r.kind) {
        case 'care':
          this.record({ kind: 'safety', roundId, name: 'child_words', data: { category: r.category, rule: r.rule, said: caringFor(r.category, r.rule) } });
          await this.voice.say(caringFor(r.category, r.rule)!, 'main', { roundId });
          return { roundId, route: 'care', modelCalls: 0, action: 'care' };
        case 'repeat': {
          const last = this.voice.lastSpoken;
          if (last) await this.voice.say(last.text, last.role, { roundId, gameId: last.gameId });
          else await this.voice.say(SAY.nothingToRepeat, 'main', { roundId });
          return { roundId, route: 'repeat', modelCalls: 0, action: 'repeat' };
        }
        case 'stop':
          if (this.requests.session) {
            await this.requests.end(words, roundId);
            return { roundId, route: 'stop', modelCalls: 0, action: 'end_game' };
          }
          // "不玩了" with no game: say so; "停": just stop.
          await this.sayMain(r.game ? SAY.noGameToEnd : SAY.stopped, roundId);
          return { roundId, route: 'stop', modelCalls: 0, action: 'reply' };
        case 'fast':
          this.record({ kind: 'main_tool', roundId, name: 'send_message', data: { args: { text: words }, fastPath: true } });
          if (this.requests.busy) {
            // Kept and handed to the game once it is free (after 「请稍等」).
            await this.requests.messageWhenFree(words, roundId);
            return { roundId, route: 'wait', modelCalls: 0, action: 'send_message' };
          }
          await this.requests.message(words, roundId);
          return { roundId, route: 'fast', modelCalls: 0, action: 'send_message' };
        default: {
          if (!this.hasBrain()) {
            await this.noBrain(roundId);
            return { roundId, route: 'model', modelCalls: 0, action: 'reply' };
          }
          const abort = new AbortController();
          this.modelAbort = abort;
          try {
            const loop = await this.modelLoop();
            const asked = this.history.entries.at(-1);
            const out = await loop.think(words, roundId, this.deps.catalog(), this.history.entries.slice(0, -1), abort.signal);
            if (out.sent && asked) this.history.keepSent(asked, out.sent);
            return { roundId, route: 'model', modelCalls: out.modelCalls, action: out.action };
          } finally {
            this.modelAbort = null;
          }
        }
      }
    } finally {
      this.endRound();
      this.prewarm();
    }
  }

  /** "大声点" and friends: no model call, nothing sent to the game; a short confirmation at the new setting. */
  private async voiceRound(words: string, cmd: VoiceCommand, changed: boolean): Promise<RoundResult> {
    const roundId = this.openRound(words);
    try {
      this.record({ kind: 'main_tool', roundId, name: 'voice', data: { command: cmd, changed } });
      const text = changed ? SAY.voice[cmd] : SAY.voiceLimit[cmd];
      // An aside: "再说一遍" afterwards still repeats what was said before it (now louder).
      await this.voice.say(text, 'main', { roundId, aside: true });
      this.history.remember({ role: 'main', text, at: this.now() });
      return { roundId, route: 'voice', modelCalls: 0, action: 'voice' };
    } finally {
      this.endRound();
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

  private openRound(words: string, remember = true): string {
    let roundId: string;
    if (this.deps.startRound) roundId = this.deps.startRound(words);
    else {
      roundId = this.newId();
      this.record({ kind: 'user_input', roundId, data: { text: words } });
    }
    this.events.emit({ type: 'heard', text: words, roundId });
    this.deps.cue?.begin(roundId);
    this.roundNow = roundId;
    this.watch.begin(roundId);
    if (remember) this.history.remember({ role: 'user', text: words, at: this.now() });
    this.roundActive = true;
    this.events.state();
    return roundId;
  }

  private endRound(): void {
    this.watch.end(this.roundNow);
    this.roundNow = undefined;
    this.roundActive = false;
    this.events.state();
  }

  private hasBrain(): boolean {
    return this.deps.brainReady?.() ?? true;
  }

  /** No brain: the child hears the catalogue's sentence; the app opens the way to choose one. */
  private async noBrain(roundId: string): Promise<void> {
    this.record({ kind: 'error', roundId, name: 'model_not_configured', data: { code: 'model_not_configured' } });
    this.events.emit({ type: 'needs-brain', roundId });
    await this.sayMain(this.lines.child('model_not_configured'), roundId);
  }

  private async sayMain(text: string, roundId: string): Promise<void> {
    await this.voice.say(text, 'main', { roundId });
    this.history.remember({ role: 'main', text, at: this.now() });
  }

  /** "停/不玩了" must not wait behind a slow model call or a game that is still thinking. */
  private interruptForStop(): void {
    this.voice.stop();
    this.modelAbort?.abort();
    this.requests.interrupt();
  }

  private record(e: Omit<TraceEvent, 'at' | 'source'> & { source?: string; at?: number }): void {
    recordSafely(this.trace, { source: 'main', at: this.now(), ...e });
  }
}
