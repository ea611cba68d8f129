/**
 * The model worker's core: one engine, one model at a time, every agent's completions in one
 * FIFO queue. Cancelling a waiting request removes it from the queue; cancelling the running one
 * interrupts generation. Results cross the worker boundary as plain values (codes, not Error
 * objects, whose class is lost on the way). The engine itself is injected (WebLLM in
 * workers/model.ts, a fake in tests).
 */
import { isAbortError, toModelError } from './errors.ts';
import { FifoQueue } from './request-queue.ts';
import type { ChatMessage, JsonSchema } from '../core/llm/types.ts';

/** The model worker's name that makes it run the CPU engine (workers/model.ts). */
export const CPU_WORKER_NAME = 'model-cpu';

export interface LoadRequest {
  modelId: string;
  /** Absolute (or page-relative) URL of the self-hosted model folder (HF layout). */
  modelUrl?: string;
  /** Absolute (or page-relative) URL of the model library (.wasm). */
  modelLibUrl?: string;
  contextWindow?: number;
  /** CPU engine: threads to use (default: chosen from the cores when cross-origin isolated, else 1). */
  threads?: number;
  /**
   * CPU engine: cache slots (llama.cpp's parallel sequences over one unified KV cache). With two, a
   * request goes to the slot whose cached prompt it shares most with, so the main agent's requests
   * and a game's keep their own caches.
   */
  slots?: number;
  /**
   * CPU engine: prompt tokens read per engine step (llama.cpp's n_batch). A cancel takes effect
   * between steps, so this bounds how long an abandoned prefill keeps the engine (default
   * CPU_PREFILL_CHUNK, core/llm/engine-choice.ts).
   */
  batch?: number;
}

export interface LoadProgress {
  /** 0..1 */
  progress: number;
  text: string;
  /** Bytes downloaded so far and in all, when the engine tells (the CPU engine does). */
  loaded?: number;
  total?: number;
}

export interface EngineCompletion {
  id: string;
  agent: string;
  messages: ChatMessage[];
  schema: JsonSchema;
  maxTokens: number;
  temperature: number;
}

/** What one step cost the engine: its own counts and rates when it tells them, else wall-clock ones. */
export interface StepRates {
  promptTokens?: number;
  decodeTokens?: number;
  /** Tokens per second of the prompt (prefill) and of the generated text (decode). */
  prefillPerS?: number;
  decodePerS?: number;
  /** Wall clock: request → first decoded piece, and first piece → end (ms). */
  firstPieceMs: number;
  decodeMs: number;
}

export type EngineResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/** What a loaded engine tells about itself (the CPU engine: its threads and last speeds). */
export interface EngineDetails {
  threads?: number;
  multiThread?: boolean;
  /** Tokens per second of the last step: prompt (prefill) and generated (decode). */
  promptPerSecond?: number;
  decodePerSecond?: number;
  promptTokens?: number;
  decodeTokens?: number;
}

export interface EngineStatus {
  details?: EngineDetails;
  loaded?: string;
  loading?: string;
  running?: string;
  waiting: string[];
}

/**
 * One streamed chunk: the decoded piece, and at the end the engine's own counts — WebLLM's `usage`
 * (asked for with `stream_options.include_usage`), llama.cpp's `timings` (the CPU engine).
 */
export interface EngineChunk {
  choices: Array<{ delta?: { content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; extra?: { prefill_tokens_per_s?: number; decode_tokens_per_s?: number } } | null;
  timings?: { prompt_n?: number; prompt_per_second?: number; predicted_n?: number; predicted_per_second?: number };
}

/** What we use of WebLLM's MLCEngine. */
export interface EngineLike {
  reload(modelId: string, chatOpts?: Record<string, unknown>): Promise<void>;
  chatCompletion(req: Record<string, unknown>): Promise<AsyncIterable<EngineChunk>>;
  interruptGenerate(): void | Promise<void>;
  unload(): Promise<void>;
  details?(): EngineDetails;
}

export interface EngineDeps {
  /**
   * The engine to load `req` with: created on first use, then reused (set its app config and
   * progress callback), so a second load aborts the first and one model stays on the GPU.
   */
  prepareEngine(current: EngineLike | undefined, req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<EngineLike>;
  /** Step schema → EBNF (bounded whitespace). */
  grammar(schema: JsonSchema): Promise<string>;
  isQwen3(modelId: string): boolean;
  isCached?(req: LoadRequest): Promise<boolean>;
  deleteCached?(req: LoadRequest): Promise<void>;
  online?(): boolean;
  /** Milliseconds clock for the step rates (performance.now by default). */
  now?(): number;
}

/** What an engine module (webllm-engine.ts, cpu-engine.ts) gives; the worker adds the rest (lazyEngineDeps). */
export type EngineModule = Omit<EngineDeps, 'isQwen3' | 'online' | 'now'>;

/** `url` made absolute against the page (WebLLM throws on a relative one; the CPU engine's cache is keyed by the absolute one). */
export function absoluteUrl(url: string): string {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  return base ? new URL(url, base).href : new URL(url).href;
}

export interface ModelEngineService {
  load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<EngineResult<string>>;
  /** One step under its grammar; `onDelta` hears each decoded piece as it comes. */
  complete(c: EngineCompletion, onDelta?: (delta: string) => void): Promise<EngineResult<string>>;
  /** One step like `complete`, answered with what it cost (the calibration after a load). */
  measure(c: EngineCompletion): Promise<EngineResult<StepRates>>;
  cancel(id: string): void;
  /** Stops the running generation (the request resolves with what it has, flagged aborted). */
  interrupt(): void;
  unload(): Promise<EngineResult<void>>;
  status(): EngineStatus;
  /** The EBNF sent for this schema (cached; lets a caller warm it up before the first step). */
  grammar(schema: JsonSchema): Promise<EngineResult<string>>;
  isCached(req: LoadRequest): Promise<boolean>;
  deleteCached(req: LoadRequest): Promise<EngineResult<void>>;
}

function fail(err: unknown, online: boolean): { ok: false; code: string; message: string } {
  if (isAbortError(err)) return { ok: false, code: 'aborted', message: '已取消' };
  const e = toModelError(err, online);
  return { ok: false, code: e.code, message: e.message };
}

export function createEngineService(deps: EngineDeps): ModelEngineService {
  const queue = new FifoQueue();
  const controllers = new Map<string, AbortController>();
  const online = () => deps.online?.() ?? true;
  let engine: EngineLike | undefined;
  let loaded: string | undefined;
  let loadSeq = 0;
  let loading: { modelId: string; done: Promise<EngineResult<string>> } | undefined;
  let runningId: string | undefined;

  async function doLoad(req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<EngineResult<string>> {
    const seq = ++loadSeq;
    try {
      loaded = undefined;
      engine = await deps.prepareEngine(engine, req, onProgress);
      const chatOpts = req.contextWindow ? { context_window_size: req.contextWindow } : undefined;
      await engine.reload(req.modelId, chatOpts); // unloads the previous model first
      // WebLLM resolves (does not reject) a reload aborted by a newer load or an unload.
      if (seq !== loadSeq) return { ok: false, code: 'aborted', message: '加载被新的请求取代' };
      loaded = req.modelId;
      onProgress({ progress: 1, text: '已加载' });
      return { ok: true, value: req.modelId };
    } catch (err) {
      return fail(err, online());
    }
  }

  const clock = () => deps.now?.() ?? (globalThis as { performance?: { now(): number } }).performance?.now() ?? Date.now();

  async function generate(c: EngineCompletion, signal: AbortSignal, onDelta?: (delta: string) => void, rates?: (r: StepRates) => void): Promise<string> {
    if (loading) {
      const r = await loading.done;
      if (!r.ok) throw new Error(r.message);
    }
    if (!engine || !loaded) throw new Error('ModelNotLoadedError: Model not loaded');
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    const grammar = await deps.grammar(c.schema);
    const e = engine;
    runningId = c.id;
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
        ...(deps.isQwen3(loaded) ? { extra_body: { enable_thinking: false } } : {}),
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
      if (rates) {
        const end = clock();
        const firstPieceMs = (first ?? end) - t0;
        const decodeMs = end - (first ?? end);
        const promptTokens = timings?.prompt_n ?? counted?.prompt_tokens;
        const decodeTokens = timings?.predicted_n ?? counted?.completion_tokens;
        rates({
          promptTokens,
          decodeTokens,
          prefillPerS: timings?.prompt_per_second ?? counted?.extra?.prefill_tokens_per_s ?? (promptTokens && firstPieceMs > 0 ? promptTokens / (firstPieceMs / 1000) : undefined),
          decodePerS:
            timings?.predicted_per_second ?? counted?.extra?.decode_tokens_per_s ?? (decodeTokens && decodeTokens > 1 && decodeMs > 0 ? (decodeTokens - 1) / (decodeMs / 1000) : undefined),
          firstPieceMs,
          decodeMs,
        });
      }
      return text;
    } finally {
      runningId = undefined;
    }
  }

  return {
    load(req, onProgress = () => {}) {
      const done = doLoad(req, onProgress).finally(() => {
        if (loading?.done === done) loading = undefined;
      });
      loading = { modelId: req.modelId, done };
      return done;
    },

    async complete(c, onDelta) {
      const ac = new AbortController();
      controllers.set(c.id, ac);
      try {
        const text = await queue.run(() => generate(c, ac.signal, onDelta), { signal: ac.signal, label: `${c.agent}#${c.id}` });
        return { ok: true, value: text };
      } catch (err) {
        return fail(err, online());
      } finally {
        controllers.delete(c.id);
      }
    },

    async measure(c) {
      const ac = new AbortController();
      controllers.set(c.id, ac);
      let got: StepRates | undefined;
      try {
        await queue.run(() => generate(c, ac.signal, undefined, (r) => (got = r)), { signal: ac.signal, label: `${c.agent}#${c.id}` });
        return got ? { ok: true, value: got } : { ok: false, code: 'unknown', message: 'no rates' };
      } catch (err) {
        return fail(err, online());
      } finally {
        controllers.delete(c.id);
      }
    },

    cancel(id) {
      const ac = controllers.get(id);
      if (!ac) return;
      ac.abort();
      if (runningId === id) void engine?.interruptGenerate();
    },

    interrupt() {
      if (runningId) controllers.get(runningId)?.abort();
      void engine?.interruptGenerate();
    },

    async unload() {
      loadSeq++;
      for (const ac of controllers.values()) ac.abort();
      queue.clear();
      try {
        await engine?.interruptGenerate();
        await engine?.unload();
        loaded = undefined;
        return { ok: true, value: undefined };
      } catch (err) {
        return fail(err, online());
      }
    },

    status() {
      return { loaded, loading: loading?.modelId, running: queue.running, waiting: queue.waitingLabels, details: loaded ? engine?.details?.() : undefined };
    },

    async grammar(schema) {
      try {
        return { ok: true, value: await deps.grammar(schema) };
      } catch (err) {
        return fail(err, online());
      }
    },

    async isCached(req) {
      try {
        return (await deps.isCached?.(req)) ?? false;
      } catch {
        return false;
      }
    },

    async deleteCached(req) {
      try {
        if (loaded === req.modelId) await this.unload();
        await deps.deleteCached?.(req);
        return { ok: true, value: undefined };
      } catch (err) {
        return fail(err, online());
      }
    },
  };
}

/**
 * Deps whose engine module is imported on first use, so one worker entry serves either engine
 * and each engine's code stays in its own chunk.
 */
export function lazyEngineDeps(load: () => Promise<EngineModule>, isQwen3: (id: string) => boolean): EngineDeps {
  let deps: Promise<EngineModule> | undefined;
  const get = () => (deps ??= load());
  return {
    prepareEngine: async (current, req, onProgress) => (await get()).prepareEngine(current, req, onProgress),
    grammar: async (schema) => (await get()).grammar(schema),
    isQwen3,
    isCached: async (req) => (await (await get()).isCached?.(req)) ?? false,
    deleteCached: async (req) => (await get()).deleteCached?.(req),
    online: () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true,
  };
}
