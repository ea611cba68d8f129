/**
 * A model's first steps on this device, after it loaded for the first time: one step in the step
 * format (a file that loads but cannot answer is not called ready), then its speed measured on the
 * real prompt layout (the CPU engine, when it may use several threads, at each candidate count).
 */
import { CALIBRATION_DECODE_TOKENS, calibrationMessages, chooseThreads, threadCandidates, type ThreadSample } from '../core/llm/brain-speed.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { buildStepSchema } from '../core/llm/step-schema.ts';
import { describeModelError } from './describe.ts';
import { modelError, toModelError } from './errors.ts';
import type { LoadRequest } from './engine-service.ts';
import type { LocalProvider } from './local-provider.ts';
import type { CpuProbe } from './cpu-probe.ts';

/** A loaded local engine as a ChatModel (the step layer is loaded on first use). */
export async function chatModelOf(provider: LocalProvider): Promise<ChatModel> {
  const { createChatModel } = await import('./decide-step.ts');
  return createChatModel(provider);
}

/** The calibration step's schema: a short reply, like a game's reply step. */
const CALIBRATION_SCHEMA = buildStepSchema([
  { name: 'reply', description: '说出这一轮最后的回复', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 40 } }, required: ['text'] } },
]);

/** The step a new model answers before it is called ready. */
const CHECK_AGENT = 'settings:check';
const CHECK_TOOLS = [
  { name: 'reply', description: '说出这一轮最后的回复', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 8 } }, required: ['text'] } },
];

/**
 * One step in the step format (a short reply, decoded under its grammar and read back like every
 * step). On a failure `letGo` runs (the caller stops using the model, and it is unloaded) and a
 * `model_file_bad` error says what the step did; a cancel is passed on as it is.
 */
export async function answersInFormat(provider: LocalProvider, letGo: () => void): Promise<void> {
  try {
    const model = await chatModelOf(provider);
    // Above what the grammar allows (8 characters, up to 4 bytes each, and the JSON around them).
    const step = await model.step({ agent: CHECK_AGENT, messages: calibrationMessages(), tools: CHECK_TOOLS, maxTokens: 96, retries: 1 });
    if (step.action !== 'reply') throw modelError('model_invalid_output', `回答的动作是 ${step.action}`);
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    letGo();
    await provider.unload().catch(() => {});
    const e = toModelError(err);
    throw modelError('model_file_bad', `试答一步没有按格式回答：${describeModelError(e).short}${e.message ? `（${e.message}）` : ''}`);
  }
}

/** Several thread counts to try (the CPU engine with no count chosen): the probe and the model as loaded. */
export interface ThreadTrial {
  probe: CpuProbe;
  request: LoadRequest;
}

/**
 * Measures the loaded model: one short step, its prefill and decode rates. With `trial`, the model
 * is loaded again with each candidate thread count, and left loaded with the fastest (`threads`).
 * `sample` is the measurement at the count in use (`wanted`, else the fastest, else the first); none
 * when nothing could be measured (the brain stays usable, only unmeasured).
 */
export async function measureOnDevice(provider: LocalProvider, trial?: ThreadTrial, wanted?: number): Promise<{ sample?: ThreadSample; threads?: number }> {
  const once = async (): Promise<ThreadSample | undefined> => {
    try {
      const r = await provider.measure(calibrationMessages(), CALIBRATION_SCHEMA, CALIBRATION_DECODE_TOKENS);
      const threads = (await provider.details().catch(() => undefined))?.threads ?? 1;
      return r.prefillPerS && r.decodePerS ? { threads, prefillPerS: r.prefillPerS, decodePerS: r.decodePerS } : undefined;
    } catch {
      return undefined;
    }
  };
  const samples: ThreadSample[] = [];
  const first = await once();
  if (first) samples.push(first);
  let threads: number | undefined;
  if (trial && first) {
    let loadedThreads = first.threads;
    for (const t of threadCandidates(trial.probe.isolated, trial.probe.cores).filter((t) => t !== first.threads)) {
      try {
        await provider.load({ ...trial.request, threads: t }, () => {});
        loadedThreads = t;
        const s = await once();
        if (s) samples.push(s);
      } catch {
        break;
      }
    }
    threads = chooseThreads(samples) ?? first.threads;
    if (threads !== loadedThreads) await provider.load({ ...trial.request, threads }, () => {});
  }
  const pick = threads ?? wanted ?? first?.threads;
  return { sample: samples.find((x) => x.threads === pick) ?? samples[0], ...(threads !== undefined ? { threads } : {}) };
}
