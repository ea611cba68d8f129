/**
 * SkillAgent (seed 000 §游戏 Agent): the engine shared by every `skills/<id>/` game. A game subclass
 * provides `skill` (its SKILL.md), `tools(turn)` (its tools) and `state()` (a snapshot without any
 * unrevealed answer). One SkillAgent instance is one game session; GameSessions owns the session
 * rules around it.
 *
 * Prompt layout (kept byte-stable for a local engine's cache): the system prompt is the common
 * prompt + the SKILL.md body, the same for the whole session; each input is one user message
 * `{"event": kind, "user_text": text, "state": snapshot}` — the state
 * snapshot is sent every round, at the end of the prompt, instead of inside the system prompt (so a
 * local engine continues its cached conversation in place; the model still sees the current state
 * every round and never an unrevealed answer). The memory keeps each round exactly as it was sent
 * and generated. The model then decides one action per step through the agent tool loop: a game
 * tool, the built-in `say`, or the final `reply`. Each finished sentence of `say` and of `reply` is
 * sent as an intermediate reply while the model is still writing; the reply's last sentence is the
 * turn's final reply.
 *
 * Rules first (src/core/games/reader.ts): before any model call of a turn, the game's reader
 * (`reader()`, skills/<id>/reader.ts) takes the steps its rules read without doubt — performed through
 * the same tools and written into the transcript exactly as model steps — and the true line of their
 * results is said at once as a `say` step. The model's first step is then the reply; a sentence of it
 * that says again what was said is dropped (src/core/games/already-said.ts). If the model has not
 * finished within the colour window after that line (the turn's `colourMs`, else the agent's), the
 * rules' next prompt ends the turn and nothing more of the model's output is said: the model's step
 * finishes muted in the background, and the round is then
 * kept as generated with a note of what the child heard instead (src/core/games/muted-round.ts), so
 * the next request continues it in place. A muted step runs in the background (StepRequest.background):
 * no deadline, no stall watch and no asking again, so a long prefill is read once instead of again
 * from cold; the next turn, an end, close, or any other agent's step (the hub) stops it. A muted step may only speak (to no one): a game tool is
 * not performed, and the round stays as the rules took it. The next turn, an end or close cancels
 * a muted step still running before anything else.
 *
 * Truth (src/core/games/truth.ts): every sentence of `say` and `reply` is checked against the game's
 * truth rules before it is released; a sentence claiming an outcome the rules did not decide in this
 * turn is refused back to the model (a tool error: it writes the reply again), and after
 * the retries of its `TruthGate` the engine says the rules' line built from the tool results instead.
 *
 * Files: the turn itself is src/games/skill-turn.ts, the tools of one step src/games/turn-tools.ts,
 * a step finishing muted src/games/muted-step.ts, the prompt and input message
 * src/core/games/game-prompt.ts.
 *
 * Errors (seed 000 §出错处理): invalid tool arguments or a throwing tool → `{"error": …}` back to the
 * model (the tool loop); a model error, no reply within the step budget, or the turn's deadline →
 * the rules' line built from what the tools decided in this turn (the child hears the truth of a
 * guess that was judged), remembered as far as it went with that line as its reply (so the next
 * request starts with everything the engine has read), or EngineFailure when they decided nothing
 * (that round is not written to memory).
 *
 * Answers (GameEngine.reveal): a game lists the answers of the session (`answers()`); the engine
 * notes which ones the child has heard, so when the session ends the runtime tells the rest.
 */
import { REPLY_ACTION, SAY_ACTION, COMMON_PROMPT, gameSystemPrompt, inputMessage, isInputMessage } from '../core/games/game-prompt.ts';
import { replaceRound } from '../core/games/muted-round.ts';
import { ToolError, type LoopOutcome, type StepRecord } from '../core/agent/tool-loop.ts';
import { COLOUR_WINDOW_MS } from '../core/arcade/turn-budget.ts';
import type { GameRules } from '../core/games/reader.ts';
import type { EngineReply, EngineTurn, GameEngine } from '../core/games/engine.ts';
import type { Skill } from '../core/games/skill.ts';
import type { TruthRules, TurnResult } from '../core/games/truth.ts';
import { blockedRecord, loadUnsafe, type UnsafeFinding } from './unsafe-line.ts';
import type { SafetyCheckLoader } from '../core/games/engine-host.ts';
import type { Turn } from '../core/games/turn.ts';
import { DEFAULT_TRAITS, type ChatMessage, type ChatModel } from '../core/llm/types.ts';
import type { Random } from '../core/random.ts';
import type { DevicePort, Expression, Gesture } from '../core/robot/types.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';
import { finishMuted, stopMuted, type MutedStep } from './muted-step.ts';
import { SkillTurn, type TurnHost } from './skill-turn.ts';
import type { GameTool } from './turn-tools.ts';

export { ToolError, REPLY_ACTION, SAY_ACTION, COMMON_PROMPT, inputMessage, isInputMessage };
export type { GameTool };

/** What a game agent is built with: everything with I/O is injected. */
export interface AgentDeps {
  model: ChatModel;
  device: DevicePort;
  /** Random source for secrets and questions (the worker seeds it; tests pass their own). */
  random: Random;
  trace?: TraceSink;
  /** Upper bound of model steps per input (tool calls + the final reply). */
  maxSteps?: number;
  now?: () => number;
  /**
   * Pre-executed steps (default on): the game's reader runs before any model call and what the
   * rules read without doubt is performed and written into the transcript as a model step.
   */
  preExecute?: boolean;
  /** The colour window after the rules' truthful line (default COLOUR_WINDOW_MS; a turn may carry its own). */
  colourMs?: number;
  /** False: a model step the colour window cut is aborted instead of finishing muted (default true). */
  finishMuted?: boolean;
  /**
   * True (default): a muted step runs in the background (StepRequest.background) — no deadline, no
   * stall watch, not asked again. False: it keeps the watch and the deadline of a step someone waits for.
   */
  mutedInBackground?: boolean;
  /** False: the model's step after a device step of the rules is not asked while the device works (src/core/agent/ahead.ts; default true). */
  askAhead?: boolean;
  /** False: the rules' line after a result is a `say` step of its own, not noted in that result (AgentTool.notedInResult; default true). */
  notedLines?: boolean;
  /** The child-safety check each line is checked with before it is sent (the worker's, EngineContext.safety); absent: the speaking path's check alone. */
  safety?: SafetyCheckLoader;
}

export const DEFAULT_MAX_STEPS = 8;

/** One answer of a session the child must hear before it ends (a secret number, a question's animal). */
export interface SessionAnswer {
  /** Stable within the session (e.g. "game-1", "question-2"). */
  id: string;
  /** Whether a sentence the robot said tells it. */
  toldIn(sentence: string): boolean;
  /** The child knows it already (they said it and were told they were right). */
  known?: boolean;
  /** How the runtime tells it, when the model did not. */
  line: string;
}

export abstract class SkillAgent implements GameEngine {
  abstract readonly skill: Skill;
  /** This game's tools for the current turn (may depend on the state: offer only what is legal now). */
  abstract tools(turn: Turn): GameTool[];
  /** The state snapshot written into every system prompt. Never contains an unrevealed answer. */
  abstract state(): Record<string, unknown>;

  /**
   * The game's truth rules for this turn (skills/<id>/truth.ts) over the tool results so far; null:
   * the game declares none, every sentence may be said.
   */
  protected truth(_results: readonly TurnResult[], _heard: string): TruthRules | null {
    return null;
  }

  /**
   * The game's rules as a reader (skills/<id>/reader.ts): what they read without doubt is performed
   * before any model call; null: the model decides every step.
   */
  protected reader(): GameRules | null {
    return null;
  }

  /** Every answer of this session so far that the child must hear before the session ends. */
  protected answers(): SessionAnswer[] {
    return [];
  }

  protected readonly model: ChatModel;
  protected readonly device: DevicePort;
  protected readonly trace: TraceSink;
  protected readonly random: Random;
  private readonly maxSteps: number;
  private readonly now: () => number;
  private readonly preExecute: boolean;
  private readonly colourMs: number;
  private readonly finishMuted: boolean;
  private readonly mutedInBackground: boolean;
  private readonly askAhead: boolean;
  private readonly notedLines: boolean;
  private readonly safety: SafetyCheckLoader | undefined;
  /** The remembered rounds, oldest first (the last 16). */
  private memory: ChatMessage[] = [];
  /** Answers of this session the child has heard (SessionAnswer ids). */
  private readonly answersTold = new Set<string>();
  /** The step the colour window cut, while it finishes muted. */
  private muted: MutedStep | undefined;
  /** Every muted step not over yet (on an engine that cannot cut a prefill, an earlier one may still finish). */
  private readonly finishingSteps = new Set<MutedStep>();
  /** Set while handling an input: trace records carry its request id. */
  private requestId: string | undefined;
  private contextId: string | undefined;

  constructor(deps: AgentDeps) {
    this.model = deps.model;
    this.device = deps.device;
    this.trace = deps.trace ?? nullTrace;
    this.random = deps.random;
    this.maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
    this.now = deps.now ?? Date.now;
    this.preExecute = deps.preExecute ?? true;
    this.colourMs = deps.colourMs ?? COLOUR_WINDOW_MS;
    this.finishMuted = deps.finishMuted ?? true;
    this.mutedInBackground = deps.mutedInBackground ?? true;
    this.askAhead = deps.askAhead ?? true;
    this.notedLines = deps.notedLines ?? true;
    this.safety = deps.safety;
  }

  /** The session's remembered conversation (the last 16 rounds). */
  get conversation(): readonly ChatMessage[] {
    return this.memory;
  }

  protected get source(): string {
    return `game:${this.skill.id}`;
  }

  /**
   * Shows an expression and starts a gesture on the robot after a judgement (seed: 答对点头并显示开心，
   * 答错摇头并显示抱歉). Not a model tool. A robot failure never breaks the game's rules.
   */
  protected async react(expression: Expression, gesture: Gesture): Promise<void> {
    const t0 = this.now();
    try {
      await this.device.react(expression, gesture);
      this.record('device', 'react', { expression, gesture }, this.now() - t0);
    } catch (e) {
      this.record('error', 'react', { expression, gesture, error: String(e) });
    }
  }

  protected record(kind: 'model_step' | 'game_tool' | 'device' | 'error', name: string, data: unknown, durationMs?: number, extra: { revealsSecret?: boolean } = {}): void {
    try {
      this.trace.record({ kind, at: this.now(), requestId: this.requestId, contextId: this.contextId, source: this.source, name, data, durationMs, ...extra });
    } catch {
      // Tracing never breaks a game.
    }
  }

  /**
   * Records the game's answer for the parent's trace under a `secret` property: stored, but hidden
   * in the trace view until `recordReveal` (the trace never shows an answer the child has not heard).
   */
  protected recordSecret(name: string, secret: unknown): void {
    this.record('game_tool', name, { secret });
  }

  /** The answer has been told to the child: secrets recorded so far in this session may be shown. */
  protected recordReveal(name: string, data?: unknown): void {
    this.record('game_tool', name, data ?? null, undefined, { revealsSecret: true });
  }
  /** The system prompt: common prompt + SKILL.md body, byte-identical for the whole session. */
  systemPrompt(): string {
    return gameSystemPrompt(this.skill.body);
  }

  /** A line the safety check blocked before it was sent: recorded for the parent's 安全提醒. */
  private recordBlocked(original: string, finding: UnsafeFinding | null, said: string): void {
    try {
      this.trace.record({ kind: 'safety', name: 'blocked', at: this.now(), requestId: this.requestId, contextId: this.contextId, source: this.source, data: blockedRecord(finding, { original, said, gameId: this.source.replace(/^game:/, '') }) });
    } catch {
      // Tracing never breaks a game.
    }
  }

  private onStep(r: StepRecord): void {
    this.record('model_step', r.step.action, { step: r.index + 1, args: r.step.args, ...(r.pre ? { pre: true } : {}) }, r.modelMs);
    if (r.step.action !== REPLY_ACTION || r.refused) this.record('game_tool', r.step.action, { args: r.step.args, result: r.result }, r.toolMs);
  }

  /** What a turn reads and changes of this agent (src/games/skill-turn.ts). */
  private turnHost(finishing?: Promise<void>): TurnHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const agent = this;
    return {
      source: this.source,
      model: this.model,
      maxSteps: this.maxSteps,
      now: this.now,
      colourMs: this.colourMs,
      finishMuted: this.finishMuted,
      mutedInBackground: this.mutedInBackground,
      askAhead: this.askAhead,
      notedLines: this.notedLines,
      gameRules: this.preExecute ? this.reader() : null,
      get memory() {
        return agent.memory;
      },
      set memory(m: ChatMessage[]) {
        agent.memory = m;
      },
      systemPrompt: () => this.systemPrompt(),
      state: () => this.state(),
      truth: (results, heard) => this.truth(results, heard),
      tools: (turn) => this.tools(turn),
      record: (kind, name, data) => this.record(kind, name, data),
      recordBlocked: (original, finding, said) => this.recordBlocked(original, finding, said),
      onStep: (r) => this.onStep(r),
      ...(finishing ? { finishing } : {}),
      muteStep: (loop, stop, historyLength, rulesRound, heard, cleanup, begun) => this.muteStep(loop, stop, historyLength, rulesRound, heard, cleanup, begun),
      prewarmNext: () => this.prewarmNext(),
      prewarm: (messages) => this.prewarm([...messages]),
    };
  }

  /** Plays one input. Intermediate replies go out through `t.say`; rejects with the abort reason when cancelled. */
  async turn(t: EngineTurn): Promise<EngineReply> {
    const { finishing } = this.finishingSteps.size ? await this.settleMuted(t) : {};
    this.requestId = t.requestId;
    this.contextId = t.contextId;
    try {
      const unsafe = await loadUnsafe(this.safety);
      return await new SkillTurn(this.turnHost(finishing), t, unsafe).play();
    } finally {
      this.requestId = undefined;
    }
  }

  /**
   * The model step the colour window cut goes on muted (src/games/muted-step.ts). Finished with a
   * reply: the round as generated + the note of what the child heard (`heard`) replaces the round
   * the rules kept, and the next request's start is prewarmed. Stopped: the round stays as the
   * rules took it.
   */
  private muteStep(loop: Promise<LoopOutcome>, stop: AbortController, historyLength: number, rulesRound: readonly ChatMessage[], heard: string, cleanup: () => void, begun: () => boolean): void {
    const muted = finishMuted(
      loop,
      stop,
      historyLength,
      heard,
      {
        // In place of the round the rules kept; rounds after it (a turn that went on meanwhile) stay.
        keep: (round) => (this.memory = replaceRound(this.memory, rulesRound, round)),
        record: (data) => this.record('model_step', 'muted', data),
        over: (m) => {
          cleanup();
          this.finishingSteps.delete(m);
          if (this.muted === m) this.muted = undefined;
          // Over without a next turn waiting: the engine reads the start of the next request meanwhile.
          if (!m.cancelled && !m.waitedOn) this.prewarmNext();
        },
      },
      begun,
    );
    this.muted = muted;
    this.finishingSteps.add(muted);
  }

  /**
   * The muted steps still running, as the next turn comes. On an engine that cuts a prefill it is
   * cancelled first (the engine is free, memory holds what is kept). On one that reads a begun
   * prefill to the end (EngineTraits.cutsPrefill false), one whose request has gone out is let
   * finish: the turn's model step waits for `finishing` (every muted step still finishing); an end
   * of the game cancels it all the same.
   */
  private async settleMuted(t: EngineTurn): Promise<{ finishing?: Promise<void> }> {
    const traits = (await this.model.traits?.().catch(() => undefined)) ?? DEFAULT_TRAITS;
    if (traits.cutsPrefill || t.kind === 'end') await this.stopMuted('the next turn came');
    else {
      // One still waiting for an earlier one has read nothing: cancelling it costs nothing.
      this.muted = undefined;
      await Promise.all([...this.finishingSteps].filter((m) => !m.begun()).map((m) => stopMuted(m, 'the next turn came')));
    }
    if (!this.finishingSteps.size) return {};
    for (const m of this.finishingSteps) m.waitedOn = true;
    return { finishing: Promise.all([...this.finishingSteps].map((m) => m.done)).then(() => undefined) };
  }

  /** Cancels every muted step still running and waits until they are over. */
  private async stopMuted(why: string): Promise<void> {
    this.muted = undefined;
    await Promise.all([...this.finishingSteps].map((m) => stopMuted(m, why)));
  }

  /**
   * The game goes on: the start of its next request (the system prompt and the rounds as kept) is
   * read into a prefix-caching engine's cache while the child thinks — after a start whose model
   * step the colour window cut, that is the system prompt being read while the opening line is
   * spoken. The hub starts it once the engine is free and stops it when any step comes.
   */
  private prewarmNext(): void {
    this.prewarm([{ role: 'system', content: this.systemPrompt() }, ...this.memory]);
  }

  /** `messages` are read into the engine's cache (ChatModel.prewarm; the hub starts it once the engine is free). */
  private prewarm(messages: ChatMessage[]): void {
    void this.model.prewarm?.(this.source, messages, new AbortController().signal).catch(() => undefined);
  }

  /** What the child was told in a turn: the answers it told are noted (GameSessions calls this after every turn). */
  told(_input: string, replies: string[]): void {
    for (const a of this.answers()) if (!this.answersTold.has(a.id) && replies.some((r) => a.toldIn(r))) this.answersTold.add(a.id);
  }

  /** The session ends now: the answers the child has not heard (in this turn's `said` or before), as one line. */
  reveal(said: readonly string[]): string | null {
    const untold = this.answers().filter((a) => !a.known && !this.answersTold.has(a.id) && !said.some((s) => a.toldIn(s)));
    for (const a of untold) this.recordReveal('reveal', { answer: a.id });
    return untold.length ? untold.map((a) => a.line).join('') : null;
  }

  /** The session is over: an agent holds nothing beyond itself. */
  async close(): Promise<void> {
    await this.stopMuted('the session is over');
    this.memory = [];
  }
}
