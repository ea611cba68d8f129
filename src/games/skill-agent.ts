/**
 * SkillAgent (seed 000 §游戏 Agent): the runtime shared by every game. A game subclass provides
 * `skill` (its SKILL.md), `tools(turn)` (its tools) and `state()` (a snapshot without any
 * unrevealed answer). One SkillAgent instance is one game session.
 *
 * For each input: system prompt = common prompt + SKILL.md body + state snapshot (JSON); user message
 * = `{"event": kind, "user_text": text}`. The model then decides one action per step: a game tool,
 * the built-in `say`, or the final `reply`. Tool results go back as a user message wrapped in
 * `<tool_response>…</tool_response>` (Qwen's native format; research/webllm.md §2).
 *
 * Errors (seed 000 §出错处理): invalid tool arguments or a throwing tool → `{"error": …}` back to the
 * model; model error or no reply within the step budget → a fallback sentence, the round is not
 * written to memory, and for `start`/`end` the session ends too.
 */
import { argumentProblem } from '../core/llm/step-schema.ts';
import type { ChatMessage, ChatModel, JsonSchema, Step, ToolSpec } from '../core/llm/types.ts';
import { fitReplyText, gameReply, type GameInput, type GameReply } from '../core/protocol/game-protocol.ts';
import type { GameTurnContext } from '../core/protocol/handler.ts';
import type { DevicePort, Expression, Gesture } from '../core/robot/types.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';
import { childText } from './errors.ts';
import { emptyMemory, memoryMessages, remember, type Memory } from '../core/agent/memory.ts';
import type { Skill } from '../core/games/skill.ts';
import { Turn } from '../core/games/turn.ts';

/** A game tool as the runtime runs it. `run` receives arguments already validated against `parameters`. */
export interface GameTool {
  name: string;
  description: string;
  /** JSON schema of the arguments (an object schema). */
  parameters: JsonSchema;
  run(args: Record<string, unknown>): unknown | Promise<unknown>;
}

/** What a game agent is built with: everything with I/O is injected. */
export interface AgentDeps {
  model: ChatModel;
  device: DevicePort;
  trace?: TraceSink;
  /** Random source in [0, 1) for secrets and questions (tests inject a seeded one). */
  random?: () => number;
  /** Upper bound of model steps per input (tool calls + the final reply). */
  maxSteps?: number;
}

/** Throw from a tool to send a plain `{"error": message}` back to the model (the rule said no). */
export class ToolError extends Error {
  override name = 'ToolError';
}

export const REPLY_ACTION = 'reply';
export const SAY_ACTION = 'say';
export const DEFAULT_MAX_STEPS = 8;

export const COMMON_PROMPT = [
  '你是桌面小机器人里的游戏主持人，正在用中文语音和小朋友玩游戏。',
  '每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。',
  '规则、答案、判定、计分和次数都由工具负责：不要自己编答案或结果，一切以工具返回为准。',
  '用户的原话在 user_text 里；工具结果在 <tool_response> 里，出现 error 时按提示改正或向小朋友说明。',
  '做耗时的事（比如画画）之前，先用 say 说一句话。',
  '说话要温暖、简短（一两句），适合小朋友听，不用表情符号。',
].join('\n');

const REPLY_SPEC: ToolSpec = {
  name: REPLY_ACTION,
  description: '说出这一轮最后的回复，说完这一轮就结束。',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1, maxLength: 200 } },
    required: ['text'],
    additionalProperties: false,
  },
};

const SAY_PARAMETERS: JsonSchema = {
  type: 'object',
  properties: { text: { type: 'string', minLength: 1, maxLength: 120 } },
  required: ['text'],
  additionalProperties: false,
};

const SAY_DESCRIPTION = '马上说一句话（比如画画之前），说完继续做下一步。';

function argNames(schema: JsonSchema): string {
  const props = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  return props.length ? `(${props.join(', ')})` : '';
}

// Tool arguments are validated by the model layer's one cached validator.
export { argumentProblem };

export function toolResponse(name: string, result: unknown): string {
  return `<tool_response>${JSON.stringify({ name, result })}</tool_response>`;
}

function aborted(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The turn was cancelled', 'AbortError');
}

export abstract class SkillAgent {
  abstract readonly skill: Skill;
  /** This game's tools for the current turn (may depend on the state: offer only what is legal now). */
  abstract tools(turn: Turn): GameTool[];
  /** The state snapshot written into every system prompt. Never contains an unrevealed answer. */
  abstract state(): Record<string, unknown>;

  protected readonly model: ChatModel;
  protected readonly device: DevicePort;
  protected readonly trace: TraceSink;
  protected readonly random: () => number;
  private readonly maxSteps: number;
  private memory: Memory = emptyMemory;
  private over = false;
  /** Set while handling an input: trace records carry its request id. */
  private requestId: string | undefined;
  private contextId: string | undefined;

  constructor(deps: AgentDeps) {
    this.model = deps.model;
    this.device = deps.device;
    this.trace = deps.trace ?? nullTrace;
    this.random = deps.random ?? Math.random;
    this.maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  }

  /** The session's remembered rounds (most recent 16). */
  get rounds(): Memory {
    return this.memory;
  }

  /** True once the session is over (natural end, `end`, or a failed start). */
  get sessionOver(): boolean {
    return this.over;
  }

  protected get source(): string {
    return `game:${this.skill.id}`;
  }

  /**
   * Shows an expression and starts a gesture on the robot after a judgement (seed: 答对点头并显示开心，
   * 答错摇头并显示抱歉). Not a model tool. A robot failure never breaks the game's rules.
   */
  protected async react(expression: Expression, gesture: Gesture): Promise<void> {
    const t0 = Date.now();
    try {
      await this.device.react(expression, gesture);
      this.record('device', 'react', { expression, gesture }, Date.now() - t0);
    } catch (e) {
      this.record('error', 'react', { expression, gesture, error: String(e) });
    }
  }

  protected record(
    kind: 'model_step' | 'game_tool' | 'device' | 'error',
    name: string,
    data: unknown,
    durationMs?: number,
    extra: { revealsSecret?: boolean } = {},
  ): void {
    try {
      this.trace.record({ kind, at: Date.now(), requestId: this.requestId, contextId: this.contextId, source: this.source, name, data, durationMs, ...extra });
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

  /**
   * The system prompt of a turn: common prompt + SKILL.md body + the actions legal at the start of
   * the turn (the decoder only enforces names, so the model reads what each one does here) + the
   * state snapshot, last (it is what changes between turns).
   */
  systemPrompt(turn: Turn): string {
    const actions = [...this.tools(turn), { name: SAY_ACTION, description: SAY_DESCRIPTION, parameters: SAY_PARAMETERS }, REPLY_SPEC]
      .map((t) => `- ${t.name}${argNames(t.parameters)}：${t.description}`)
      .join('\n');
    return `${COMMON_PROMPT}\n\n# 游戏规则和流程\n${this.skill.body}\n\n# 现在可用的动作\n${actions}\n\n# 当前状态\n${JSON.stringify(this.state())}`;
  }

  /** Marks the session over without a turn (replaced by a new `start`). */
  close(): void {
    this.over = true;
  }

  /**
   * Handles one input and returns the final reply. Intermediate replies go out through `ctx.say`.
   * Rejects with the abort reason when `ctx.signal` aborts (the turn is cancelled; nothing remembered).
   */
  async handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    this.requestId = ctx.requestId;
    this.contextId = ctx.contextId;
    const turn = new Turn(input.kind, input.text, (t) => ctx.say(t), ctx.signal);
    try {
      return await this.runTurn(turn, ctx.signal);
    } catch (e) {
      if (ctx.signal.aborted) throw aborted(ctx.signal);
      // A bug in a game's tools()/state(): still answer with a sentence that can be spoken.
      this.record('error', 'turn', { error: String((e as Error)?.stack ?? e) });
      return this.fallback(turn);
    } finally {
      this.requestId = undefined;
    }
  }

  private async runTurn(turn: Turn, signal: AbortSignal): Promise<GameReply> {
    const userMessage = JSON.stringify({ event: turn.kind, user_text: turn.text });
    const messages: ChatMessage[] = [
      { role: 'system', content: this.systemPrompt(turn) },
      ...memoryMessages(this.memory),
      { role: 'user', content: userMessage },
    ];

    for (let i = 0; i < this.maxSteps; i++) {
      if (signal.aborted) throw aborted(signal);
      const tools = this.tools(turn);
      const say: GameTool = {
        name: SAY_ACTION,
        description: SAY_DESCRIPTION,
        parameters: SAY_PARAMETERS,
        run: (args) => {
          turn.say(String(args.text));
          return { said: true };
        },
      };
      const all = [...tools, say];
      const specs: ToolSpec[] = [...all.map(({ name, description, parameters }) => ({ name, description, parameters })), REPLY_SPEC];

      let step: Step;
      const t0 = Date.now();
      try {
        step = await this.model.step({ agent: this.source, messages: [...messages], tools: specs, signal });
      } catch (e) {
        if (signal.aborted) throw aborted(signal);
        this.record('error', 'model_step', { error: String(e), code: (e as { code?: string }).code });
        return this.fallback(turn);
      }
      if (signal.aborted) throw aborted(signal);
      this.record('model_step', step.action, { step: i + 1, args: step.args }, Date.now() - t0);
      const assistant = JSON.stringify({ action: step.action, args: step.args ?? {} });
      messages.push({ role: 'assistant', content: assistant });

      if (step.action === REPLY_ACTION) {
        const problem = argumentProblem(REPLY_SPEC.parameters, step.args ?? {});
        const text = problem ? '' : fitReplyText(String(step.args.text));
        if (text === '') {
          messages.push({ role: 'user', content: toolResponse(REPLY_ACTION, { error: `reply 需要一句话：${problem ?? 'text 是空的'}` }) });
          continue;
        }
        this.memory = remember(this.memory, { user: userMessage, assistant });
        return this.finish(turn, text);
      }

      const result = await this.runTool(all.find((t) => t.name === step.action), step, all);
      if (signal.aborted) throw aborted(signal);
      messages.push({ role: 'user', content: toolResponse(step.action, result) });
    }
    // Step budget used up without a final reply.
    this.record('error', 'model_step', { error: `no reply within ${this.maxSteps} steps` });
    return this.fallback(turn);
  }

  private async runTool(tool: GameTool | undefined, step: Step, all: GameTool[]): Promise<unknown> {
    const t0 = Date.now();
    let result: unknown;
    if (!tool) {
      result = { error: `现在不能用 ${step.action}；可以用：${[...all.map((t) => t.name), REPLY_ACTION].join('、')}` };
    } else {
      const args = step.args ?? {};
      const problem = argumentProblem(tool.parameters, args);
      if (problem) {
        result = { error: `参数不对：${problem}` };
      } else {
        try {
          result = (await tool.run(args)) ?? { ok: true };
        } catch (e) {
          result = { error: e instanceof ToolError ? e.message : `工具执行失败：${(e as Error)?.message ?? String(e)}` };
        }
      }
    }
    this.record('game_tool', step.action, { args: step.args, result }, Date.now() - t0);
    return result;
  }

  private finish(turn: Turn, text: string): GameReply {
    const ended = turn.sessionEnding || turn.kind === 'end';
    if (ended) this.over = true;
    return gameReply(text, ended ? 'ended' : 'active');
  }

  /** Fallback sentence; the round is not remembered; `start`/`end` end the session. */
  private fallback(turn: Turn): GameReply {
    if (turn.kind === 'start') {
      this.over = true;
      return gameReply(childText('game_model_failed_start'), 'ended');
    }
    if (turn.kind === 'end') {
      this.over = true;
      return gameReply(childText('game_model_failed_end'), 'ended');
    }
    if (turn.sessionEnding) {
      // A tool already ended the game in this round: the session is over whatever the model did.
      this.over = true;
      return gameReply(childText('game_model_failed_end'), 'ended');
    }
    return gameReply(childText('game_model_failed'), 'active');
  }
}
