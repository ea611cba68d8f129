/**
 * What the model settings screen (and a first-run screen) drives. Plain TypeScript with
 * `subscribe`, so a Svelte component only mirrors `snapshot` and calls the methods below.
 *
 * - `init()` — at app start: reads the settings, checks the device (WebGPU, the CPU engine),
 *   works out the automatic choice (`snapshot.choice`: engine + a plain-Chinese reason), and brings
 *   the saved or automatic brain back. A model that is ready offline is loaded again without
 *   asking; nothing is ever downloaded without a parent's press; the demo script only when chosen.
 * - `chooseProvider('auto' | kind)` — the brain every agent uses; `auto` follows `snapshot.choice`.
 * - The engines on this device, `'webllm'` (WebGPU) and `'cpu'` (llama.cpp in WebAssembly):
 *   `chooseModel(engine, …)`, `load(engine)`, `unload(engine)`, `remove(engine)`; their states are
 *   `snapshot.local` and `snapshot.cpu` (`engineState`), with the download's bytes, and the CPU
 *   engine's threads and speed once loaded in `snapshot.cpuDetails`.
 * - Remote API: `saveRemote`, `testRemote` (lists the server's models and probes its
 *   structured-output mode, kept with the settings; `snapshot.remoteTest`).
 */
import { DEFAULT_TURN_BUDGET, type StepTimeouts, type TurnBudget } from '../core/arcade/turn-budget.ts';
import { brainSpeed, CALIBRATION_DECODE_TOKENS, calibrationMessages, chooseThreads, rejudge, threadCandidates, type BrainSpeed, type ThreadSample } from '../core/llm/brain-speed.ts';
import type { ChatModel, ModelError } from '../core/llm/types.ts';
import { isErrorCode } from '../core/errors/catalogue.ts';
import { describeModelError, errorDetail } from './describe.ts';
import { buildStepSchema } from '../core/llm/step-schema.ts';
import { modelError, toModelError } from './errors.ts';
import type { EngineDetails, LoadProgress, LoadRequest } from './engine-service.ts';
import type { ModelHub, ProviderKind } from './model-hub.ts';
import { adaptToGpu, defaultChoiceFor, modelName } from '../core/llm/models.ts';
import { cpuModel, cpuModelName, DEFAULT_CPU_MODEL_ID } from '../core/llm/cpu-models.ts';
import { chooseEngine, type EngineChoice } from '../core/llm/engine-choice.ts';
import { endpointProblem } from '../core/llm/remote-endpoint.ts';
import {
  defaultModelSettings,
  loadModelSettings,
  probedKey,
  saveModelSettings,
  type ModelSettings,
  type ProviderSetting,
  type RemoteSettings,
} from './settings-store.ts';
import type { LocalProvider } from './local-provider.ts';
import { createWebLlmProvider } from './webllm-provider.ts';
import { createCpuProvider } from './cpu-provider.ts';
import { currentDeviceHints, probeErrorCode, probeWebGPU, type WebGpuProbe } from './webgpu-probe.ts';
import { cpuProbeSummary, probeCpu, type CpuProbe } from './cpu-probe.ts';
import type { OutputMode } from '../core/llm/output-modes.ts';
import type { ConnectionReport } from './connection-test.ts';

export type LocalState =
  | { kind: 'unknown' }
  | { kind: 'unavailable' }
  | { kind: 'not-downloaded' }
  | { kind: 'downloading'; percent: number; text: string; loaded?: number; total?: number }
  | { kind: 'cached' }
  /** Loaded for the first time; it is answering one step in the step format before it is called ready. */
  | { kind: 'checking' }
  /** Loaded; the calibration step is measuring this device's speed. */
  | { kind: 'measuring' }
  | { kind: 'ready' }
  | { kind: 'failed'; code: string; reason: string };

export interface RemoteTest {
  testing: boolean;
  /** The address and key the test was run with (`remoteFieldsKey`): a result says nothing about other ones. */
  fields?: string;
  /** The model the output mode was found for (the one typed, or the server's first chat model). */
  model?: string;
  /** What the connection test found, in plain words (the server's models when it answered). */
  report?: ConnectionReport;
  mode?: OutputMode;
  /** Why the output mode could not be found (the server answered the model list). */
  modeError?: string;
}

export interface ControllerState {
  settings: ModelSettings;
  probe?: WebGpuProbe;
  cpuProbe?: CpuProbe;
  /** The automatic choice for this device and why (shown in settings and the first-run path). */
  choice?: EngineChoice;
  /** The brain in use or to use: the saved one, or the automatic choice under `auto`. */
  provider: ProviderKind;
  local: LocalState;
  cpu: LocalState;
  /** The loaded CPU engine's threads and last speeds. */
  cpuDetails?: EngineDetails;
  /** Each engine's speed as measured on this device after its chosen model loaded (judged against the current T2). */
  speeds: Partial<Record<LocalEngine, BrainSpeed>>;
  /** Each engine's loaded model by its family name (「本机中号大脑」), while it is loaded. */
  inUse?: Partial<Record<LocalEngine, string>>;
  /** The WebLLM model id actually loaded / to load on this GPU (q4f32 twin without f16). */
  effectiveModelId: string;
  /** Last problem with the remote API (checked before trying, or from the connection test). */
  remoteProblem?: string;
  remoteTest?: RemoteTest;
  active?: ProviderKind;
  activeLabel: string;
  /** The last time the remote API was reached or not (a step or the connection test); unset until then. */
  remoteContact?: { ok: boolean; reason?: string; code?: string };
}

export interface ControllerDeps {
  hub: ModelHub;
  webllm: () => LocalProvider;
  cpu?: () => LocalProvider;
  /** The demo brain (loaded when first chosen). */
  demoModel: () => Promise<ChatModel>;
  probe?: () => Promise<WebGpuProbe>;
  cpuProbe?: () => CpuProbe;
  load?: () => Promise<ModelSettings>;
  save?: (s: ModelSettings) => Promise<void>;
  /** Per-attempt limits of a remote step, sized to the turn budget (read at every attempt). */
  stepTimeouts?: () => StepTimeouts;
  /** The turn budget in use (a local brain's measured wait is judged against its T2). */
  turnBudget?: () => TurnBudget;
  /** Checks a new self-hosted model file at its address (throws a ModelError saying what is wrong). */
  checkModelFile?: (url: string) => Promise<void>;
  /** Checks a new self-hosted WebLLM model folder (and library) at its address. */
  checkWebLlmModel?: (modelUrl: string, libUrl?: string) => Promise<void>;
}

/** The real check, loaded only when a self-hosted address is saved. */
const defaultCheck = async (url: string) => (await import('./model-file-check.ts')).verifyModelFile(url);
const defaultWebLlmCheck = async (modelUrl: string, libUrl?: string) => (await import('./model-file-check.ts')).verifyWebLlmModel(modelUrl, libUrl);

const MB = 1e6;

/** Chinese status line for a local model: 未下载 / 下载中 n% / 已可离线使用 / 失败：原因. */
export function localStateText(s: LocalState): string {
  switch (s.kind) {
    case 'unknown':
      return '检查中…';
    case 'unavailable':
      return '本机不能运行模型';
    case 'not-downloaded':
      return '未下载';
    case 'downloading':
      return s.total ? `下载中 ${s.percent}%（${(s.loaded! / MB).toFixed(1)} / ${(s.total / MB).toFixed(1)} MB）` : `下载中 ${s.percent}%`;
    case 'cached':
      return '已可离线使用（未加载）';
    case 'checking':
      return '下载好了，正在试答一步…';
    case 'measuring':
      return '正在测这台设备上的速度…';
    case 'ready':
      return '已可离线使用';
    case 'failed':
      return `失败：${s.reason}`;
  }
}

function effective(settings: ModelSettings, choice: EngineChoice | undefined): ProviderKind {
  if (settings.provider !== 'auto') return settings.provider;
  return choice?.engine ?? 'webllm';
}

/** The engines that run on this device. */
export type LocalEngine = Extract<ProviderKind, 'webllm' | 'cpu'>;
const LOCAL_ENGINES: readonly LocalEngine[] = ['webllm', 'cpu'];

function isLocalEngine(kind: ProviderKind | undefined): kind is LocalEngine {
  return LOCAL_ENGINES.includes(kind as LocalEngine);
}

/** A self-hosted model's addresses. */
export interface ModelUrls {
  modelUrl?: string;
  modelLibUrl?: string;
}

/** What differs between the engines on this device; each action of the controller is written once over it. */
interface LocalEngineSpec {
  /** The field of `ControllerState` with the engine's model state. */
  field: 'local' | 'cpu';
  provider(deps: ControllerDeps): LocalProvider;
  /** Why this device cannot run the engine; undefined when it can. */
  cannotRun(s: ControllerState): ModelError | undefined;
  /** The chosen model as the engine loads it. */
  request(s: ControllerState): LoadRequest;
  /** The chosen model's key in `settings.readyOffline` (`loadedId`: the id the engine said it loaded). */
  offlineKey(s: ControllerState, loadedId?: string): string;
  /** The settings with another model chosen. */
  withModel(settings: ModelSettings, modelId: string, urls: ModelUrls): ModelSettings;
  /** Choosing another model first stops the hub using the loaded one and frees it. */
  freesOnChoose: boolean;
  /** The engine tells its threads and speeds once loaded (`cpuDetails`). */
  details: boolean;
  /** The chosen model's name for a family (「本机中号大脑」, 「本机自备的慢速大脑」). */
  name(s: ControllerState): string;
}

const ENGINES: Record<LocalEngine, LocalEngineSpec> = {
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
export function engineName(s: ControllerState, engine: LocalEngine): string {
  return ENGINES[engine].name(s);
}

/** The engine's model state in a snapshot. */
export function engineState(s: ControllerState, engine: LocalEngine): LocalState {
  return s[ENGINES[engine].field];
}

export class ModelController {
  private state: ControllerState;
  private readonly listeners = new Set<(s: ControllerState) => void>();
  /** Each engine's provider, made on first use. */
  private readonly providers: Partial<Record<LocalEngine, LocalProvider>> = {};
  private started: Promise<void> | undefined;

  constructor(private readonly deps: ControllerDeps) {
    const settings = defaultModelSettings();
    this.state = {
      settings,
      provider: 'webllm',
      local: { kind: 'unknown' },
      cpu: { kind: 'unknown' },
      effectiveModelId: settings.localModelId,
      activeLabel: deps.hub.label,
      speeds: {},
    };
    // Whether the home computer answered is known only from a step that reached it (or not).
    deps.hub.onStep((r) => {
      // A cancelled step or our own bug (no catalogue code) says nothing; invalid output came from a server that answered.
      if (r.kind !== 'remote' || (r.error && !r.code)) return;
      this.noteRemoteContact(!r.error || r.code === 'model_invalid_output', r.code);
    });
  }

  /** A step or the connection test reached the remote API, or failed to (`code`: the error's catalogue code). */
  noteRemoteContact(ok: boolean, code?: string): void {
    const reason = ok ? undefined : describeModelError({ code: isErrorCode(code) ? code : 'unknown', message: '' }).short;
    const prev = this.state.remoteContact;
    if (prev && prev.ok === ok && prev.reason === reason && prev.code === code) return;
    this.set({ remoteContact: ok ? { ok } : { ok, reason, ...(code ? { code } : {}) } });
  }

  get snapshot(): ControllerState {
    return this.state;
  }

  subscribe(fn: (s: ControllerState) => void): () => void {
    this.listeners.add(fn);
    fn(this.state);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<ControllerState>): void {
    const next = { ...this.state, ...patch };
    next.provider = effective(next.settings, next.choice);
    next.effectiveModelId = adaptToGpu(next.settings.localModelId, next.probe ?? { f16: true });
    next.speeds = this.speedsOf(next);
    this.state = { ...next, active: this.deps.hub.kind, activeLabel: this.deps.hub.label };
    for (const fn of this.listeners) fn(this.state);
  }

  /** Sets one engine's model state (and whatever else `patch` holds). */
  private setEngine(engine: LocalEngine, model: LocalState, patch: Partial<ControllerState> = {}): void {
    const next: Partial<ControllerState> = { ...patch };
    next[ENGINES[engine].field] = model;
    this.set(next);
  }

  private fail(engine: LocalEngine, e: ModelError): void {
    // What happened, not only its kind: a file that is not a model, an HTTP status and address.
    const detail = e.code === 'model_file_bad' || e.code === 'model_download_failed' ? errorDetail(e) : '';
    this.setEngine(engine, { kind: 'failed', code: e.code, reason: `${describeModelError(e).short}${detail ? `（${detail}）` : ''}` });
  }

  private answerMs(): number {
    return (this.deps.turnBudget?.() ?? DEFAULT_TURN_BUDGET).answerMs;
  }

  /** The measured speed of each engine's chosen model, judged against the T2 in use now. */
  private speedsOf(s: ControllerState): Partial<Record<LocalEngine, BrainSpeed>> {
    const out: Partial<Record<LocalEngine, BrainSpeed>> = {};
    for (const engine of LOCAL_ENGINES) {
      const m = s.settings.speeds?.[ENGINES[engine].offlineKey(s)];
      if (m) out[engine] = rejudge(m, this.answerMs());
    }
    return out;
  }

  /** The T2 changed (the parent set it): the measured speeds are judged again, and so is the automatic choice. */
  budgetChanged(): void {
    if (this.state.probe && this.state.cpuProbe) this.set({ choice: this.computeChoice(this.state.settings, this.state.probe, this.state.cpuProbe) });
    else this.set({});
  }

  private provider(engine: LocalEngine): LocalProvider {
    return (this.providers[engine] ??= ENGINES[engine].provider(this.deps));
  }

  private computeChoice(settings: ModelSettings, probe: WebGpuProbe, cpu: CpuProbe): EngineChoice {
    const m = cpuModel(settings.cpu.modelId) ?? cpuModel(DEFAULT_CPU_MODEL_ID)!;
    return chooseEngine({
      gpuUsable: probe.usable,
      cpuUsable: cpu.usable,
      isolated: cpu.isolated,
      cores: cpu.cores,
      deviceMemoryGB: cpu.deviceMemoryGB,
      remoteConfigured: !!(settings.remote.baseUrl && settings.remote.model),
      cpuModelRamMB: m.ramMB,
      cpuModelDownloadMB: m.downloadMB,
      speeds: this.speedsOf({ ...this.state, settings }),
    });
  }

  /** At app start: read settings, check the device, and bring the saved or automatic brain back. */
  init(): Promise<void> {
    this.started ??= this.start();
    return this.started;
  }

  /**
   * A choice made while the saved settings are still being read (a parent taps at once) waits for
   * them, so reading them cannot undo it.
   */
  private async settled(): Promise<void> {
    await this.started?.catch(() => undefined);
  }

  private async start(): Promise<void> {
    const [settings, probe] = await Promise.all([(this.deps.load ?? loadModelSettings)(), (this.deps.probe ?? probeWebGPU)()]);
    const cpuProbe = (this.deps.cpuProbe ?? probeCpu)();
    const first = settings.readyOffline.length === 0 && settings.localModelId === defaultModelSettings().localModelId;
    if (first && probe.usable) settings.localModelId = defaultChoiceFor(probe, currentDeviceHints());
    const choice = this.computeChoice(settings, probe, cpuProbe);
    this.set({ settings, probe, cpuProbe, choice });
    await Promise.all(LOCAL_ENGINES.map((engine) => this.refresh(engine)));
    const provider = this.state.provider;
    if (provider === 'remote' && settings.remote.baseUrl) await this.activateRemote();
    else if (provider === 'scripted' && settings.provider === 'scripted') await this.activateScripted();
    else if (isLocalEngine(provider) && engineState(this.state, provider).kind === 'cached') void this.load(provider);
  }

  /** The engine's model state from the device and the downloads: unavailable, cached or not downloaded. */
  private async refresh(engine: LocalEngine): Promise<void> {
    const e = ENGINES[engine];
    if (e.cannotRun(this.state)) return this.setEngine(engine, { kind: 'unavailable' });
    let cached: boolean;
    try {
      cached = this.state.settings.readyOffline.includes(e.offlineKey(this.state)) && (await this.provider(engine).isCached(e.request(this.state)));
    } catch {
      cached = false;
    }
    this.setEngine(engine, { kind: cached ? 'cached' : 'not-downloaded' });
  }

  private async persist(settings: ModelSettings): Promise<void> {
    this.set({ settings });
    await (this.deps.save ?? saveModelSettings)(settings);
  }

  /** The brain every agent uses from now on (`auto`: the automatic choice). */
  async chooseProvider(provider: ProviderSetting): Promise<void> {
    await this.settled();
    await this.persist({ ...this.state.settings, provider });
    const kind = this.state.provider;
    const loaded = isLocalEngine(kind) && engineState(this.state, kind).kind === 'ready' ? this.providers[kind] : undefined;
    if (kind === 'scripted') {
      if (provider === 'scripted') await this.activateScripted();
      else this.deps.hub.clearModel();
    } else if (kind === 'remote') {
      if (this.state.settings.remote.baseUrl) await this.activateRemote();
      else this.deps.hub.clearModel();
    } else if (loaded) {
      this.deps.hub.setModel(kind, await chatModelOf(loaded));
    } else this.deps.hub.clearModel();
    this.set({});
  }

  /**
   * The engine's model: a LOCAL_MODELS / CPU_MODELS id, and optionally self-hosted addresses
   * (`modelLibUrl` is WebLLM's only); an address not given stays as it was.
   */
  async chooseModel(engine: LocalEngine, modelId: string, urls: ModelUrls = {}): Promise<void> {
    await this.settled();
    const e = ENGINES[engine];
    // A new self-hosted file for the CPU engine is checked first: until it is known to be a whole
    // model, the working brain stays in use and the old address stays saved.
    const fresh = engine === 'cpu' && urls.modelUrl && urls.modelUrl !== this.state.settings.cpu.modelUrl ? urls.modelUrl : undefined;
    if (fresh) {
      try {
        await (this.deps.checkModelFile ?? defaultCheck)(new URL(fresh, globalThis.location?.href).href);
      } catch (err) {
        return this.fail(engine, toModelError(err));
      }
    }
    // A new self-hosted WebLLM folder (and its library) likewise: its config, weight list and library read first.
    const s = this.state.settings;
    const webllmUrl = engine === 'webllm' && urls.modelUrl && (urls.modelUrl !== s.localModelUrl || (urls.modelLibUrl ?? s.localModelLibUrl) !== s.localModelLibUrl) ? urls.modelUrl : undefined;
    if (webllmUrl) {
      const abs = (u: string) => new URL(u, globalThis.location?.href).href;
      const lib = urls.modelLibUrl ?? s.localModelLibUrl;
      try {
        await (this.deps.checkWebLlmModel ?? defaultWebLlmCheck)(abs(webllmUrl), lib ? abs(lib) : undefined);
      } catch (err) {
        return this.fail(engine, toModelError(err));
      }
    }
    if (e.freesOnChoose) await this.release(engine);
    await this.persist(e.withModel(this.state.settings, modelId, urls));
    await this.refresh(engine);
  }

  /** Downloads (first time) and loads the engine's model; on success it serves every agent. */
  async load(engine: LocalEngine): Promise<void> {
    await this.settled();
    const e = ENGINES[engine];
    const problem = e.cannotRun(this.state);
    if (problem) return this.fail(engine, problem);
    this.setEngine(engine, { kind: 'downloading', percent: 0, text: '' });
    try {
      const provider = this.provider(engine);
      const loadedId = await provider.load(e.request(this.state), (p) => this.setEngine(engine, downloading(p)));
      const key = e.offlineKey(this.state, loadedId);
      // A model new to this device answers one step in the step format before it is called ready.
      if (!this.state.settings.readyOffline.includes(key)) await this.formatCheck(engine, provider);
      await this.persist({ ...this.state.settings, readyOffline: [...new Set([...this.state.settings.readyOffline, key])] });
      if (!this.state.settings.speeds?.[key]) await this.calibrate(engine, provider, key);
      if (this.state.provider === engine) this.deps.hub.setModel(engine, await chatModelOf(provider));
      const inUse = { ...this.state.inUse, [engine]: e.name(this.state) };
      this.setEngine(engine, { kind: 'ready' }, { inUse, ...(e.details ? { cpuDetails: await provider.details() } : {}) });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return this.refresh(engine);
      this.fail(engine, toModelError(err));
    }
  }

  /**
   * One step in the step format (a short reply, decoded under its grammar and read back like every
   * step): a file that loads but cannot answer is not called ready; it is let go, and a brain of
   * this engine the hub was using is not left talking to it.
   */
  private async formatCheck(engine: LocalEngine, provider: LocalProvider): Promise<void> {
    this.setEngine(engine, { kind: 'checking' });
    try {
      const model = await chatModelOf(provider);
      // Above what the grammar allows (8 characters, up to 4 bytes each, and the JSON around them).
      const step = await model.step({ agent: CHECK_AGENT, messages: calibrationMessages(), tools: CHECK_TOOLS, maxTokens: 96, retries: 1 });
      if (step.action !== 'reply') throw modelError('model_invalid_output', `回答的动作是 ${step.action}`);
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      if (this.deps.hub.kind === engine) this.deps.hub.clearModel();
      await provider.unload().catch(() => {});
      const e = toModelError(err);
      throw modelError('model_file_bad', `试答一步没有按格式回答：${describeModelError(e).short}${e.message ? `（${e.message}）` : ''}`);
    }
  }

  /**
   * Measures the loaded model on this device: one short step on the real prompt layout, its
   * prefill and decode rates kept with the settings. The CPU engine, when it may use several
   * threads, is measured with each candidate count (loaded again for each) and keeps the fastest.
   * A failed measurement leaves the brain usable, only unmeasured.
   */
  private async calibrate(engine: LocalEngine, provider: LocalProvider, key: string): Promise<void> {
    this.setEngine(engine, { kind: 'measuring' });
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
    const probe = this.state.cpuProbe;
    if (engine === 'cpu' && first && probe && this.state.settings.cpu.threads === undefined) {
      const e = ENGINES[engine];
      let loadedThreads = first.threads;
      for (const threads of threadCandidates(probe.isolated, probe.cores).filter((t) => t !== first.threads)) {
        try {
          await provider.load({ ...e.request(this.state), threads }, () => {});
          loadedThreads = threads;
          const s = await once();
          if (s) samples.push(s);
        } catch {
          break;
        }
      }
      const best = chooseThreads(samples) ?? first.threads;
      if (best !== loadedThreads) await provider.load({ ...e.request(this.state), threads: best }, () => {});
      await this.persist({ ...this.state.settings, cpu: { ...this.state.settings.cpu, threads: best } });
    }
    const chosen = samples.find((x) => x.threads === (engine === 'cpu' ? (this.state.settings.cpu.threads ?? first?.threads) : first?.threads)) ?? samples[0];
    if (!chosen) return;
    const speed = brainSpeed(chosen, this.answerMs(), engine === 'cpu' ? chosen.threads : undefined);
    await this.persist({ ...this.state.settings, speeds: { ...this.state.settings.speeds, [key]: speed } });
    if (this.state.probe && this.state.cpuProbe) this.set({ choice: this.computeChoice(this.state.settings, this.state.probe, this.state.cpuProbe) });
  }

  /** Reads the CPU engine's threads and last speeds again (after a step). */
  async refreshCpuDetails(): Promise<void> {
    const provider = this.providers.cpu;
    if (this.state.cpu.kind === 'ready' && provider) this.set({ cpuDetails: await provider.details() });
  }

  /** Frees the engine's memory; a downloaded model stays ready offline. */
  async unload(engine: LocalEngine): Promise<void> {
    await this.settled();
    await this.release(engine);
    this.dropDetails(engine);
    await this.refresh(engine);
  }

  /** Deletes the engine's downloaded model; it no longer serves any agent. */
  async remove(engine: LocalEngine): Promise<void> {
    await this.settled();
    const e = ENGINES[engine];
    if (this.deps.hub.kind === engine) this.deps.hub.clearModel();
    await this.provider(engine)
      .deleteCached(e.request(this.state))
      .catch(() => {});
    const key = e.offlineKey(this.state);
    await this.persist({ ...this.state.settings, readyOffline: this.state.settings.readyOffline.filter((x) => x !== key) });
    this.dropDetails(engine);
    await this.refresh(engine);
  }

  /** The hub stops using the engine, and the engine frees its model (when it was started). */
  private async release(engine: LocalEngine): Promise<void> {
    if (this.deps.hub.kind === engine) this.deps.hub.clearModel();
    await this.providers[engine]?.unload().catch(() => {});
    if (this.state.inUse?.[engine]) {
      const inUse = { ...this.state.inUse };
      delete inUse[engine];
      this.set({ inUse });
    }
  }

  private dropDetails(engine: LocalEngine): void {
    if (ENGINES[engine].details) this.set({ cpuDetails: undefined });
  }

  /** Saves the remote fields; explains (does not try) an endpoint the page cannot reach. */
  async saveRemote(remote: RemoteSettings): Promise<void> {
    await this.settled();
    // A probed mode belongs to one server and model.
    const keep = remote.probedFor === probedKey(remote);
    const { mode, probedFor, ...rest } = remote;
    await this.persist({ ...this.state.settings, remote: keep && mode ? { ...rest, mode, probedFor } : rest });
    if (this.state.provider === 'remote') await this.activateRemote();
    if (this.state.settings.provider === 'auto' && this.state.probe && this.state.cpuProbe)
      this.set({ choice: this.computeChoice(this.state.settings, this.state.probe, this.state.cpuProbe) });
  }

  /**
   * 测试连接: the connection test (the server's models, or what went wrong in plain words), then the
   * server's structured-output mode (kept with the settings for this server and model).
   */
  async testRemote(remote: RemoteSettings): Promise<RemoteTest> {
    const fields = remoteFieldsKey(remote);
    this.set({ remoteTest: { testing: true, fields } });
    const { testConnection, failureReport } = await import('./connection-test.ts');
    const report = await testConnection(remote);
    this.noteRemoteContact(report.ok, report.code);
    // The model typed, or with none typed the server's first chat model: one real request finds its mode.
    const model = remote.model.trim() || report.models[0] || '';
    const test: RemoteTest = { testing: false, fields, report, ...(model ? { model } : {}) };
    if (report.ok && model) {
      const probed = { ...remote, model };
      try {
        const { probeOutputMode } = await import('./dialect-probe.ts');
        test.mode = (await probeOutputMode(probed)).mode;
        const saved = this.state.settings.remote;
        if (probedKey(saved) === probedKey(probed) && saved.apiKey === remote.apiKey) {
          await this.saveMode(test.mode);
          // The model in use was built with the old mode: build it again with this one.
          if (this.deps.hub.kind === 'remote') await this.activateRemote();
        }
      } catch (err) {
        const me = toModelError(err);
        // A server that lists its models to anyone but answers only with a key: the test failed.
        if (me.code === 'model_remote_auth') {
          test.report = { ...failureReport(me, remote), models: report.models, other: report.other };
          this.noteRemoteContact(false, me.code);
        } else {
          const e = describeModelError(me);
          test.modeError = `${e.short}。${e.parent}`;
        }
      }
    }
    this.set({ remoteTest: test });
    return test;
  }

  /** Keeps the server's mode with the settings (the model in use is left as it is). */
  private async saveMode(mode: OutputMode): Promise<void> {
    const remote = this.state.settings.remote;
    await this.persist({ ...this.state.settings, remote: { ...remote, mode, probedFor: probedKey(remote) } });
  }

  private async activateRemote(): Promise<void> {
    const r = this.state.settings.remote;
    const problem = endpointProblem(r.baseUrl, typeof location !== 'undefined' ? location.href : undefined);
    if (problem) {
      this.deps.hub.clearModel();
      this.set({ remoteProblem: describeModelError(modelError(problem.code, problem.detail)).parent });
      return;
    }
    const { createAdaptiveRemoteModel } = await import('./remote-adaptive.ts');
    const mode = r.probedFor === probedKey(r) ? r.mode : undefined;
    const timeouts = this.deps.stepTimeouts;
    this.deps.hub.setModel('remote', createAdaptiveRemoteModel({ ...r, mode }, { onModeChange: (m) => void this.saveMode(m), ...(timeouts ? { timeouts } : {}) }));
    this.set({ remoteProblem: undefined, remoteContact: undefined });
  }

  private async activateScripted(): Promise<void> {
    this.deps.hub.setModel('scripted', await this.deps.demoModel());
    this.set({});
  }
}

/** The fields a connection test's answer belongs to: the address and the key. */
export function remoteFieldsKey(r: Pick<RemoteSettings, 'baseUrl' | 'apiKey'>): string {
  return `${r.baseUrl.trim()}|${r.apiKey.trim()}`;
}

function downloading(p: LoadProgress): LocalState {
  return { kind: 'downloading', percent: Math.floor(p.progress * 100), text: p.text, loaded: p.loaded, total: p.total };
}

/** A loaded local engine as a ChatModel (the step layer is loaded on first use). */
async function chatModelOf(provider: LocalProvider): Promise<ChatModel> {
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

export const TRY_AGENT = 'settings:test';
const TRY_TOOLS = [
  {
    name: 'reply',
    description: '用一句简短的中文回答',
    parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 80 } }, required: ['text'] },
  },
];

/** Settings' "试一步": one real agent step through the hub; returns the reply text. */
export async function tryStep(hub: ModelHub, text: string, signal?: AbortSignal): Promise<string> {
  const step = await hub.model().step({
    agent: TRY_AGENT,
    messages: [
      { role: 'system', content: '你是陪孩子玩语音游戏的小机器人。用一句简短、温暖的中文回答。' },
      { role: 'user', content: text },
    ],
    tools: TRY_TOOLS,
    // Above what the grammar allows (80 characters, up to 4 bytes each for a byte-level vocabulary,
    // plus the JSON around them): a grammar-bound step always ends before the cap.
    maxTokens: 400,
    signal,
  });
  return String(step.args.text ?? '');
}

/** The app's controller over the app's hub (the lead mounts ModelSettings with these). */
export function createModelController(hub: ModelHub, demoModel: () => Promise<ChatModel>, opts: Pick<ControllerDeps, 'stepTimeouts' | 'turnBudget'> = {}): ModelController {
  return new ModelController({ hub, webllm: () => createWebLlmProvider(), cpu: () => createCpuProvider(), demoModel, ...opts });
}
