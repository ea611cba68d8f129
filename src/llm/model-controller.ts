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
import { DEFAULT_TURN_BUDGET } from '../core/arcade/turn-budget.ts';
import { brainSpeed } from '../core/llm/brain-speed.ts';
import type { ChatModel, ModelError } from '../core/llm/types.ts';
import { isErrorCode } from '../core/errors/catalogue.ts';
import { describeModelError, errorDetail } from './describe.ts';
import { toModelError } from './errors.ts';
import type { ModelHub } from './model-hub.ts';
import { adaptToGpu, defaultChoiceFor } from '../core/llm/models.ts';
import type { EngineChoice } from '../core/llm/engine-choice.ts';
import { defaultModelSettings, loadModelSettings, probedKey, saveModelSettings, type ModelSettings, type ProviderSetting, type RemoteSettings } from './settings-store.ts';
import type { LocalProvider } from './local-provider.ts';
import { createWebLlmProvider } from './webllm-provider.ts';
import { createCpuProvider } from './cpu-provider.ts';
import { currentDeviceHints, probeWebGPU, type WebGpuProbe } from './webgpu-probe.ts';
import { probeCpu, type CpuProbe } from './cpu-probe.ts';
import type { OutputMode } from '../core/llm/output-modes.ts';
import { downloading, type LocalState } from './local-state.ts';
import { ENGINES, engineState, isLocalEngine, LOCAL_ENGINES, type LocalEngine, type ModelUrls } from './local-engines.ts';
import { answersInFormat, chatModelOf, measureOnDevice } from './first-steps.ts';
import { runRemoteTest, remoteFieldsKey, type RemoteTest } from './remote-test.ts';
import type { ControllerDeps, ControllerState } from './controller-state.ts';
import { checkDownloaded, checkNewAddress } from './model-checks.ts';
import { automaticChoice, effectiveProvider, measuredSpeeds } from './automatic-choice.ts';
import { remoteBrain } from './remote-brain.ts';

export { localStateText, type LocalState } from './local-state.ts';
export { engineName, engineState, type LocalEngine, type ModelUrls } from './local-engines.ts';
export { remoteFieldsKey, type RemoteTest } from './remote-test.ts';
export { TRY_AGENT, tryStep } from './try-step.ts';
export type { ControllerDeps, ControllerState } from './controller-state.ts';

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
    next.provider = effectiveProvider(next.settings, next.choice);
    next.effectiveModelId = adaptToGpu(next.settings.localModelId, next.probe ?? { f16: true });
    next.speeds = measuredSpeeds(next, this.answerMs());
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

  /** The T2 changed (the parent set it): the measured speeds are judged again, and so is the automatic choice. */
  budgetChanged(): void {
    if (this.state.probe && this.state.cpuProbe) this.rechoose();
    else this.set({});
  }

  /** The automatic choice worked out again (the settings or the measured speeds changed). */
  private rechoose(): void {
    if (this.state.probe && this.state.cpuProbe) this.set({ choice: this.computeChoice(this.state.settings, this.state.probe, this.state.cpuProbe) });
  }

  private provider(engine: LocalEngine): LocalProvider {
    return (this.providers[engine] ??= ENGINES[engine].provider(this.deps));
  }

  private computeChoice(settings: ModelSettings, probe: WebGpuProbe, cpu: CpuProbe): EngineChoice {
    return automaticChoice({ ...this.state, settings }, probe, cpu, this.answerMs());
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
   * The first run ends with no brain chosen: when nothing but the rules brain can play on this device
   * (`choice.rulesOnly`: no model here can answer within the turn, no home computer set up), it is
   * taken now, so the family plays at once; true when it was. Otherwise the parent chooses on 选大脑.
   */
  async takeRulesBrainIfOnly(): Promise<boolean> {
    await this.settled();
    if (this.state.settings.provider !== 'auto' || !this.state.choice?.rulesOnly) return false;
    await this.chooseProvider('scripted');
    return true;
  }

  /**
   * The engine's model: a LOCAL_MODELS / CPU_MODELS id, and optionally self-hosted addresses
   * (`modelLibUrl` is WebLLM's only); an address not given stays as it was.
   */
  async chooseModel(engine: LocalEngine, modelId: string, urls: ModelUrls = {}): Promise<void> {
    await this.settled();
    const e = ENGINES[engine];
    // A new self-hosted address is checked first: until it is known to be a whole model, the
    // working brain stays in use and the old address stays saved.
    try {
      await checkNewAddress(engine, urls, this.state.settings, this.deps);
    } catch (err) {
      return this.fail(engine, toModelError(err));
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
      // A model new to this device: its download checked whole, then one step in the step format, before it is called ready.
      if (!this.state.settings.readyOffline.includes(key)) {
        if (engine === 'webllm') await checkDownloaded(provider, ENGINES.webllm.request(this.state), this.deps, () => this.stopUsing(engine));
        await this.formatCheck(engine, provider);
      }
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
   * One step in the step format: a file that loads but cannot answer is not called ready; it is let
   * go, and a brain of this engine the hub was using is not left talking to it.
   */
  private async formatCheck(engine: LocalEngine, provider: LocalProvider): Promise<void> {
    this.setEngine(engine, { kind: 'checking' });
    await answersInFormat(provider, () => this.stopUsing(engine));
  }

  /** A brain of this engine the hub was using is not left talking to a model that failed a check. */
  private stopUsing(engine: LocalEngine): void {
    if (this.deps.hub.kind === engine) this.deps.hub.clearModel();
  }

  /**
   * Measures the loaded model on this device (first-steps.ts), its prefill and decode rates kept
   * with the settings; the CPU engine with no thread count chosen keeps the fastest count.
   */
  private async calibrate(engine: LocalEngine, provider: LocalProvider, key: string): Promise<void> {
    this.setEngine(engine, { kind: 'measuring' });
    const cpu = engine === 'cpu';
    const probe = this.state.cpuProbe;
    const trial = cpu && probe && this.state.settings.cpu.threads === undefined ? { probe, request: ENGINES.cpu.request(this.state) } : undefined;
    const { sample, threads } = await measureOnDevice(provider, trial, cpu ? this.state.settings.cpu.threads : undefined);
    if (threads !== undefined) await this.persist({ ...this.state.settings, cpu: { ...this.state.settings.cpu, threads } });
    if (!sample) return;
    const speed = brainSpeed(sample, this.answerMs(), cpu ? sample.threads : undefined);
    await this.persist({ ...this.state.settings, speeds: { ...this.state.settings.speeds, [key]: speed } });
    this.rechoose();
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
    if (this.state.settings.provider === 'auto') this.rechoose();
  }

  /**
   * 测试连接: the connection test (the server's models, or what went wrong in plain words), then the
   * server's structured-output mode (kept with the settings for this server and model).
   */
  async testRemote(remote: RemoteSettings): Promise<RemoteTest> {
    this.set({ remoteTest: { testing: true, fields: remoteFieldsKey(remote) } });
    const test = await runRemoteTest(remote, {
      noteContact: (ok, code) => this.noteRemoteContact(ok, code),
      found: async (probed, mode) => {
        const saved = this.state.settings.remote;
        if (probedKey(saved) !== probedKey(probed) || saved.apiKey !== remote.apiKey) return;
        await this.saveMode(mode);
        // The model in use was built with the old mode: build it again with this one.
        if (this.deps.hub.kind === 'remote') await this.activateRemote();
      },
    });
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
    const built = await remoteBrain(r, {
      onModeChange: (m) => void this.saveMode(m),
      ...(this.deps.stepTimeouts ? { timeouts: this.deps.stepTimeouts } : {}),
      prewarm: this.deps.remotePrewarm?.() ?? true,
      traits: this.deps.remoteTraits?.(),
    });
    if ('problem' in built) {
      this.deps.hub.clearModel();
      this.set({ remoteProblem: built.problem });
      return;
    }
    this.deps.hub.setModel('remote', built.model);
    this.set({ remoteProblem: undefined, remoteContact: undefined });
  }

  private async activateScripted(): Promise<void> {
    this.deps.hub.setModel('scripted', await this.deps.demoModel());
    this.set({});
  }
}

/** The app's controller over the app's hub (the lead mounts ModelSettings with these). */
export function createModelController(hub: ModelHub, demoModel: () => Promise<ChatModel>, opts: Pick<ControllerDeps, 'stepTimeouts' | 'turnBudget' | 'remotePrewarm' | 'remoteTraits'> = {}): ModelController {
  return new ModelController({ hub, webllm: () => createWebLlmProvider(), cpu: () => createCpuProvider(), demoModel, ...opts });
}
