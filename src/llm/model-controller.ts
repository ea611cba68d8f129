/**
 * What the settings screen drives: restores the saved choice at start, probes WebGPU, downloads
 * and loads the local model with progress, switches to the remote API or the demo script, and
 * puts the resulting ChatModel into the hub. Plain TypeScript with `subscribe`, so the Svelte
 * component only mirrors it.
 */
import type { ChatModel } from '../core/llm/types.ts';
import { describeModelError } from './describe.ts';
import { modelError, toModelError } from './errors.ts';
import type { LoadRequest } from './engine-service.ts';
import type { ModelHub, ProviderKind } from './model-hub.ts';
import { adaptToGpu, defaultChoiceFor } from '../core/llm/models.ts';
import { endpointProblem } from './remote-endpoint.ts';
import {
  defaultModelSettings,
  loadModelSettings,
  saveModelSettings,
  type ModelSettings,
  type RemoteSettings,
} from './settings-store.ts';
import { createWebLlmProvider, type WebLlmProvider } from './webllm-provider.ts';
import { currentDeviceHints, probeErrorCode, probeWebGPU, type WebGpuProbe } from './webgpu-probe.ts';

export type LocalState =
  | { kind: 'unknown' }
  | { kind: 'unavailable' }
  | { kind: 'not-downloaded' }
  | { kind: 'downloading'; percent: number; text: string }
  | { kind: 'cached' }
  | { kind: 'ready' }
  | { kind: 'failed'; code: string; reason: string };

export interface ControllerState {
  settings: ModelSettings;
  probe?: WebGpuProbe;
  local: LocalState;
  /** The model id actually loaded / to load on this GPU (q4f32 twin without f16). */
  effectiveModelId: string;
  /** Last problem with the remote API (checked before trying, or from the connection test). */
  remoteProblem?: string;
  active?: ProviderKind;
  activeLabel: string;
  /** The last time the remote API was reached or not (a step or the connection test); unset until then. */
  remoteContact?: { ok: boolean; reason?: string };
}

export interface ControllerDeps {
  hub: ModelHub;
  webllm: () => WebLlmProvider;
  /** The demo brain (loaded when first chosen). */
  demoModel: () => Promise<ChatModel>;
  probe?: () => Promise<WebGpuProbe>;
  load?: () => Promise<ModelSettings>;
  save?: (s: ModelSettings) => Promise<void>;
}

/** Chinese status line for the local model: 未下载 / 下载中 n% / 已可离线使用 / 失败：原因. */
export function localStateText(s: LocalState): string {
  switch (s.kind) {
    case 'unknown':
      return '检查中…';
    case 'unavailable':
      return '本机不能运行模型';
    case 'not-downloaded':
      return '未下载';
    case 'downloading':
      return `下载中 ${s.percent}%`;
    case 'cached':
      return '已可离线使用（未加载）';
    case 'ready':
      return '已可离线使用';
    case 'failed':
      return `失败：${s.reason}`;
  }
}

export class ModelController {
  private state: ControllerState;
  private readonly listeners = new Set<(s: ControllerState) => void>();
  private provider: WebLlmProvider | undefined;

  constructor(private readonly deps: ControllerDeps) {
    this.state = {
      settings: defaultModelSettings(),
      local: { kind: 'unknown' },
      effectiveModelId: defaultModelSettings().localModelId,
      activeLabel: deps.hub.label,
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
    const reason = ok ? undefined : describeModelError({ code: code ?? 'unknown', message: '' }).short;
    const prev = this.state.remoteContact;
    if (prev && prev.ok === ok && prev.reason === reason) return;
    this.set({ remoteContact: ok ? { ok } : { ok, reason } });
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
    this.state = { ...this.state, ...patch, active: this.deps.hub.kind, activeLabel: this.deps.hub.label };
    for (const fn of this.listeners) fn(this.state);
  }

  private webllm(): WebLlmProvider {
    this.provider ??= this.deps.webllm();
    return this.provider;
  }

  private loadRequest(): LoadRequest {
    const s = this.state.settings;
    return {
      modelId: this.state.effectiveModelId,
      modelUrl: s.localModelUrl || undefined,
      modelLibUrl: s.localModelLibUrl || undefined,
    };
  }

  /** At app start: read settings, probe, and bring the saved provider back (never the demo silently). */
  async init(): Promise<void> {
    const [settings, probe] = await Promise.all([
      (this.deps.load ?? loadModelSettings)(),
      (this.deps.probe ?? probeWebGPU)(),
    ]);
    const first = settings.readyOffline.length === 0 && settings.localModelId === defaultModelSettings().localModelId;
    if (first && probe.usable) settings.localModelId = defaultChoiceFor(probe, currentDeviceHints());
    this.set({ settings, probe, effectiveModelId: adaptToGpu(settings.localModelId, probe) });
    await this.refreshLocal();
    if (settings.provider === 'remote' && settings.remote.baseUrl) await this.activateRemote();
    else if (settings.provider === 'scripted') await this.activateScripted();
    else if (settings.provider === 'webllm' && this.state.local.kind === 'cached') void this.loadLocal();
  }

  private async refreshLocal(): Promise<void> {
    const probe = this.state.probe;
    if (!probe?.usable) return this.set({ local: { kind: 'unavailable' } });
    const id = this.state.effectiveModelId;
    let cached: boolean;
    try {
      cached = this.state.settings.readyOffline.includes(id) && (await this.webllm().isCached(this.loadRequest()));
    } catch {
      cached = false;
    }
    this.set({ local: { kind: cached ? 'cached' : 'not-downloaded' } });
  }

  private async persist(settings: ModelSettings): Promise<void> {
    this.set({ settings });
    await (this.deps.save ?? saveModelSettings)(settings);
  }

  async chooseProvider(provider: ProviderKind): Promise<void> {
    await this.persist({ ...this.state.settings, provider });
    if (provider === 'scripted') await this.activateScripted();
    else if (provider === 'remote') {
      if (this.state.settings.remote.baseUrl) await this.activateRemote();
      else this.deps.hub.clearModel();
    } else if (this.state.local.kind === 'ready' && this.provider) {
      this.deps.hub.setModel('webllm', await localModel(this.provider));
    } else this.deps.hub.clearModel();
    this.set({});
  }

  async chooseLocalModel(modelId: string, urls: { modelUrl?: string; modelLibUrl?: string } = {}): Promise<void> {
    const settings = {
      ...this.state.settings,
      localModelId: modelId,
      localModelUrl: urls.modelUrl ?? this.state.settings.localModelUrl,
      localModelLibUrl: urls.modelLibUrl ?? this.state.settings.localModelLibUrl,
    };
    await this.persist(settings);
    this.set({ effectiveModelId: adaptToGpu(modelId, this.state.probe ?? { f16: true }) });
    await this.refreshLocal();
  }

  /** Downloads (first time) and loads the local model; on success it serves every agent. */
  async loadLocal(): Promise<void> {
    const probe = this.state.probe;
    if (!probe?.usable) {
      const e = modelError((probe && probeErrorCode(probe)) ?? 'model_no_webgpu');
      this.set({ local: { kind: 'failed', code: e.code, reason: describeModelError(e).short } });
      return;
    }
    this.set({ local: { kind: 'downloading', percent: 0, text: '' } });
    try {
      const provider = this.webllm();
      const id = await provider.load(this.loadRequest(), (p) => {
        this.set({ local: { kind: 'downloading', percent: Math.floor(p.progress * 100), text: p.text } });
      });
      const readyOffline = [...new Set([...this.state.settings.readyOffline, id])];
      await this.persist({ ...this.state.settings, readyOffline });
      if (this.state.settings.provider === 'webllm') this.deps.hub.setModel('webllm', await localModel(provider));
      this.set({ local: { kind: 'ready' } });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return this.refreshLocal();
      const e = toModelError(err);
      this.set({ local: { kind: 'failed', code: e.code, reason: describeModelError(e).short } });
    }
  }

  async unloadLocal(): Promise<void> {
    if (this.deps.hub.kind === 'webllm') this.deps.hub.clearModel();
    await this.provider?.unload().catch(() => {});
    await this.refreshLocal();
  }

  async deleteLocal(): Promise<void> {
    if (this.deps.hub.kind === 'webllm') this.deps.hub.clearModel();
    await this.webllm()
      .deleteCached(this.loadRequest())
      .catch(() => {});
    await this.persist({
      ...this.state.settings,
      readyOffline: this.state.settings.readyOffline.filter((x) => x !== this.state.effectiveModelId),
    });
    await this.refreshLocal();
  }

  /** Saves the remote fields; explains (does not try) an endpoint the page cannot reach. */
  async saveRemote(remote: RemoteSettings): Promise<void> {
    await this.persist({ ...this.state.settings, remote });
    if (this.state.settings.provider === 'remote') await this.activateRemote();
  }

  private async activateRemote(): Promise<void> {
    const r = this.state.settings.remote;
    const problem = endpointProblem(r.baseUrl, typeof location !== 'undefined' ? location.href : undefined);
    if (problem) {
      this.deps.hub.clearModel();
      this.set({ remoteProblem: describeModelError(modelError(problem.code, problem.detail)).parent });
      return;
    }
    const { createRemoteModel } = await import('./remote-openai.ts');
    this.deps.hub.setModel('remote', createRemoteModel(r));
    this.set({ remoteProblem: undefined, remoteContact: undefined });
  }

  private async activateScripted(): Promise<void> {
    this.deps.hub.setModel('scripted', await this.deps.demoModel());
    this.set({});
  }
}

/** The loaded local engine as a ChatModel (the step layer is loaded on first use). */
async function localModel(provider: WebLlmProvider): Promise<ChatModel> {
  const { createChatModel } = await import('./decide-step.ts');
  return createChatModel(provider);
}

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
    maxTokens: 96,
    signal,
  });
  return String(step.args.text ?? '');
}

/** The app's controller over the app's hub (the lead mounts ModelSettings with these). */
export function createModelController(hub: ModelHub, demoModel: () => Promise<ChatModel>): ModelController {
  return new ModelController({ hub, webllm: () => createWebLlmProvider(), demoModel });
}
