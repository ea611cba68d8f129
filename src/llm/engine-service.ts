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
import type { EngineCompletion, EngineDeps, EngineModule, EngineResult, LoadProgress, LoadRequest, ModelEngineService, StepRates } from './engine-types.ts';

export type { LoadRequest, LoadProgress, EngineCompletion, StepRates, EngineResult, EngineDetails, EngineStatus, EngineChunk, EngineLike, EngineDeps, EngineModule, ModelEngineService } from './engine-types.ts';

/** The model worker's name that makes it run the CPU engine (workers/model.ts). */
export const CPU_WORKER_NAME = 'model-cpu';

/** `url` made absolute against the page (WebLLM throws on a relative one; the CPU engine's cache is keyed by the absolute one). */
export function absoluteUrl(url: string): string {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  return base ? new URL(url, base).href : new URL(url).href;
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
