/**
 * The brain settings screen's controller (设置 → 大脑): every decision the screen shows — the
 * choices in family words (小号 / 中号大脑 with their size), the technical names kept for 技术细节,
 * a server preset's advice, the server's chat models (embedding models left out), whether
 * 保存并使用 may save (a server that wants a key, a required key left empty, a model that cannot
 * chat), the structured-output mode shown, the answer-time limit and 试一步 — so the Svelte
 * component only renders these and calls the actions. The brain itself stays the
 * ModelController's (model-controller.ts); this reads its snapshot and calls it.
 */
import { PARENT_ANSWER_LIMITS, type TurnBudget } from '../../core/arcade/turn-budget.ts';
import { setAnswerSeconds, turnBudget } from '../../arcade/turn-budget-setting.ts';
import { CPU_MODELS, cpuModelLabel, cpuModelOption } from '../../core/llm/cpu-models.ts';
import type { EngineKind } from '../../core/llm/engine-choice.ts';
import { HOME_BRAIN_PROGRAMS, homeBrainAdvice, type PageAddress } from '../../core/llm/home-brain.ts';
import { LOCAL_MODELS, modelLabel, modelOption } from '../../core/llm/models.ts';
import { MODE_INFO, type OutputMode } from '../../core/llm/output-modes.ts';
import { endpointProblem } from '../../core/llm/remote-endpoint.ts';
import { isNonChatModel } from '../../core/llm/remote-models.ts';
import { wantsKey } from '../../llm/connection-test.ts';
import { cpuProbeSummary } from '../../llm/cpu-probe.ts';
import { describeModelError } from '../../llm/describe.ts';
import { toModelError } from '../../llm/errors.ts';
import { remoteFieldsKey, tryStep, type ControllerState, type LocalEngine, type ModelController, type RemoteTest } from '../../llm/model-controller.ts';
import type { ModelHub } from '../../llm/model-hub.ts';
import { remotePreset, type RemotePreset } from '../../core/llm/remote-presets.ts';
import { probedKey, type ProviderSetting, type RemoteSettings } from '../../llm/settings-store.ts';
import { probeSummary } from '../../llm/webgpu-probe.ts';

// The local engine's state in the parent's words, which the settings screen renders.
export { engineState, localStateText } from '../../llm/model-controller.ts';

/** The brains a parent chooses between, in family words (the programs' names only inside the remote panel). */
export const PROVIDER_OPTIONS: ReadonlyArray<{ kind: ProviderSetting; label: string }> = [
  { kind: 'auto', label: '自动选择（推荐）' },
  { kind: 'webllm', label: '本机大脑（用显卡，下载一次后可离线使用）' },
  { kind: 'cpu', label: '本机慢速大脑（不需要显卡，下载一次后可离线使用，较慢）' },
  { kind: 'remote', label: '家里的电脑或云服务' },
  { kind: 'scripted', label: '规则大脑（不用下载）' },
];

/** What the automatic choice picked, in family words. */
export const ENGINE_NAMES: Record<EngineKind, string> = {
  webllm: '本机大脑',
  cpu: '本机慢速大脑',
  remote: '家里的电脑',
  scripted: '规则大脑',
};

/** Each engine's state line, progress and buttons. */
export const ENGINE_WORDS: Record<LocalEngine, { stateId: string; progress: string; load: string; download: string; unload: string; remove: string }> = {
  webllm: { stateId: 'local-state', progress: '下载进度', load: '加载大脑', download: '下载并加载', unload: '卸载（释放显存）', remove: '删除已下载的大脑' },
  cpu: { stateId: 'cpu-state', progress: '慢速大脑下载进度', load: '加载慢速大脑', download: '下载并加载慢速大脑', unload: '卸载（释放内存）', remove: '删除已下载的慢速大脑' },
};

/** The models each engine offers, as the list shows them: 「中号大脑（推荐，约 880 MB）」. */
export const MODEL_OPTIONS: Record<LocalEngine, ReadonlyArray<{ id: string; label: string }>> = {
  webllm: LOCAL_MODELS.map((m) => ({ id: m.id, label: modelOption(m.id) })),
  cpu: CPU_MODELS.map((m) => ({ id: m.id, label: cpuModelOption(m.id) })),
};

/** A home computer's program: the guide's steps and address for this page; else the preset's own note. */
export function presetAdvice(preset: RemotePreset, page: PageAddress): string {
  const program = HOME_BRAIN_PROGRAMS.find((x) => x.id === preset.program);
  if (!program) return preset.note ?? '';
  const a = homeBrainAdvice(program, page);
  return [...a.steps, a.why].join('');
}

/** The address to start from with a preset: the guide's for a home program, else the preset's own (or what was typed). */
export function presetAddress(preset: RemotePreset, page: PageAddress, typed: string): string {
  const program = HOME_BRAIN_PROGRAMS.find((x) => x.id === preset.program);
  if (program) return homeBrainAdvice(program, page).address;
  return preset.baseUrl || typed;
}

/** The test's answer when it belongs to exactly these address and key. */
function testFor(test: RemoteTest | undefined, form: Pick<RemoteSettings, 'baseUrl' | 'apiKey'>): RemoteTest | undefined {
  return test && !test.testing && test.fields === remoteFieldsKey(form) ? test : undefined;
}

/** The models the server offered for the model list (chat models only; the typed one kept when it is not among them). */
export function remoteModelList(test: RemoteTest | undefined, form: RemoteSettings): { models: string[]; typedMissing: boolean } {
  const models = testFor(test, form)?.report?.models ?? [];
  return { models, typedMissing: models.length > 0 && !models.includes(form.model) };
}

/**
 * Why 保存并使用 may not save these fields now (undefined: it may): the page cannot reach the
 * address, a key the service needs is empty, the server refused (wants a key), or the model
 * cannot chat. Nothing is saved as working without a key the server asks for.
 */
export function saveProblem(form: RemoteSettings, test: RemoteTest | undefined, pageUrl?: string): SaveProblem | undefined {
  const reach = testProblem(form, pageUrl);
  if (reach) return reach;
  const preset = remotePreset(form.preset);
  if (preset.needsKey && !form.apiKey.trim()) return { text: '需要密钥：这个服务要 API 密钥，填上以后才能保存。' };
  const r = testFor(test, form)?.report;
  if (r && !r.ok && wantsKey(r.code, r.status, form.preset)) return { text: `${r.headline}填对密钥、再点「测试连接」，连上了才能保存。` };
  const model = form.model.trim();
  if (model && isNonChatModel(model)) return { text: `「${model}」不能聊天（它是给搜索或声音用的模型），请选一个能聊天的模型。` };
  if (!model) return { text: '先填模型名称（点「测试连接」可以从电脑上的模型里选）。', missing: true };
  return undefined;
}

/** Why 测试连接 cannot try this address from this page (undefined: it can). */
export function testProblem(form: Pick<RemoteSettings, 'baseUrl'>, pageUrl?: string): SaveProblem | undefined {
  if (!form.baseUrl.trim()) return { text: '先填接口地址。', missing: true };
  const problem = endpointProblem(form.baseUrl, pageUrl);
  if (problem) return { text: `${describeModelError({ code: problem.code, message: '' }).parent}（${problem.detail}）` };
  return undefined;
}

/** What stands in the way of saving; `missing`: only a field not filled in yet (not worth a warning). */
export interface SaveProblem {
  text: string;
  missing?: boolean;
}

/** The structured-output mode to show: the test's, or the one saved for exactly these server and model. */
export function shownMode(s: ControllerState, form: RemoteSettings): OutputMode | undefined {
  const test = testFor(s.remoteTest, form);
  if (test?.mode && test.model === form.model.trim()) return test.mode;
  const saved = s.settings.remote;
  return saved.mode && saved.probedFor === probedKey(form) ? saved.mode : undefined;
}

/** The test's report as the screen shows it: a headline, then the why and tips. */
export function connectionText(test: RemoteTest | undefined): { headline: string; rest: string; ok: boolean } | undefined {
  const r = test && !test.testing ? test.report : undefined;
  if (!r) return undefined;
  return { headline: r.headline, rest: [r.why, ...r.tips].filter(Boolean).join(' '), ok: r.ok };
}

/** The technical side, for 技术细节 only: engines, model ids and formats, the output mode. */
export function technicalDetails(s: ControllerState): string[] {
  const out: string[] = [];
  if (s.probe) out.push(`显卡检测（WebGPU）：${probeSummary(s.probe)}`);
  if (s.cpuProbe) out.push(`CPU 引擎（llama.cpp / WebAssembly）：${cpuProbeSummary(s.cpuProbe)}`);
  if (s.choice?.detail) out.push(`自动选择：${s.choice.detail}`);
  out.push(`本机大脑的模型：${modelLabel(s.effectiveModelId)}（${s.effectiveModelId}）${s.settings.localModelUrl ? `，地址 ${s.settings.localModelUrl}` : ''}`);
  const c = s.settings.cpu;
  out.push(`慢速大脑的模型：${c.modelUrl ? `GGUF 文件 ${c.modelUrl}` : `${cpuModelLabel(c.modelId)}（${c.modelId}）`}`);
  const mode = s.settings.remote.mode;
  if (s.settings.remote.baseUrl) out.push(`远程接口：${s.settings.remote.baseUrl}，模型 ${s.settings.remote.model || '（未填）'}${mode ? `，输出方式 ${MODE_INFO[mode].label}` : ''}`);
  return out;
}

export interface BrainSettingsDeps {
  controller: ModelController;
  hub: ModelHub;
  /** The answer-time limit (T2) in use, and setting it (kept within the parent's range). */
  budget: { get(): TurnBudget; set(seconds: number): TurnBudget };
  /** The page the app is open on (for the home computer's address and the mixed-content check). */
  page?: PageAddress & { href: string };
}

/** The actions of the screen, each deciding what to say. */
export class BrainSettings {
  constructor(private readonly deps: BrainSettingsDeps) {}

  get controller(): ModelController {
    return this.deps.controller;
  }

  get page(): (PageAddress & { href: string }) | undefined {
    return this.deps.page;
  }

  /** A fresh copy of the saved remote fields, to edit. */
  remoteForm(): RemoteSettings {
    return { ...this.deps.controller.snapshot.settings.remote };
  }

  /** The preset chosen: its address (the guide's for a home program). */
  pickPreset(form: RemoteSettings, id: string): void {
    const p = remotePreset(id);
    form.preset = id;
    form.baseUrl = this.deps.page ? presetAddress(p, this.deps.page, form.baseUrl) : p.baseUrl || form.baseUrl;
  }

  advice(form: RemoteSettings): string {
    const p = remotePreset(form.preset);
    return this.deps.page ? presetAdvice(p, this.deps.page) : (p.note ?? '');
  }

  saveProblem(form: RemoteSettings): SaveProblem | undefined {
    return saveProblem(form, this.deps.controller.snapshot.remoteTest, this.deps.page?.href);
  }

  testProblem(form: RemoteSettings): SaveProblem | undefined {
    return testProblem(form, this.deps.page?.href);
  }

  /** 保存并使用: saved and used only when nothing stands in the way (returns what does). */
  async saveRemote(form: RemoteSettings): Promise<string | undefined> {
    const problem = this.saveProblem(form);
    if (problem) return problem.text;
    const c = this.deps.controller;
    const fields: RemoteSettings = { ...form, timeoutMs: Number(form.timeoutMs) || 60_000 };
    delete fields.mode;
    delete fields.probedFor;
    // The mode found for exactly these server and model goes with them (the test's, or the one kept).
    const mode = shownMode(c.snapshot, form);
    await c.saveRemote(mode ? { ...fields, mode, probedFor: probedKey(fields) } : fields);
    // 保存并使用: used from now on (also when the automatic choice turned to it by this save).
    if (c.snapshot.active !== 'remote') await c.chooseProvider('remote');
    return undefined;
  }

  /**
   * 测试连接 with the fields as typed (nothing is saved by testing); with no model typed, the
   * server's first chat model is filled in (the one the test tried).
   */
  async testRemote(form: RemoteSettings): Promise<RemoteTest> {
    const test = await this.deps.controller.testRemote({ ...form, timeoutMs: Number(form.timeoutMs) || 60_000 });
    if (!form.model.trim() && test.model) form.model = test.model;
    return test;
  }

  /** The answer-time limit in whole seconds. */
  answerSeconds(): number {
    return Math.round(this.deps.budget.get().answerMs / 1000);
  }

  readonly answerLimits = { min: PARENT_ANSWER_LIMITS.min / 1000, max: PARENT_ANSWER_LIMITS.max / 1000, step: PARENT_ANSWER_LIMITS.step / 1000 };

  /** Saves the answer-time limit (kept within the range); returns the seconds saved and the line to show. */
  saveAnswerSeconds(seconds: number): { seconds: number; saved: string } {
    const b = this.deps.budget.set(Number(seconds));
    const s = Math.round(b.answerMs / 1000);
    this.deps.controller.budgetChanged();
    return { seconds: s, saved: `已保存：每轮最多等 ${s} 秒。` };
  }

  /** 试一步: one real step through the brain in use; the answer or what went wrong, in words. */
  async tryStep(text: string): Promise<{ answer: string } | { error: string }> {
    try {
      const answer = await tryStep(this.deps.hub, text);
      await this.deps.controller.refreshCpuDetails();
      return { answer };
    } catch (err) {
      const e = describeModelError(toModelError(err));
      return { error: `${e.short}：${e.parent}` };
    }
  }
}


/** The screen's controller over the app's brain, the stored answer-time limit and this page. */
export function createBrainSettings(controller: ModelController, hub: ModelHub): BrainSettings {
  const page = typeof location !== 'undefined' ? { protocol: location.protocol, hostname: location.hostname, origin: location.origin, href: location.href } : undefined;
  return new BrainSettings({ controller, hub, budget: { get: turnBudget, set: setAnswerSeconds }, ...(page ? { page } : {}) });
}
