/**
 * The local provider, main-thread side: probes WebGPU, starts the model worker on demand, loads
 * the chosen model with progress, and sends each completion into the worker's FIFO queue
 * (cancellation crosses by request id). Errors come back as catalogue codes.
 */
import * as Comlink from 'comlink';
import type { StepProvider } from './decide-step.ts';
import type { EngineResult, EngineStatus, LoadProgress, LoadRequest, ModelEngineService } from './engine-service.ts';
import { abortError, modelError, toModelError } from './errors.ts';
import { adaptToGpu, modelLabel } from '../core/llm/models.ts';
import type { JsonSchema } from '../core/llm/types.ts';
import { probeErrorCode, probeSummary, probeWebGPU, type WebGpuProbe } from './webgpu-probe.ts';

export interface WebLlmProviderOptions {
  /** Creates the model worker (default: workers/model.ts as a module worker). */
  createWorker?: () => Worker;
  probe?: () => Promise<WebGpuProbe>;
}

export interface WebLlmProvider extends StepProvider {
  /** Probes WebGPU, then loads the model (the q4f32 twin when the GPU lacks shader-f16). */
  load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<string>;
  /** Stops the running generation. */
  interrupt(): void;
  /** Frees the GPU (waiting requests are cancelled). */
  unload(): Promise<void>;
  isCached(req: LoadRequest): Promise<boolean>;
  deleteCached(req: LoadRequest): Promise<void>;
  status(): Promise<EngineStatus>;
  /** Builds (and caches in the worker) the grammar for a step schema; returns the EBNF. */
  prepareGrammar(schema: JsonSchema): Promise<string>;
  /** Ends the worker. */
  dispose(): void;
}

function defaultWorker(): Worker {
  return new Worker(new URL('../../workers/model.ts', import.meta.url), { type: 'module', name: 'model' });
}

function unwrap<T>(r: EngineResult<T>): T {
  if (r.ok) return r.value;
  if (r.code === 'aborted') throw abortError();
  throw modelError(r.code, r.message);
}

let seq = 0;

export function createWebLlmProvider(opts: WebLlmProviderOptions = {}): WebLlmProvider {
  let worker: Worker | undefined;
  let service: Comlink.Remote<ModelEngineService> | undefined;
  let loadedId: string | undefined;

  const api = () => {
    if (!service) {
      worker = (opts.createWorker ?? defaultWorker)();
      service = Comlink.wrap<ModelEngineService>(worker);
    }
    return service;
  };
  const online = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;
  // Asked once: every load / cache check / delete needs the same answer, and each probe requests a GPU adapter.
  let probed: Promise<WebGpuProbe> | undefined;
  const gpu = () => (probed ??= (opts.probe ?? probeWebGPU)());

  return {
    get label() {
      return loadedId ? `${modelLabel(loadedId)}（本机）` : '本机模型（未加载）';
    },

    async load(req, onProgress = () => {}) {
      const probe = await gpu();
      const code = probeErrorCode(probe);
      if (code) throw modelError(code, probeSummary(probe));
      const actual = { ...req, modelId: adaptToGpu(req.modelId, probe) };
      try {
        loadedId = unwrap(await api().load(actual, Comlink.proxy(onProgress)));
        return loadedId;
      } catch (err) {
        if ((err as Error)?.name === 'AbortError') throw err;
        throw toModelError(err, online());
      }
    },

    async complete(req) {
      if (!service) throw modelError('model_not_loaded');
      const id = `${Date.now().toString(36)}-${++seq}`;
      const onAbort = () => void service?.cancel(id);
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return unwrap(
          await service.complete({
            id,
            agent: req.agent,
            messages: req.messages,
            schema: req.schema,
            maxTokens: req.maxTokens,
            temperature: req.temperature,
          }, req.onDelta ? Comlink.proxy(req.onDelta) : undefined),
        );
      } finally {
        req.signal?.removeEventListener('abort', onAbort);
      }
    },

    interrupt() {
      void service?.interrupt();
    },

    async unload() {
      if (!service) return;
      loadedId = undefined;
      unwrap(await service.unload());
    },

    async isCached(req) {
      const probe = await gpu();
      return api().isCached({ ...req, modelId: adaptToGpu(req.modelId, probe) });
    },

    async deleteCached(req) {
      const probe = await gpu();
      unwrap(await api().deleteCached({ ...req, modelId: adaptToGpu(req.modelId, probe) }));
    },

    async prepareGrammar(schema) {
      return unwrap(await api().grammar(schema));
    },

    async status() {
      return service ? service.status() : { waiting: [] };
    },

    dispose() {
      if (service) service[Comlink.releaseProxy]();
      worker?.terminate();
      worker = undefined;
      service = undefined;
      loadedId = undefined;
    },
  };
}
