/**
 * The agent tool loop, one for every agent (the arcade's main agent, the games' SkillAgent, the
 * Studio's manager and its workers). An agent offers a registry of tools; each model step picks one
 * of the tools legal right now (the decoder enforces it), the loop checks the arguments and runs
 * the tool:
 * - a **loop** tool's result goes back to the model as a tool-result message and the loop goes on;
 * - a **boundary** tool ends the loop (its result is handed to the caller, who decides what the
 *   conversation says next);
 * - a refusal (a `ToolError` thrown by the tool, wrong arguments, a tool that is not offered, or a
 *   tool that failed) goes back as `{"error": …}` and the loop goes on — for boundary tools too.
 * The loop stops after `maxSteps` steps (the agent's burst cap) with `exhausted`. A model failure
 * rejects; an aborted signal rejects with its reason. While a step is decoded, a tool that speaks
 * its `args.text` hears the text as it grows (`streamText`), so a reply can be spoken sentence by
 * sentence before the step is complete. Before the model's first step, the rules' steps (`pre`) are
 * performed and written as if the model had taken them; while one of them waits for the device, the
 * model's step after them may be asked ahead (./ahead.ts). Nothing here does I/O: the model, the
 * tools and the clock are passed in.
 */
import type { ChatMessage, ChatModel, JsonSchema, Step, StepRequest, ToolSpec } from '../llm/types.ts';
import { argumentProblem } from '../llm/step-schema.ts';
import { StepReader } from '../llm/step-reader.ts';
import { askAhead, foresee, type Ahead } from './ahead.ts';
import { stepMessage, toolError, toolResultMessage, withSaid } from './messages.ts';

type ToolKind = 'loop' | 'boundary';

export interface AgentTool {
  name: string;
  description: string;
  /** JSON schema of the arguments (an object schema). */
  parameters: JsonSchema;
  kind: ToolKind;
  /** Does the tool's work with arguments already valid under `parameters`. */
  perform(args: Record<string, unknown>): unknown | Promise<unknown>;
  /**
   * For a tool whose `args.text` is spoken (`reply`, `say`): the text decoded so far, while the
   * model is still writing the step (`attempt` counts retries after invalid output).
   */
  streamText?(text: string, attempt: number): void;
  /** Its result comes once the robot has done something that takes seconds (a drawing). */
  awaitsDevice?: boolean;
  /**
   * The result it gives when it does what it is asked, known before it is done (a device step's
   * success, a line said): the model's step after it may be asked while the device works (./ahead.ts).
   */
  expected?(args: Record<string, unknown>): unknown;
  /**
   * For a speaking tool (`say`, with `expected`): a step of the rules (`pre`) right after a result
   * they got, which gives its expected result, is noted in that result (`"said": args.text`,
   * ./messages.ts) instead of being written as a step and a result of its own. The model reads the
   * line as said, in a few tokens instead of a step's.
   */
  notedInResult?: boolean;
}

/** Thrown by a tool to say no: `{"error": message}` goes back to the model (a rule refused, not a bug). */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface StepRecord {
  /** 0-based step number in this loop. */
  index: number;
  step: Step;
  /** The tool's kind, or null when the step named no tool on offer. */
  kind: ToolKind | null;
  result: unknown;
  /** The tool said no, the arguments were wrong, or it failed; the loop went on. */
  refused: boolean;
  modelMs: number;
  toolMs: number;
  /** A step the rules took before any model call (`pre`), not one the model decoded. */
  pre?: boolean;
}

interface ToolLoopOptions {
  /** Who is asking (queueing and tracing in the model layer), e.g. "main", "game:guess-number". */
  agent: string;
  model: ChatModel;
  /** The conversation so far; the loop works on a copy and returns it with its steps appended. */
  messages: readonly ChatMessage[];
  /** The tools legal now, asked again before every step (a tool may change what is legal). */
  tools: () => readonly AgentTool[];
  /** Steps before the loop gives up (the agent's burst cap). */
  maxSteps: number;
  now: () => number;
  signal?: AbortSignal;
  maxTokens?: number;
  /** Corrections the model layer may send for invalid output in one step (the agent's retry budget). */
  retries?: number;
  /** When every step must be decided by (the turn's budget; see StepRequest.deadline). */
  deadline?: number;
  /** Aborts when no one waits for the loop's words any more (every step from then on: StepRequest.background). */
  background?: AbortSignal;
  /** After every step, whatever happened (trace, the Studio's phase machine). */
  onStep?(record: StepRecord): void;
  /**
   * Pre-executed steps (src/core/games/reader.ts): asked before the loop's first model call, with
   * the conversation so far and the tools on offer; a step it returns is performed and written into
   * the conversation exactly as a model step would be, and it is asked again. Once it returns null,
   * or a step it took is refused (the refusal goes to the model), the model decides the rest.
   */
  pre?(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Step | null;
  /** With `pre`: the rules' steps are over and the model decides from here (the conversation so far). */
  onHandover?(messages: readonly ChatMessage[]): void;
  /**
   * With `pre`: a step the rules took is about to be performed by a tool that awaits the device
   * (AgentTool.awaitsDevice); the conversation so far, that step included, while the robot works.
   * Not called when the model's step after the device's is asked ahead instead (./ahead.ts).
   */
  onDeviceWait?(messages: readonly ChatMessage[]): void;
  /** False: the model's step after a device step of the rules is never asked ahead (default true). */
  askAhead?: boolean;
  /** The conversation as it grows (a round cut before it ends is remembered as far as it went). */
  onMessages?(messages: readonly ChatMessage[]): void;
}

/** At most this many pre-executed steps in one loop (a reader that never stops cannot hang a turn). */
const MAX_PRE_STEPS = 8;

export type LoopOutcome =
  | { kind: 'boundary'; step: Step; result: unknown; messages: ChatMessage[]; steps: number }
  | { kind: 'exhausted'; messages: ChatMessage[]; steps: number };

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function toolSpecs(tools: readonly AgentTool[]): ToolSpec[] {
  return tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}

async function perform(tool: AgentTool | undefined, step: Step, offered: readonly AgentTool[], signal?: AbortSignal): Promise<{ result: unknown; refused: boolean }> {
  if (!tool) return { result: toolError(`现在不能用 ${step.action}；可以用：${offered.map((t) => t.name).join('、')}`), refused: true };
  const args = step.args ?? {};
  const problem = argumentProblem(tool.parameters, args);
  if (problem) return { result: toolError(`参数不对：${problem}`), refused: true };
  try {
    const result = await tool.perform(args);
    return { result: result ?? { ok: true }, refused: false };
  } catch (e) {
    throwIfAborted(signal);
    return { result: toolError(e instanceof ToolError ? e.message : `工具执行失败：${(e as Error)?.message ?? String(e)}`), refused: true };
  }
}

/** The model's request for one step of the loop (the same whether it is asked ahead or at its turn). */
function request(o: ToolLoopOptions, messages: readonly ChatMessage[], tools: readonly ToolSpec[], onStream?: StepRequest['onStream']): StepRequest {
  return { agent: o.agent, messages: [...messages], tools: [...tools], signal: o.signal, maxTokens: o.maxTokens, retries: o.retries, deadline: o.deadline, onStream, ...(o.background ? { background: o.background } : {}) };
}

type PreOutcome = { done: LoopOutcome } | { messages: ChatMessage[]; ahead: Ahead | null };

/**
 * The rules' steps: performed and written exactly like a model's, before the first model call.
 * While a device step works, the model's step after the rules' is asked ahead when it can be foreseen.
 */
async function preSteps(o: ToolLoopOptions, pre: NonNullable<ToolLoopOptions['pre']>): Promise<PreOutcome> {
  const messages = [...o.messages];
  let ahead: Ahead | null = null;
  for (let n = 0; n < MAX_PRE_STEPS; n++) {
    throwIfAborted(o.signal);
    const tools = o.tools();
    const specs = toolSpecs(tools);
    const step = pre(messages, specs);
    if (!step) break;
    const t0 = o.now();
    const tool = tools.find((t) => t.name === step.action);
    const noted = tool?.notedInResult && tool.expected ? withSaid(messages, o.messages.length, String(step.args?.text ?? '')) : null;
    if (!noted) messages.push(stepMessage(step));
    if (tool?.awaitsDevice) {
      const foreseen = tool.expected && o.askAhead !== false ? foresee(messages, step, tools, specs, pre, MAX_PRE_STEPS - n) : null;
      ahead?.drop();
      ahead = foreseen ? askAhead(o.model, request(o, foreseen, specs)) : null;
      if (!ahead) o.onDeviceWait?.([...messages]);
    }
    const { result, refused } = await perform(tool, step, tools, o.signal);
    throwIfAborted(o.signal);
    o.onStep?.({ index: n, step, kind: tool?.kind ?? null, result, refused, modelMs: 0, toolMs: o.now() - t0, pre: true });
    if (tool?.kind === 'boundary' && !refused) {
      ahead?.drop();
      return { done: { kind: 'boundary', step, result, messages, steps: n + 1 } };
    }
    if (noted && !refused && sameJson(result, tool!.expected!(step.args ?? {}))) messages[messages.length - 1] = noted;
    else {
      if (noted) messages.push(stepMessage(step));
      messages.push(toolResultMessage(step.action, result));
    }
    o.onMessages?.(messages);
    if (refused) break;
  }
  o.onHandover?.(messages);
  return { messages, ahead };
}

export async function runToolLoop(o: ToolLoopOptions): Promise<LoopOutcome> {
  let messages = [...o.messages];
  let ahead: Ahead | null = null;
  if (o.pre) {
    const p = await preSteps(o, o.pre);
    if ('done' in p) return p.done;
    ({ messages, ahead } = p);
  }
  for (let index = 0; index < o.maxSteps; index++) {
    throwIfAborted(o.signal);
    const tools = o.tools();
    const t0 = o.now();
    const reader = new StepReader();
    const streaming = tools.some((t) => t.streamText);
    const onStream = streaming
      ? (delta: string, attempt: number) => {
          const p = reader.push(delta, attempt);
          if (p.action === undefined || p.text === undefined) return;
          tools.find((t) => t.name === p.action)?.streamText?.(p.text, attempt);
        }
      : undefined;
    // The step asked ahead, if the device did what it was asked and the rules said what was foreseen.
    const specs = toolSpecs(tools);
    const taken = index === 0 ? ahead?.take(messages, specs, onStream) : null;
    const step = await (taken ?? o.model.step(request(o, messages, specs, onStream)));
    throwIfAborted(o.signal);
    const t1 = o.now();
    messages.push(stepMessage(step));
    o.onMessages?.(messages);
    const tool = tools.find((t) => t.name === step.action);
    const { result, refused } = await perform(tool, step, tools, o.signal);
    throwIfAborted(o.signal);
    o.onStep?.({ index, step, kind: tool?.kind ?? null, result, refused, modelMs: t1 - t0, toolMs: o.now() - t1 });
    if (tool?.kind === 'boundary' && !refused) return { kind: 'boundary', step, result, messages, steps: index + 1 };
    messages.push(toolResultMessage(step.action, result));
    o.onMessages?.(messages);
  }
  return { kind: 'exhausted', messages, steps: o.maxSteps };
}
