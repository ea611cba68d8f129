/**
 * The model worker's core: one engine, one model at a time, every agent's completions in one
 * FIFO queue. Cancelling a waiting request removes it from the queue; cancelling the running one
 * interrupts generation. Results cross the worker boundary as plain values (codes, not Error
 * objects, whose class is lost on the way). The engine itself is injected (WebLLM in
 * workers/model.ts, a fake in tests).
 */
import { isAbortError, toModelError } from './errors.ts';
import { FifoQueue } from './request-queue.ts';
import { runStep, warmStep, type EngineState } from './engine-step.ts';
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
  /** The grammar to decode under, as it is (instead of one built from `schema`). */
  grammar?: string;
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
  /**
   * An engine that keeps one conversation and reuses its cache only for a request that extends it
   * (WebLLM): what to send so that it holds `messages` (a request's start, ending with the
   * assistant's step) — the messages before that step, and the step's exact text to decode again
   * under `grammar`; null when it holds them already or cannot. Without it, a prewarm reads the
   * messages and decodes one token (an engine that keeps the longest common prefix: llama.cpp).
   */
  replay?(messages: ChatMessage[]): { messages: ChatMessage[]; reply: string; grammar: string } | null;
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
  /**
   * Reads `c.messages` (the start of a request to come) into the engine's cache; nothing is said.
   * In the queue like a step, cancelled by its id.
   */
  prewarm(c: EngineCompletion): Promise<EngineResult<void>>;
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

async function loadEngine(st: EngineState, deps: EngineDeps, req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<EngineResult<string>> {
  const seq = ++st.loadSeq;
  try {
    st.loaded = undefined;
    st.engine = await deps.prepareEngine(st.engine, req, onProgress);
    const chatOpts = req.contextWindow ? { context_window_size: req.contextWindow } : undefined;
    await st.engine.reload(req.modelId, chatOpts); // unloads the previous model first
    // WebLLM resolves (does not reject) a reload aborted by a newer load or an unload.
    if (seq !== st.loadSeq) return { ok: false, code: 'aborted', message: '加载被新的请求取代' };
    st.loaded = req.modelId;
    onProgress({ progress: 1, text: '已加载' });
    return { ok: true, value: req.modelId };
  } catch (err) {
    return fail(err, deps.online?.() ?? true);
  }
}

export function createEngineService(deps: EngineDeps): ModelEngineService {
  const queue = new FifoQueue();
  const controllers = new Map<string, AbortController>();
  const online = () => deps.online?.() ?? true;
  const st: EngineState = { loadSeq: 0 };

  /** `fn` in the queue under `c.id` (cancellable by it); its failure as a plain result. */
  async function queued<T>(c: EngineCompletion, fn: (signal: AbortSignal) => Promise<T>): Promise<EngineResult<T>> {
    const ac = new AbortController();
    controllers.set(c.id, ac);
    try {
      return { ok: true, value: await queue.run(() => fn(ac.signal), { signal: ac.signal, label: `${c.agent}#${c.id}` }) };
    } catch (err) {
      return fail(err, online());
    } finally {
      controllers.delete(c.id);
    }
  }

  const service: ModelEngineService = {
    load(req, onProgress = () => {}) {
      const done = loadEngine(st, deps, req, onProgress).finally(() => {
        if (st.loading?.done === done) st.loading = undefined;
      });
      st.loading = { modelId: req.modelId, done };
      return done;
    },
    complete: (c, onDelta) => queued(c, (signal) => runStep(st, deps, c, signal, onDelta)),
    async measure(c) {
      let got: StepRates | undefined;
      const r = await queued(c, (signal) => runStep(st, deps, c, signal, undefined, (x) => (got = x)));
      if (!r.ok) return r;
      return got ? { ok: true, value: got } : { ok: false, code: 'unknown', message: 'no rates' };
    },
    prewarm: (c) => queued(c, (signal) => warmStep(st, deps, c, signal)),
    cancel(id) {
      const ac = controllers.get(id);
      if (!ac) return;
      ac.abort();
      if (st.runningId === id) void st.engine?.interruptGenerate();
    },
    interrupt() {
      if (st.runningId) controllers.get(st.runningId)?.abort();
      void st.engine?.interruptGenerate();
    },
    async unload() {
      st.loadSeq++;
      for (const ac of controllers.values()) ac.abort();
      queue.clear();
      try {
        await st.engine?.interruptGenerate();
        await st.engine?.unload();
        st.loaded = undefined;
        return { ok: true, value: undefined };
      } catch (err) {
        return fail(err, online());
      }
    },
    status() {
      return { loaded: st.loaded, loading: st.loading?.modelId, running: queue.running, waiting: queue.waitingLabels, details: st.loaded ? st.engine?.details?.() : undefined };
    },
    ...cacheMethods(deps, st, online, () => service.unload()),
  };
  return service;
}

/** The grammar and the model files' cache, outside the queue. */
function cacheMethods(deps: EngineDeps, st: EngineState, online: () => boolean, unload: () => Promise<EngineResult<void>>): Pick<ModelEngineService, 'grammar' | 'isCached' | 'deleteCached'> {
  return {
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
        if (st.loaded === req.modelId) await unload();
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
