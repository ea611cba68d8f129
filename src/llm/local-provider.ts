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
import type { ChatMessage, EngineTraits, JsonSchema } from '../core/llm/types.ts';
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
  /** What its engine does with a prompt. */
  traits: EngineTraits;
}

function unwrap<T>(r: EngineResult<T>): T {
  if (r.ok) return r.value;
  if (r.code === 'aborted') throw abortError();
  throw modelError(isErrorCode(r.code) ? r.code : 'unknown', r.message);
}

let seq = 0;

/** Any short reply: a prewarm on an engine that keeps the longest common prefix decodes one token of it. */
const PREWARM_SCHEMA: JsonSchema = buildStepSchema([{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }]);

/** A new request's id (the worker cancels by it). */
const requestId = () => `${Date.now().toString(36)}-${++seq}`;

/** Runs one request in the worker under a new id; an abort of `signal` cancels it there. */
async function cancelOnAbort<T>(cancel: (id: string) => void, signal: AbortSignal | undefined, run: (id: string) => Promise<T>): Promise<T> {
  const id = requestId();
  const onAbort = () => cancel(id);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(id);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

const online = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;

type Service = Comlink.Remote<ModelEngineService>;

/** Loads the model in the worker (started by `api` if need be); a failure as a catalogue code, an abort as it is. */
async function loadIn(api: () => Service, req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<string> {
  try {
    return unwrap(await api().load(req, Comlink.proxy(onProgress)));
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw toModelError(err, online());
  }
}

/** One completion in the worker, its pieces streamed back through `onDelta`; an abort cancels it. */
function completeIn(service: Service, req: Parameters<StepProvider['complete']>[0], cancel: (id: string) => void) {
  return cancelOnAbort(cancel, req.signal, async (id) =>
    unwrap(
      await service.complete(
        { id, agent: req.agent, messages: req.messages, schema: req.schema, maxTokens: req.maxTokens, temperature: req.temperature },
        req.onDelta ? Comlink.proxy(req.onDelta) : undefined,
      ),
    ),
  );
}

/** A prewarm: the engine reads a request's start into its cache (the worker's `prewarm`; nothing comes back). */
function prewarmer(service: () => Service | undefined, loaded: () => boolean, cancel: (id: string) => void) {
  return async (messages: ChatMessage[], signal: AbortSignal): Promise<void> => {
    const s = service();
    if (!s || !loaded() || signal.aborted) return;
    await cancelOnAbort(cancel, signal, async (id) => void (await s.prewarm({ id, agent: 'prewarm', messages, schema: PREWARM_SCHEMA, maxTokens: 1, temperature: 0 })));
  };
}

export function createLocalProvider(spec: LocalProviderSpec): LocalProvider {
  let worker: Worker | undefined;
  let service: Service | undefined;
  let loadedId: string | undefined;

  const api = () => {
    if (!service) {
      worker = spec.createWorker();
      service = Comlink.wrap<ModelEngineService>(worker);
    }
    return service;
  };
  /** Cancels a request in the worker (none once the provider is disposed). */
  const cancel = (id: string) => void service?.cancel(id);

  return {
    get label() {
      return spec.label(loadedId);
    },
    traits: spec.traits,

    async load(req, onProgress = () => {}) {
      const actual = await spec.prepare(req);
      loadedId = await loadIn(api, actual, onProgress);
      return loadedId;
    },

    async complete(req) {
      if (!service) throw modelError('model_not_loaded');
      return completeIn(service, req, cancel);
    },

    async measure(messages, schema, maxTokens) {
      if (!service) throw modelError('model_not_loaded');
      return unwrap(await service.measure({ id: requestId(), agent: 'calibration', messages, schema, maxTokens, temperature: 0 }));
    },

    // llama.cpp reads the messages and decodes one token; WebLLM is given back that conversation.
    prewarm: prewarmer(() => service, () => !!loadedId, cancel),

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
