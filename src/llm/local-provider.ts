/**
 * A local engine's provider, main-thread side: starts the model worker on demand, loads the model
 * with progress, and sends each completion into the worker's FIFO queue (cancellation crosses by
 * request id). Errors come back as catalogue codes. WebLLM (webllm-provider.ts) and the CPU engine
 * (cpu-provider.ts) are this with their own check before loading and their own worker name.
 */
import * as Comlink from 'comlink';
import type { StepProvider } from './decide-step.ts';
import type { EngineDetails, EngineResult, EngineStatus, LoadProgress, LoadRequest, ModelEngineService, StepRates } from './engine-service.ts';
import { abortError, modelError, toModelError } from './errors.ts';
import { buildStepSchema } from '../core/llm/step-schema.ts';
import type { ChatMessage, JsonSchema } from '../core/llm/types.ts';
import { isErrorCode } from '../core/errors/catalogue.ts';

export interface LocalProvider extends StepProvider {
  /** Checks the device, then loads the model; resolves with the model id actually loaded. */
  load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<string>;
  /** Stops the running generation. */
  interrupt(): void;
  /** Frees the engine's memory (waiting requests are cancelled). */
  unload(): Promise<void>;
  isCached(req: LoadRequest): Promise<boolean>;
  deleteCached(req: LoadRequest): Promise<void>;
  status(): Promise<EngineStatus>;
  /** What the loaded engine tells about itself (threads, last speeds). */
  details(): Promise<EngineDetails | undefined>;
  /** One step's cost on this device (the calibration after a load): the engine's counts and rates. */
  measure(messages: ChatMessage[], schema: JsonSchema, maxTokens: number): Promise<StepRates>;
  /** Builds (and caches in the worker) the grammar for a step schema. */
  prepareGrammar(schema: JsonSchema): Promise<string>;
  /** Ends the worker. */
  dispose(): void;
}

export interface LocalProviderSpec {
  createWorker: () => Worker;
  /** The request as this device should load it; throws a ModelError when the engine cannot run here. */
  prepare(req: LoadRequest): Promise<LoadRequest>;
  /** The provider's label for a loaded model id (or undefined: not loaded). */
  label(loadedId: string | undefined): string;
}

function unwrap<T>(r: EngineResult<T>): T {
  if (r.ok) return r.value;
  if (r.code === 'aborted') throw abortError();
  throw modelError(isErrorCode(r.code) ? r.code : 'unknown', r.message);
}

let seq = 0;

/** Any short reply: a prewarm on an engine that keeps the longest common prefix decodes one token of it. */
const PREWARM_SCHEMA: JsonSchema = buildStepSchema([{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }]);

export function createLocalProvider(spec: LocalProviderSpec): LocalProvider {
  let worker: Worker | undefined;
  let service: Comlink.Remote<ModelEngineService> | undefined;
  let loadedId: string | undefined;

  const api = () => {
    if (!service) {
      worker = spec.createWorker();
      service = Comlink.wrap<ModelEngineService>(worker);
    }
    return service;
  };
  const online = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;

  return {
    get label() {
      return spec.label(loadedId);
    },

    async load(req, onProgress = () => {}) {
      const actual = await spec.prepare(req);
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
          await service.complete(
            { id, agent: req.agent, messages: req.messages, schema: req.schema, maxTokens: req.maxTokens, temperature: req.temperature },
            req.onDelta ? Comlink.proxy(req.onDelta) : undefined,
          ),
        );
      } finally {
        req.signal?.removeEventListener('abort', onAbort);
      }
    },

    async measure(messages, schema, maxTokens) {
      if (!service) throw modelError('model_not_loaded');
      const id = `${Date.now().toString(36)}-${++seq}`;
      return unwrap(await service.measure({ id, agent: 'calibration', messages, schema, maxTokens, temperature: 0 }));
    },

    /**
     * The engine reads `messages` (a request's start) into its cache: llama.cpp reads them and
     * decodes one token; WebLLM is given back that conversation when another agent's step took it.
     */
    async prewarm(messages: ChatMessage[], signal: AbortSignal) {
      if (!service || !loadedId || signal.aborted) return;
      const id = `${Date.now().toString(36)}-${++seq}`;
      const onAbort = () => void service?.cancel(id);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await service.prewarm({ id, agent: 'prewarm', messages, schema: PREWARM_SCHEMA, maxTokens: 1, temperature: 0 });
      } finally {
        signal.removeEventListener('abort', onAbort);
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
      return api().isCached(await spec.prepare(req).catch(() => req));
    },

    async deleteCached(req) {
      unwrap(await api().deleteCached(await spec.prepare(req).catch(() => req)));
    },

    async prepareGrammar(schema) {
      return unwrap(await api().grammar(schema));
    },

    async status() {
      return service ? service.status() : { waiting: [] };
    },

    async details() {
      return service ? (await service.status()).details : undefined;
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
