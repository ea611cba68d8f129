/**
 * A simulated local engine with WebLLM 0.2.86's exact cache rule: it keeps its KV cache only when
 * the new request's history (every message but the last) equals the previous request's messages
 * plus the text it generated; then only the new last message is prefilled, else the whole prompt.
 * Time per step = prefilled tokens / prefill rate + generated tokens / decode rate (a device
 * profile); tokens counted with a real tokenizer over the ChatML text Qwen sees.
 *
 * Per turn (the child's words → the robot's reply):
 * - cue: when the child first hears or sees that the robot is on it;
 * - first sentence: when the first sentence can start to be spoken — with streaming, as soon as the
 *   sentence is decoded (a reply's sentence once the next one has begun); without, when the step
 *   that says it is complete;
 * - full reply: when the turn's last step is complete.
 */
import type { ChatMessage, StepRequest } from '../../src/core/llm/types.ts';
import { readPartialStep } from '../../src/core/llm/step-reader.ts';
import { isFinishedSentence, sentencesOf } from '../../src/core/speech/split.ts';
import type { DeviceProfile } from './profiles.ts';

export interface Tokenizer {
  name: string;
  encode(text: string): number[];
}

export function renderChatML(messages: ChatMessage[]): string {
  return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
}

const same = (a: ChatMessage[], b: ChatMessage[]) => a.length === b.length && a.every((m, i) => m.role === b[i].role && m.content === b[i].content);

export interface StepCost {
  promptTokens: number;
  prefillTokens: number;
  outputTokens: number;
  inPlace: boolean;
}

/** One engine: feed it the steps in the order they were sent. */
export class SimulatedEngine {
  private conversation: ChatMessage[] | null = null;

  constructor(private readonly tok: Tokenizer) {}

  step(req: StepRequest, output: string): StepCost {
    const history = req.messages.slice(0, -1);
    const inPlace = this.conversation !== null && same(this.conversation, history);
    const promptTokens = this.tok.encode(renderChatML(req.messages)).length;
    const prefillTokens = inPlace ? this.tok.encode(renderChatML(req.messages.slice(-1))).length : promptTokens;
    this.conversation = [...req.messages, { role: 'assistant', content: output }];
    return { promptTokens, prefillTokens, outputTokens: this.tok.encode(output).length + 1, inPlace };
  }
}

/** Where in a step's output text the first sentence can leave (null: the step speaks nothing). */
export function firstSentenceEnd(output: string, streaming: boolean): number | null {
  const whole = readPartialStep(output);
  if ((whole.action !== 'reply' && whole.action !== 'say') || !whole.text) return null;
  if (!streaming) return output.length;
  const holdLast = whole.action === 'reply';
  for (let i = 1; i <= output.length; i++) {
    const p = readPartialStep(output.slice(0, i));
    if (p.text === undefined) continue;
    const parts = sentencesOf(p.text);
    const finished = parts.filter((s, k) => isFinishedSentence(s) && (!holdLast || k < parts.length - 1) && (!holdLast || !/^[”’」』）)\]"'\s]*$/.test(parts[k + 1] ?? '')));
    if (finished.length > 0) return i;
  }
  return output.length;
}

export interface TurnSteps {
  /** The requests of one turn, in order, with what the model wrote for each. */
  steps: Array<{ req: StepRequest; output: string }>;
}

export interface TurnTiming {
  cueS: number;
  firstSentenceS: number;
  fullReplyS: number;
  prefillTokens: number;
  steps: number;
  inPlace: number;
}

/** The thinking cue is shown in code before any model call: one event-loop turn and one serial frame (estimate). */
export const CUE_S = 0.05;

export function timeTurn(engine: SimulatedEngine, turn: TurnSteps, profile: DeviceProfile, opts: { streaming: boolean; cue: boolean }, tok: Tokenizer): TurnTiming {
  let t = 0;
  let first: number | null = null;
  let prefill = 0;
  let inPlace = 0;
  for (const { req, output } of turn.steps) {
    const cost = engine.step(req, output);
    prefill += cost.prefillTokens;
    if (cost.inPlace) inPlace++;
    const decodeStart = t + cost.prefillTokens / profile.prefillTps;
    const end = firstSentenceEnd(output, opts.streaming);
    if (first === null && end !== null) {
      const tokens = end >= output.length ? cost.outputTokens : tok.encode(output.slice(0, end)).length + 1;
      first = decodeStart + tokens / profile.decodeTps;
    }
    t = decodeStart + cost.outputTokens / profile.decodeTps;
  }
  const firstSentenceS = first ?? t;
  return { cueS: opts.cue ? CUE_S : firstSentenceS, firstSentenceS, fullReplyS: t, prefillTokens: prefill, steps: turn.steps.length, inPlace };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}
