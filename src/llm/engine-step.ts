/**
 * One request run on the model worker's engine (engine-service.ts queues them): a step streamed
 * under its grammar, with what it cost when asked; and a prewarm, which reads the start of a
 * request to come into the engine's cache.
 */
import type { EngineChunk, EngineCompletion, EngineDeps, EngineLike, EngineResult, StepRates } from './engine-types.ts';

/** What the engine service holds: the engine, the model loaded or loading, the request running. */
export interface EngineState {
  engine?: EngineLike;
  loaded?: string;
  loadSeq: number;
  loading?: { modelId: string; done: Promise<EngineResult<string>> };
  runningId?: string;
}

const clockOf = (deps: EngineDeps) => () => deps.now?.() ?? (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

/** The loaded engine, once a load under way is done. */
async function loadedEngine(st: EngineState, signal: AbortSignal): Promise<{ engine: EngineLike; modelId: string }> {
  if (st.loading) {
    const r = await st.loading.done;
    if (!r.ok) throw new Error(r.message);
  }
  if (!st.engine || !st.loaded) throw new Error('ModelNotLoadedError: Model not loaded');
  if (signal.aborted) throw new DOMException('aborted', 'AbortError');
  return { engine: st.engine, modelId: st.loaded };
}

function stepRates(t0: number, first: number | undefined, end: number, counted: EngineChunk['usage'], timings: EngineChunk['timings']): StepRates {
  const firstPieceMs = (first ?? end) - t0;
  const decodeMs = end - (first ?? end);
  const promptTokens = timings?.prompt_n ?? counted?.prompt_tokens;
  const decodeTokens = timings?.predicted_n ?? counted?.completion_tokens;
  return {
    promptTokens,
    decodeTokens,
    prefillPerS: timings?.prompt_per_second ?? counted?.extra?.prefill_tokens_per_s ?? (promptTokens && firstPieceMs > 0 ? promptTokens / (firstPieceMs / 1000) : undefined),
    decodePerS: timings?.predicted_per_second ?? counted?.extra?.decode_tokens_per_s ?? (decodeTokens && decodeTokens > 1 && decodeMs > 0 ? (decodeTokens - 1) / (decodeMs / 1000) : undefined),
    firstPieceMs,
    decodeMs,
  };
}

/** One step under its grammar; `onDelta` hears each decoded piece, `rates` what the step cost. */
export async function runStep(st: EngineState, deps: EngineDeps, c: EngineCompletion, signal: AbortSignal, onDelta?: (delta: string) => void, rates?: (r: StepRates) => void): Promise<string> {
  const { engine: e, modelId } = await loadedEngine(st, signal);
  const grammar = c.grammar ?? (await deps.grammar(c.schema));
  const clock = clockOf(deps);
  st.runningId = c.id;
  const t0 = clock();
  let first: number | undefined;
  let counted: EngineChunk['usage'];
  let timings: EngineChunk['timings'];
  try {
    const stream = await e.chatCompletion({
      messages: c.messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: c.maxTokens,
      temperature: c.temperature,
      response_format: { type: 'grammar', grammar },
      ...(deps.isQwen3(modelId) ? { extra_body: { enable_thinking: false } } : {}),
    });
    // An interrupt sent before generation started is lost in WebLLM: send it again now.
    if (signal.aborted) await e.interruptGenerate();
    let text = '';
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content ?? '';
      if (piece && first === undefined) first = clock();
      if (chunk.usage) counted = chunk.usage;
      if (chunk.timings) timings = chunk.timings;
      text += piece;
      if (piece && onDelta) void Promise.resolve(onDelta(piece)).catch(() => undefined);
      if (signal.aborted) break; // safe in 0.2.86: the lock is released in a finally
    }
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    rates?.(stepRates(t0, first, clock(), counted, timings));
    return text;
  } finally {
    st.runningId = undefined;
  }
}

/**
 * A prewarm: an engine that replays (WebLLM) is given back the conversation `c.messages` holds up
 * to its last step — the messages before that step read, the step decoded again under a grammar
 * that admits only its text (at most one token per byte) — or nothing when it holds it already; any
 * other engine reads `c.messages` and decodes one token under `c.schema`.
 */
export async function warmStep(st: EngineState, deps: EngineDeps, c: EngineCompletion, signal: AbortSignal): Promise<void> {
  const { engine } = await loadedEngine(st, signal);
  if (!engine.replay) {
    await runStep(st, deps, c, signal);
    return;
  }
  const plan = engine.replay(c.messages);
  if (!plan) return;
  const maxTokens = new TextEncoder().encode(plan.reply).length + 8;
  await runStep(st, deps, { ...c, messages: plan.messages, grammar: plan.grammar, maxTokens, temperature: 0 }, signal);
}
