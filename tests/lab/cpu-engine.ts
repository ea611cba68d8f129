/**
 * Lab page for the CPU engine (e2e: tests/e2e/cpu-engine.spec.ts, bench/cpu-engine): the real
 * provider, model worker and wllama, loading a GGUF by URL and deciding steps through the real
 * step layer (createChatModel: schema, grammar, validation). Exposes `__cpuLab` to the test.
 */
import { createCpuProvider } from '../../src/llm/cpu-provider.ts';
import { createChatModel } from '../../src/llm/decide-step.ts';
import { probeCpu } from '../../src/llm/cpu-probe.ts';
import type { LoadProgress } from '../../src/llm/engine-service.ts';
import type { ChatMessage, ToolSpec } from '../../src/core/llm/types.ts';

const provider = createCpuProvider();
(globalThis as { __cpuLabLog?: string[] }).__cpuLabLog = [];
const progress: LoadProgress[] = [];

(globalThis as { __cpuLab?: unknown }).__cpuLab = {
  probe: () => probeCpu(),
  async load(modelUrl: string, threads?: number, slots?: number, batch?: number) {
    progress.length = 0;
    const started = performance.now();
    const id = await provider.load({ modelId: 'tiny-test', modelUrl, threads, slots, batch, contextWindow: 8192 }, (p) => progress.push(p));
    return { id, ms: performance.now() - started, progress: [...progress], details: await provider.details(), cached: await provider.isCached({ modelId: 'tiny-test', modelUrl }) };
  },
  async isCached(modelUrl: string) {
    return provider.isCached({ modelId: 'tiny-test', modelUrl });
  },
  async deleteCached(modelUrl: string) {
    await provider.deleteCached({ modelId: 'tiny-test', modelUrl });
  },
  async step(messages: ChatMessage[], tools: ToolSpec[], maxTokens = 256, temperature = 1) {
    const invalid: string[] = [];
    const model = createChatModel(provider, { onInvalid: (i) => invalid.push(`${i.reason}: ${i.raw}`), maxRetries: 0 });
    const deltas: string[] = [];
    const started = performance.now();
    try {
      const step = await model.step({ agent: 'lab', messages, tools, maxTokens, temperature, onStream: (d) => deltas.push(d) });
      return { step, deltas, invalid, ms: performance.now() - started, details: await provider.details() };
    } catch (err) {
      // The engine's own timings of the step whose output was refused (random weights) still count.
      return { error: String(err), deltas, invalid, ms: performance.now() - started, details: await provider.details() };
    }
  },
  /**
   * A step abandoned after `abortMs` (its signal aborts, as when a turn's budget runs out), then at
   * once a short step: how long the short one waits for its first decoded piece tells whether the
   * abandoned request still occupied the engine.
   */
  async abandonThenStep(long: ChatMessage[], short: ChatMessage[], tools: ToolSpec[], abortMs: number) {
    const model = createChatModel(provider, { maxRetries: 0 });
    const ac = new AbortController();
    const started = performance.now();
    const abandoned = model.step({ agent: 'lab', messages: long, tools, maxTokens: 64, temperature: 1, signal: ac.signal }).catch((e) => String(e));
    setTimeout(() => ac.abort(), abortMs);
    await new Promise((r) => setTimeout(r, abortMs));
    const t0 = performance.now();
    let first: number | undefined;
    // Only its timing matters: a step the random weights leave unfinished is still timed.
    const step = await model
      .step({ agent: 'lab', messages: short, tools, maxTokens: 16, temperature: 1, onStream: () => (first ??= performance.now()) })
      .catch((e) => String(e));
    const end = performance.now();
    await abandoned;
    return { abandonedAfterMs: t0 - started, firstPieceMs: (first ?? end) - t0, totalMs: end - t0, step, details: await provider.details() };
  },
  /** The hub's prewarm of the request that will start with `messages` (what the app asks after another agent's step). */
  async prewarm(messages: ChatMessage[]) {
    const started = performance.now();
    await provider.prewarm?.(messages, new AbortController().signal);
    return { ms: performance.now() - started, details: await provider.details() };
  },
  async unload() {
    await provider.unload();
  },
  dispose() {
    provider.dispose();
  },
};
document.getElementById('state')!.textContent = 'ready';
