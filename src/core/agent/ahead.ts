/**
 * A model step asked ahead, while the robot works. When a step the rules took awaits the device (a
 * drawing takes seconds) and its tool knows the result it gives when the device does what it is
 * asked (`AgentTool.expected`), the conversation after it is foreseen: that result, then the rules'
 * further steps, each with its tool's expected result, up to where the rules hand over to the
 * model. The model's step for that conversation is asked at once; its streamed text is held.
 *
 * At the handover the step is taken only when the conversation and the tools on offer are exactly
 * the ones it was asked with (the device did what it was asked, the rules said what was foreseen):
 * the held text is then released to the live stream as if it had just been written, and the step is
 * the model's first of the loop. Otherwise it is aborted and the model is asked anew. The request a
 * taken step was asked with is therefore the very request the loop would have sent, later.
 */
import type { ChatMessage, ChatModel, Step, StepRequest, ToolSpec } from '../llm/types.ts';
import { stepMessage, toolResultMessage, withSaid } from './messages.ts';

/** What foreseeing needs of a tool (tool-loop.ts's AgentTool). */
interface ForeseenTool {
  name: string;
  expected?(args: Record<string, unknown>): unknown;
  notedInResult?: boolean;
}

type Pre = (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => Step | null;

/**
 * The conversation at the handover, if `step` (just written at the end of `messages`) gets its
 * tool's expected result and every further step of the rules gets its own; null when a step's
 * result cannot be known ahead, or the rules do not hand over within `maxSteps`.
 */
export function foresee(messages: readonly ChatMessage[], step: Step, tools: readonly ForeseenTool[], specs: readonly ToolSpec[], pre: Pre, maxSteps: number): ChatMessage[] | null {
  const out = [...messages];
  let next: Step | null = step;
  for (let i = 0; next && i <= maxSteps; i++) {
    const action: string = next.action;
    const tool = tools.find((t) => t.name === action);
    if (!tool?.expected) return null;
    // Written as the loop writes it: a line noted in the result before it, or a step and its result.
    const noted = i > 0 && tool.notedInResult ? withSaid(out, messages.length, String(next.args?.text ?? '')) : null;
    if (noted) out[out.length - 1] = noted;
    else {
      if (i > 0) out.push(stepMessage(next));
      out.push(toolResultMessage(action, tool.expected(next.args ?? {})));
    }
    next = pre(out, specs);
  }
  return next ? null : out;
}

/** The text a step streams, held until the step is taken (then released to the live stream). */
class HeldStream {
  private held: Array<[string, number]> = [];
  private sink: ((delta: string, attempt: number) => void) | undefined;

  readonly push = (delta: string, attempt: number): void => {
    if (this.sink) this.sink(delta, attempt);
    else this.held.push([delta, attempt]);
  };

  release(sink: ((delta: string, attempt: number) => void) | undefined): void {
    if (sink) for (const [d, a] of this.held) sink(d, a);
    this.held = [];
    this.sink = sink ?? (() => undefined);
  }
}

export interface Ahead {
  /** The step, if this conversation and these tools are the ones it was asked for (its held text then goes to `onStream`); null: aborted. */
  take(messages: readonly ChatMessage[], tools: readonly ToolSpec[], onStream: StepRequest['onStream']): Promise<Step> | null;
  /** Not needed any more: aborted (the loop moved on some other way). */
  drop(): void;
}

const key = (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => JSON.stringify([messages, tools]);

/** Asks `model` for the step of `req` now; `req.signal` still stops it, and so does `drop`. */
export function askAhead(model: ChatModel, req: StepRequest): Ahead {
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort(req.signal?.reason);
  if (req.signal?.aborted) onOuterAbort();
  else req.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const stream = new HeldStream();
  const step = model.step({ ...req, signal: stop.signal, onStream: stream.push });
  // A dropped step's failure (its abort) is nobody's: only a taken one's is the loop's.
  step.catch(() => undefined);
  const asKey = key(req.messages, req.tools);
  const drop = () => {
    req.signal?.removeEventListener('abort', onOuterAbort);
    stop.abort(new Error('the step asked ahead was not needed'));
  };
  return {
    take(messages, tools, onStream) {
      if (key(messages, tools) !== asKey) {
        drop();
        return null;
      }
      stream.release(onStream);
      return step.finally(() => req.signal?.removeEventListener('abort', onOuterAbort));
    },
    drop,
  };
}
