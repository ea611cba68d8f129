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
 * finishes muted in the background (by the turn's deadline at the latest), and the round is then
 * kept as generated with a note of what the child heard instead (src/core/games/muted-round.ts), so
 * the next request continues it in place. A muted step may only speak (to no one): a game tool is
 * not performed, and the round stays as the rules took it. The next turn, an end or close cancels
 * a muted step still running before anything else.
 *
 * Truth (src/core/games/truth.ts): every sentence of `say` and `reply` is checked against the game's
 * truth rules before it is released; a sentence claiming an outcome the rules did not decide in this
 * turn is refused back to the model (a tool error: it writes the reply again), and after
 * the retries of its `TruthGate` the engine says the rules' line built from the tool results instead.
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
import { cutRound, remember } from '../core/agent/memory.ts';
import { runToolLoop, ToolError, type AgentTool, type LoopOutcome, type StepRecord } from '../core/agent/tool-loop.ts';
import { stepMessage } from '../core/agent/messages.ts';
import { COLOUR_WINDOW_MS } from '../core/arcade/turn-budget.ts';
import { mayRunMuted, mutedRound } from '../core/games/muted-round.ts';
import { alreadySaid, repeatsClaims } from '../core/games/already-said.ts';
import { readTurn } from '../core/games/demo-kit.ts';
import { rulesStep, type GameRules } from '../core/games/reader.ts';
import { EngineFailure, type EngineReply, type EngineTurn, type GameEngine } from '../core/games/engine.ts';
import type { Skill } from '../core/games/skill.ts';
import { checkSentence, truthCorrection, TruthGate, type TruthProblem, type TruthRules, type TurnResult } from '../core/games/truth.ts';
import { rebuiltTurn } from '../core/games/blocked-turn.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { blockedRecord, FINDS_NOTHING, loadUnsafe, UNSAFE, type UnsafeCheck, type UnsafeFinding } from './unsafe-line.ts';
import type { SafetyCheckLoader } from '../core/games/engine-host.ts';
import { Turn } from '../core/games/turn.ts';
import type { ChatMessage, ChatModel, JsonSchema, ToolSpec } from '../core/llm/types.ts';
import { NOTHING_MORE, SentenceStream } from '../core/speech/sentence-stream.ts';
import { sentencesOf } from '../core/speech/split.ts';
import { fitReplyText } from '../core/protocol/game-protocol.ts';
import { HONEST_COMPANION } from '../core/safety/honesty.ts';
import type { Random } from '../core/random.ts';
import type { DevicePort, Expression, Gesture } from '../core/robot/types.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';

export { ToolError };

/** A game tool: the runtime runs it as a loop tool with arguments already valid under `parameters`. */
export type GameTool = Omit<AgentTool, 'kind'>;

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
  /** The child-safety check each line is checked with before it is sent (the worker's, EngineContext.safety); absent: the speaking path's check alone. */
  safety?: SafetyCheckLoader;
}

export const REPLY_ACTION = 'reply';
export const SAY_ACTION = 'say';
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

/** The turn's deadline passed: the engine answers with what its rules decided. */
class DeadlineReached extends Error {
  override name = 'DeadlineReached';
}

/** The rules spoke first and the model's reply was not ready within the colour window. */
class ColourWindowPassed extends Error {
  override name = 'ColourWindowPassed';
}

/** A muted step (after the colour window) stopped: the next turn came, the step would change the game, or the session closed. */
class MutedStepStopped extends Error {
  override name = 'MutedStepStopped';
}

/** The end of the colour window, as the turn sees it. */
const COLOUR_CUT = Symbol('colour window passed');

/** A model step still finishing muted after its turn ended. */
interface MutedStep {
  stop: AbortController;
  /** Cancelled by the next turn, an end or close (nothing is prewarmed then). */
  cancelled: boolean;
  /** Settles (never rejects) once the step is over and memory holds what is kept. */
  done: Promise<void>;
}

interface TurnSpeech {
  saying: SentenceStream<TruthProblem>;
  replying: SentenceStream<TruthProblem>;
}

export const COMMON_PROMPT = [
  '你是桌面小机器人里的游戏主持人，正在用中文语音和小朋友玩游戏。',
  '每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。',
  '规则、答案、判定、计分和次数都由工具负责：不要自己编答案或结果，一切以工具返回为准。',
  '每一轮的输入是 JSON：event 是什么事，user_text 是小朋友的原话，state 是游戏现在的状态。',
  '工具结果在 <tool_response> 里，出现 error 时按提示改正或向小朋友说明。',
  '做耗时的事（比如画画）之前，先用 say 说一句话。',
  '说话要温暖、简短（一两句），适合小朋友听，不用表情符号。回复的第一句要很短，先说结果，小朋友马上就能听到。',
  '这一轮已经用 say 说过的话，小朋友已经听到了：reply 接着往下说，不要再说一遍。',
  HONEST_COMPANION,
].join('\n');

const TEXT = (max: number): JsonSchema => ({
  type: 'object',
  properties: { text: { type: 'string', minLength: 1, maxLength: max } },
  required: ['text'],
  additionalProperties: false,
});

const REPLY_DESCRIPTION = '说出这一轮最后的回复，说完这一轮就结束。';
const SAY_DESCRIPTION = '马上说一句话（比如画画之前），说完继续做下一步。';

/** The round's first message: the child's input and the state, as the model reads it (the tools are in SKILL.md; the decoder allows only the legal ones). */
export function inputMessage(kind: string, text: string, state?: Record<string, unknown>): ChatMessage {
  return { role: 'user', content: JSON.stringify({ event: kind, user_text: text, ...(state ? { state } : {}) }) };
}

/** A round of a game's memory starts at the input message (not at a tool result). */
export function isInputMessage(m: ChatMessage): boolean {
  return m.role === 'user' && m.content.startsWith('{"event":');
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
  private readonly safety: SafetyCheckLoader | undefined;
  /** The safety check of the turn being played (loaded at its start). */
  private unsafe: UnsafeCheck = FINDS_NOTHING;
  /** The remembered rounds, oldest first (the last 16). */
  private memory: ChatMessage[] = [];
  /** Answers of this session the child has heard (SessionAnswer ids). */
  private readonly answersTold = new Set<string>();
  /** The step the colour window cut, while it finishes muted. */
  private muted: MutedStep | undefined;
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
    return `${COMMON_PROMPT}\n\n# 游戏规则和流程\n${this.skill.body}`;
  }

  /**
   * The tool registry of one step: the game's tools, `say`, and the final `reply` (both speak as
   * they are written, through the turn's streams, each sentence checked before it is released).
   */
  private registry(turn: Turn, speech: TurnSpeech, refused: (p: TruthProblem, whole?: string) => string | null, mutedStop: () => ((why: string) => void) | null): AgentTool[] {
    const { saying, replying } = speech;
    // A new step: whatever the last one wrote is over (said, or refused).
    saying.restart();
    replying.restart();
    const say: AgentTool = {
      name: SAY_ACTION,
      description: SAY_DESCRIPTION,
      parameters: TEXT(120),
      kind: 'loop',
      streamText: (text, attempt) => saying.update(text, attempt),
      perform: (args) => {
        const text = String(args.text);
        const problem = saying.problemIn(text);
        if (problem?.problem.claim.kind === UNSAFE) {
          const drop = mutedStop();
          if (drop) {
            // Muted: said to no one and not kept (the round stays as the rules took it).
            drop('a muted line the safety check would block');
            throw new ToolError('muted');
          }
          // Not said (recorded for the parent); the turn goes on to its reply.
          this.recordBlocked(problem.sentence, this.unsafe(problem.sentence), '');
          saying.restart();
          return { said: false, note: '这句话不适合小朋友，没有说出去；接着做这一轮的事' };
        }
        if (problem) {
          refused(problem.problem);
          throw new ToolError(truthCorrection(problem.problem));
        }
        saying.finish(text);
        return { said: true };
      },
    };
    const reply: AgentTool = {
      name: REPLY_ACTION,
      description: REPLY_DESCRIPTION,
      parameters: TEXT(200),
      kind: 'boundary',
      streamText: (text, attempt) => replying.update(text, attempt),
      perform: (args) => {
        let text = fitReplyText(String(args.text));
        if (text === '' && replying.sent.length === 0) throw new ToolError('reply 需要一句话：text 是空的');
        const problem = replying.problemIn(text);
        if (problem) {
          // Refused back to the model, or — after the retries, or at once for an unsafe line — the rules' own line instead.
          const instead = refused(problem.problem, text);
          if (instead === null) throw new ToolError(truthCorrection(problem.problem));
          // '' when the rules have no line either: the turn fails (a fallback sentence) — nothing false is said.
          if (instead === '') return '';
          // The rules' line replaces what was written: only what was said already is not said again.
          replying.restart();
          text = instead;
        }
        return replying.finish(text) || NOTHING_MORE;
      },
    };
    // After the colour window a step may only speak (to no one): a tool that would change the game is not performed.
    const guarded = (t: GameTool): AgentTool => ({
      ...t,
      kind: 'loop',
      perform: (args) => {
        const drop = mayRunMuted(t.name, [SAY_ACTION, REPLY_ACTION]) ? null : mutedStop();
        if (drop) {
          drop(`a muted step called ${t.name}`);
          throw new ToolError('muted');
        }
        return t.perform(args);
      },
    });
    return [...this.tools(turn).map(guarded), say, reply];
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

  /** Plays one input. Intermediate replies go out through `t.say`; rejects with the abort reason when cancelled. */
  async turn(t: EngineTurn): Promise<EngineReply> {
    // A muted step of the last turn is cancelled first (the engine is free, memory holds what is kept).
    if (this.muted) await this.stopMuted('the next turn came');
    this.requestId = t.requestId;
    this.contextId = t.contextId;
    const turn = new Turn(t.kind, t.text, (s) => t.say(s), t.signal);
    // What the tools decided in this turn: the truth rules read it.
    const results: TurnResult[] = [];
    // Built once per state of the turn: only a tool's result (which comes with its change of state) changes them.
    let built: { results: number; rules: TruthRules | null } | undefined;
    const rules = (): TruthRules | null => {
      if (built?.results !== results.length) built = { results: results.length, rules: this.truth(results, t.text) };
      return built.rules;
    };
    const unsafe = (this.unsafe = await loadUnsafe(this.safety));
    const check = (sentence: string): TruthProblem | null => {
      // A line the child-safety check would block is never sent: the turn is rebuilt from the rules instead.
      if (unsafe(sentence)) return { sentence, claim: { kind: UNSAFE, words: sentence }, reason: '这句话不适合小朋友' };
      const r = rules();
      return r ? checkSentence(sentence, r) : null;
    };
    // After the colour window nothing more of the model's output is said.
    let muted = false;
    // The turn stops when it is cancelled, when its deadline passes, or when its muted step is stopped.
    const stop = new AbortController();
    /** While muted: stops the step (it would change the game, or say what may not be said); null before. */
    const mutedStop = (): ((why: string) => void) | null => (muted ? (why: string) => stop.abort(new MutedStepStopped(why)) : null);
    const out = (s: string) => {
      if (!muted) turn.say(s);
    };
    /** The already-said check: a sentence that says again what this turn said is dropped. */
    const repeated = (sentence: string): boolean => {
      if (!turn.said.length) return false;
      if (alreadySaid(sentence, turn.said)) return true;
      const r = rules();
      return r !== null && repeatsClaims(sentence, turn.said, (x) => r.claims(x));
    };
    const speech: TurnSpeech = { saying: new SentenceStream(out, false, check, repeated), replying: new SentenceStream(out, true, check, repeated) };
    const gameRules = this.preExecute ? this.reader() : null;
    /** The conversation when the rules handed over to the model (after the pre-executed steps). */
    let handover: readonly ChatMessage[] | undefined;
    const viewOf = (messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []) => readTurn({ agent: this.source, messages: [...messages], tools: [...tools] });
    /** The rules' line built from the tool results, without the sentences this turn already said (a `say` told the skip). */
    const rulesLine = (): string | null => {
      const line = rules()?.fallback();
      if (!line) return null;
      const unsaid = sentencesOf(line).filter((x) => !turn.said.includes(x.trim()));
      if (unsaid.length) return unsaid.join('');
      // Everything true was said already (the rules spoke first): the rules' next prompt ends the turn.
      return gameRules && handover ? gameRules.nextPrompt(viewOf(handover)) : line;
    };
    const gate = new TruthGate();
    let redirected = false;
    const refused = (p: TruthProblem, whole?: string): string | null => {
      const drop = mutedStop();
      if (drop) {
        // Muted: nothing is said; a refused reply is not kept (the round stays as the rules took it).
        if (p.claim.kind === UNSAFE || !gate.retry()) drop(`a muted reply was refused (${p.claim.kind})`);
        return null;
      }
      if (p.claim.kind === UNSAFE) {
        // The redirect, then the rest of the turn from the tool results (never the model's words again).
        const line = rebuiltTurn({ redirect: redirected ? '' : REDIRECT.game, rulesLine: rules()?.fallback() ?? null, continues: !turn.sessionEnding && t.kind !== 'end', said: turn.said });
        // What was held back: the blocked sentence and the rest of the model's words after it.
        const at = whole?.indexOf(p.sentence) ?? -1;
        this.recordBlocked(at >= 0 ? whole!.slice(at) : p.sentence, unsafe(p.sentence), line);
        redirected = true;
        return line || REDIRECT.game;
      }
      // The refused words stay under `secret` (hidden in the trace view until the answer is told): they may name it.
      this.record('error', 'truth', { claim: p.claim.kind, reason: p.reason, refusal: gate.refusals + 1, secret: { sentence: p.sentence, words: p.claim.words } });
      if (gate.retry()) return null;
      return rulesLine() ?? '';
    };
    const onCancel = () => stop.abort(t.signal.reason);
    if (t.signal.aborted) onCancel();
    else t.signal.addEventListener('abort', onCancel, { once: true });
    const timer = t.deadline !== undefined ? setTimeout(() => stop.abort(new DeadlineReached(`the turn's deadline passed`)), Math.max(0, t.deadline - this.now())) : undefined;
    let colour: ReturnType<typeof setTimeout> | undefined;
    let colourPassed: (() => void) | undefined;
    const colourCut = new Promise<typeof COLOUR_CUT>((resolve) => (colourPassed = () => resolve(COLOUR_CUT)));
    const colourMs = t.colourMs ?? this.colourMs;
    /** The turn has ended at the colour window while its model step finishes muted (cleanup waits for it). */
    let finishing = false;
    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(colour);
      t.signal.removeEventListener('abort', onCancel);
    };
    const input = inputMessage(t.kind, t.text, this.state());
    // The round as far as it went (input, steps, results), remembered when it is cut.
    let partial: readonly ChatMessage[] = [input];
    /** What the tools decided, said truly, when the model did not get to say it (or null). */
    const instead = (why: string): EngineReply | null => {
      const line = rulesLine();
      if (!line) return null;
      this.record('error', 'model_step', { error: why, instead: line });
      speech.replying.restart();
      // Remembered as far as it went, with the line said instead as its reply.
      this.memory = remember(this.memory, cutRound(partial, line), isInputMessage);
      return { text: speech.replying.finish(line) || NOTHING_MORE, ended: turn.sessionEnding || t.kind === 'end' };
    };
    const history = [{ role: 'system' as const, content: this.systemPrompt() }, ...this.memory];
    try {
      const loop = runToolLoop({
        agent: this.source,
        model: this.model,
        messages: [...history, input],
        tools: () => this.registry(turn, speech, refused, mutedStop),
        maxSteps: this.maxSteps,
        now: this.now,
        signal: stop.signal,
        deadline: t.deadline,
        ...(gameRules
          ? {
              pre: (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => rulesStep(gameRules, viewOf(messages, tools), true),
              onHandover: (messages: readonly ChatMessage[]) => {
                handover = messages;
                // The rules spoke: the model has the colour window to add its reply.
                if (turn.said.length)
                  colour = setTimeout(() => {
                    muted = true;
                    colourPassed?.();
                  }, colourMs);
              },
            }
          : {}),
        onMessages: (m) => (partial = m.slice(history.length)),
        onStep: (r) => {
          this.onStep(r);
          if (r.kind === 'loop' && !r.refused && r.step.action !== SAY_ACTION) results.push({ name: r.step.action, args: r.step.args, result: r.result });
        },
      });
      const outcome = await Promise.race([loop, colourCut]);
      if (outcome === COLOUR_CUT && gameRules && handover) {
        // The rules' next prompt ends the turn; the late output is not said. The round is kept as
        // far as the rules took it, with the prompt as its reply, until the muted step finishes.
        const text = gameRules.nextPrompt(viewOf(handover));
        this.record('error', 'model_step', { error: new ColourWindowPassed('the colour window passed').message, instead: text });
        const before = this.memory;
        this.memory = remember(before, [...handover.slice(history.length), stepMessage({ action: REPLY_ACTION, args: { text } })], isInputMessage);
        if (this.finishMuted) {
          finishing = true;
          this.muteStep(loop, stop, history.length, before, text, cleanup);
        } else {
          stop.abort(new ColourWindowPassed('the colour window passed'));
          loop.catch(() => undefined);
        }
        return { text, ended: turn.sessionEnding || t.kind === 'end' };
      }
      if (outcome === COLOUR_CUT) throw new ColourWindowPassed('the colour window passed');
      if (outcome.kind === 'exhausted') {
        const why = `no reply within ${this.maxSteps} steps`;
        const told = instead(why);
        if (told) return told;
        this.record('error', 'model_step', { error: why });
        throw new EngineFailure(why, { sessionOver: turn.sessionEnding });
      }
      if (outcome.result === '') {
        // The truth check refused every reply and the rules had no line of their own.
        throw new EngineFailure('every reply was refused by the truth check', { sessionOver: turn.sessionEnding });
      }
      // The round exactly as it was sent and generated: input, every step and tool result, the reply.
      this.memory = remember(this.memory, outcome.messages.slice(history.length), isInputMessage);
      return { text: outcome.result as string, ended: turn.sessionEnding || t.kind === 'end' };
    } catch (e) {
      if (t.signal.aborted) throw t.signal.reason;
      if (e instanceof EngineFailure) throw e;
      // Out of time: no model error to name (GameSessions says the fallback of the input's kind).
      const code = stop.signal.aborted ? undefined : (e as { code?: unknown }).code;
      const told = instead(String((e as Error)?.message ?? e));
      if (told) return told;
      this.record('error', 'model_step', { error: String(e), code });
      // A tool may already have ended the game in this round: the session is over whatever the model did.
      throw new EngineFailure(String((e as Error)?.message ?? e), { sessionOver: turn.sessionEnding, code: typeof code === 'string' ? code : undefined });
    } finally {
      this.requestId = undefined;
      if (!finishing) {
        cleanup();
        if (!turn.sessionEnding && t.kind !== 'end' && !t.signal.aborted) this.prewarmNext();
      }
    }
  }

  /**
   * The model step the colour window cut goes on muted. Finished with a reply: the round as
   * generated + the note of what the child heard (`heard`) replaces the round the rules kept, and
   * the next request's start is prewarmed. Stopped (the next turn, a game tool, a refused reply,
   * the deadline, a model error): the round stays as the rules took it.
   */
  private muteStep(loop: Promise<LoopOutcome>, stop: AbortController, historyLength: number, before: readonly ChatMessage[], heard: string, cleanup: () => void): void {
    const muted: MutedStep = { stop, cancelled: false, done: Promise.resolve() };
    muted.done = loop
      .then(
        (outcome) => {
          const round = outcome.kind === 'boundary' && outcome.step.action === REPLY_ACTION ? mutedRound(outcome.messages.slice(historyLength), heard) : null;
          if (round) this.memory = remember(before, round, isInputMessage);
          this.record('model_step', 'muted', { kept: round !== null, steps: outcome.steps });
        },
        (e: unknown) => this.record('model_step', 'muted', { kept: false, why: String((e as Error)?.message ?? e) }),
      )
      .then(() => {
        cleanup();
        if (this.muted === muted) this.muted = undefined;
        // Over without a next turn waiting: the engine reads the start of the next request meanwhile.
        if (!muted.cancelled) this.prewarmNext();
      });
    this.muted = muted;
  }

  /** Cancels a muted step still running and waits until it is over. */
  private async stopMuted(why: string): Promise<void> {
    const m = this.muted;
    if (!m) return;
    m.cancelled = true;
    m.stop.abort(new MutedStepStopped(why));
    await m.done;
  }

  /**
   * The game goes on: the start of its next request (the system prompt and the rounds as kept) is
   * read into a prefix-caching engine's cache while the child thinks — after a start whose model
   * step the colour window cut, that is the system prompt being read while the opening line is
   * spoken. The hub starts it once the engine is free and stops it when any step comes.
   */
  private prewarmNext(): void {
    const messages: ChatMessage[] = [{ role: 'system', content: this.systemPrompt() }, ...this.memory];
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
