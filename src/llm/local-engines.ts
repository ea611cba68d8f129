/**
 * The engines on this device, `'webllm'` (WebGPU) and `'cpu'` (llama.cpp in WebAssembly), and what
 * differs between them: the model controller writes each action once over `ENGINES`.
 */
import type { ModelError } from '../core/llm/types.ts';
import { modelName } from '../core/llm/models.ts';
import { cpuModelName } from '../core/llm/cpu-models.ts';
import { modelError } from './errors.ts';
import type { LoadRequest } from './engine-service.ts';
import type { ProviderKind } from './model-hub.ts';
import type { ModelSettings } from './settings-store.ts';
import type { LocalProvider } from './local-provider.ts';
import type { LocalState } from './local-state.ts';
import { probeErrorCode, type WebGpuProbe } from './webgpu-probe.ts';
import { cpuProbeSummary, type CpuProbe } from './cpu-probe.ts';
import { createCpuProvider } from './cpu-provider.ts';

/** The engines that run on this device. */
export type LocalEngine = Extract<ProviderKind, 'webllm' | 'cpu'>;
export const LOCAL_ENGINES: readonly LocalEngine[] = ['webllm', 'cpu'];

export function isLocalEngine(kind: ProviderKind | undefined): kind is LocalEngine {
  return LOCAL_ENGINES.includes(kind as LocalEngine);
}

/** A self-hosted model's addresses. */
export interface ModelUrls {
  modelUrl?: string;
  modelLibUrl?: string;
}

/** What an engine's spec reads of the controller's state. */
export interface EngineView {
  settings: ModelSettings;
  probe?: WebGpuProbe;
  cpuProbe?: CpuProbe;
  /** The WebLLM model id actually loaded / to load on this GPU (q4f32 twin without f16). */
  effectiveModelId: string;
  local: LocalState;
  cpu: LocalState;
}

/** The providers an engine is made from. */
export interface EngineProviders {
  webllm: () => LocalProvider;
  cpu?: () => LocalProvider;
}

/** What differs between the engines on this device; each action of the controller is written once over it. */
export interface LocalEngineSpec {
  /** The field of the state with the engine's model state. */
  field: 'local' | 'cpu';
  provider(deps: EngineProviders): LocalProvider;
  /** Why this device cannot run the engine; undefined when it can. */
  cannotRun(s: EngineView): ModelError | undefined;
  /** The chosen model as the engine loads it. */
  request(s: EngineView): LoadRequest;
  /** The chosen model's key in `settings.readyOffline` (`loadedId`: the id the engine said it loaded). */
  offlineKey(s: EngineView, loadedId?: string): string;
  /** The settings with another model chosen. */
  withModel(settings: ModelSettings, modelId: string, urls: ModelUrls): ModelSettings;
  /** Choosing another model first stops the hub using the loaded one and frees it. */
  freesOnChoose: boolean;
  /** The engine tells its threads and speeds once loaded (`cpuDetails`). */
  details: boolean;
  /** The chosen model's name for a family (「本机中号大脑」, 「本机自备的慢速大脑」). */
  name(s: EngineView): string;
}

export const ENGINES: Record<LocalEngine, LocalEngineSpec> = {
  webllm: {
    field: 'local',
    provider: (deps) => deps.webllm(),
    cannotRun: ({ probe }) => (probe?.usable ? undefined : modelError((probe && probeErrorCode(probe)) ?? 'model_no_webgpu')),
    request: ({ settings: s, effectiveModelId }) => ({ modelId: effectiveModelId, modelUrl: s.localModelUrl || undefined, modelLibUrl: s.localModelLibUrl || undefined }),
    offlineKey: (s, loadedId) => loadedId ?? s.effectiveModelId,
    withModel: (s, modelId, urls) => ({
      ...s,
      localModelId: modelId,
      localModelUrl: urls.modelUrl ?? s.localModelUrl,
      localModelLibUrl: urls.modelLibUrl ?? s.localModelLibUrl,
    }),
    freesOnChoose: false,
    details: false,
    name: ({ settings: s, effectiveModelId }) => `本机${s.localModelUrl ? '自备的大脑' : modelName(effectiveModelId)}`,
  },
  cpu: {
    field: 'cpu',
    provider: (deps) => (deps.cpu ?? (() => createCpuProvider()))(),
    cannotRun: ({ cpuProbe }) => (cpuProbe?.usable ? undefined : modelError('model_cpu_unsupported', cpuProbe ? cpuProbeSummary(cpuProbe) : undefined)),
    request: ({ settings: { cpu: c } }) => ({
      // A self-hosted file is named by its file name (the label says what is really loaded).
      ...(c.modelUrl ? { modelId: decodeURIComponent(c.modelUrl.split(/[?#]/)[0].split('/').pop() || c.modelUrl), modelUrl: c.modelUrl } : { modelId: c.modelId }),
      ...(c.threads ? { threads: c.threads } : {}),
    }),
    // Its CPU_MODELS id, or its own address.
    offlineKey: ({ settings: { cpu: c } }) => (c.modelUrl ? `cpu:${c.modelUrl}` : `cpu:${c.modelId}`),
    withModel: (s, modelId, urls) => ({ ...s, cpu: { modelId, modelUrl: urls.modelUrl ?? s.cpu.modelUrl } }),
    freesOnChoose: true,
    details: true,
    name: ({ settings: { cpu: c } }) => `本机${cpuModelName(c.modelId, !!c.modelUrl)}`,
  },
};

/** The family name of the engine's chosen model (「本机中号大脑」). */
export function engineName(s: EngineView, engine: LocalEngine): string {
  return ENGINES[engine].name(s);
}

/** The engine's model state in a snapshot. */
export function engineState(s: EngineView, engine: LocalEngine): LocalState {
  return s[ENGINES[engine].field];
}
