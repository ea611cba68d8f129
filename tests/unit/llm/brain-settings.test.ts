import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrainSettings, MODEL_OPTIONS, PROVIDER_OPTIONS, ENGINE_NAMES, presetAdvice, remoteModelList, saveProblem, technicalDetails } from '../../../src/ui/settings/brain-settings.ts';
import { ModelController } from '../../../src/llm/model-controller.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { defaultModelSettings, type ModelSettings, type RemoteSettings } from '../../../src/llm/settings-store.ts';
import { remotePreset } from '../../../src/core/llm/remote-presets.ts';
import { brainFacts } from '../../../src/llm/brain-status.ts';
import { DEFAULT_TURN_BUDGET, withParentAnswer, type TurnBudget } from '../../../src/core/arcade/turn-budget.ts';
import type { WebGpuProbe } from '../../../src/llm/webgpu-probe.ts';
import type { CpuProbe } from '../../../src/llm/cpu-probe.ts';
import { startDialectServer, type DialectServer } from '../../support/dialect-servers.ts';

/** Words a family should not meet outside 技术细节. */
const DEVELOPER_WORDS = /Qwen|GGUF|Q4_K_M|q4f16|q4f32|MLC|llama\.cpp|WebGPU|WebAssembly|CPU|\bGB\b|\d+(\.\d+)?B\b/;

const noGpu: WebGpuProbe = { usable: false, f16: false, reason: 'no-adapter' } as WebGpuProbe;
const cpuProbe: CpuProbe = { usable: true, isolated: true, cores: 4 } as CpuProbe;
const page = { protocol: 'http:', hostname: '127.0.0.1', origin: 'http://127.0.0.1:4173', href: 'http://127.0.0.1:4173/' };

function unused(): never {
  throw new Error('not used here');
}

function screen(stored: Partial<ModelSettings> = {}) {
  const hub = new ModelHub();
  const saved: ModelSettings[] = [];
  const controller = new ModelController({
    hub,
    webllm: unused,
    cpu: unused,
    cpuProbe: () => cpuProbe,
    demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
    probe: async () => noGpu,
    load: async () => ({ ...defaultModelSettings(), ...stored }),
    save: async (s) => void saved.push(s),
  });
  let budget: TurnBudget = DEFAULT_TURN_BUDGET;
  const ui = new BrainSettings({ controller, hub, page, budget: { get: () => budget, set: (s) => (budget = withParentAnswer(budget, s)) } });
  return { ui, controller, hub, saved };
}

const form = (patch: Partial<RemoteSettings>): RemoteSettings => ({ ...defaultModelSettings().remote, ...patch });

describe('BrainSettings: what the brain settings screen shows and allows', () => {
  let locked: DialectServer;
  beforeAll(async () => {
    locked = await startDialectServer('lmstudio', 'test-model', undefined, { apiKey: 'sk-family', listedFirst: ['text-embedding-nomic-embed-text-v1.5'] });
  });
  afterAll(async () => {
    await locked.close();
  });

  it('names brains in family words with their size; the technical names only in the details', async () => {
    for (const o of [...MODEL_OPTIONS.webllm, ...MODEL_OPTIONS.cpu, ...PROVIDER_OPTIONS]) expect(o.label).not.toMatch(DEVELOPER_WORDS);
    for (const name of Object.values(ENGINE_NAMES)) expect(name).not.toMatch(DEVELOPER_WORDS);
    expect(MODEL_OPTIONS.webllm[0].label).toBe('中号大脑（推荐，约 880 MB）');
    expect(MODEL_OPTIONS.cpu[0].label).toBe('小号慢速大脑（推荐，下载约 491 MB，要约 900 MB 内存）');
    const { controller } = screen({ cpu: { modelId: 'qwen2.5-0.5b-instruct-q4_k_m', modelUrl: 'https://robot.local/m/own.gguf' } });
    await controller.init();
    expect(controller.snapshot.choice?.why).not.toMatch(DEVELOPER_WORDS);
    const tech = technicalDetails(controller.snapshot).join('\n');
    expect(tech).toContain('GGUF 文件 https://robot.local/m/own.gguf');
    expect(tech).toContain('WebGPU');
    // A file of the parent's own is named as theirs, not as the list's model.
    await controller.chooseProvider('cpu');
    expect(brainFacts(controller.snapshot).label).toBe('本机自备的慢速大脑');
  });

  it('a service that needs a key cannot be saved without one; a server that refused the key cannot be saved until it is accepted', async () => {
    const { ui, controller, saved } = screen();
    await controller.init();
    const cloud = form({ preset: 'cloud', baseUrl: 'https://api.example.com/v1', model: 'gpt-4o-mini' });
    expect(ui.saveProblem(cloud)?.text).toMatch(/^需要密钥/);
    expect(await ui.saveRemote(cloud)).toMatch(/^需要密钥/);
    expect(saved).toHaveLength(0);
    expect(ui.saveProblem({ ...cloud, apiKey: 'sk-1' })).toBeUndefined();

    // LM Studio with a key set on it: lists to anyone, answers only with the key.
    const lm = form({ preset: 'lmstudio', baseUrl: locked.baseUrl, model: '' });
    const test = await ui.testRemote(lm);
    expect(test.report).toMatchObject({ ok: false, code: 'model_remote_auth', models: ['test-model', 'test-model-large'] });
    expect(test.report?.headline).toMatch(/^需要密钥：/);
    // The first chat model is filled in; the embedding model listed first is not offered.
    expect(lm.model).toBe('test-model');
    expect(remoteModelList(controller.snapshot.remoteTest, lm).models).toEqual(['test-model', 'test-model-large']);
    expect(ui.saveProblem(lm)?.text).toMatch(/^需要密钥：.*连上了才能保存/);
    expect(await ui.saveRemote(lm)).toMatch(/^需要密钥/);
    expect(saved).toHaveLength(0);
    expect(controller.snapshot.active).toBeUndefined();

    // Another key is not judged by the old answer; the right one connects, finds the mode and saves with it.
    const keyed = { ...lm, apiKey: 'sk-family' };
    expect(ui.saveProblem(keyed)).toBeUndefined();
    const ok = await ui.testRemote(keyed);
    expect(ok.report).toMatchObject({ ok: true, other: ['text-embedding-nomic-embed-text-v1.5'] });
    expect(ok.mode).toBeDefined();
    expect(await ui.saveRemote(keyed)).toBeUndefined();
    expect(controller.snapshot.settings.remote).toMatchObject({ apiKey: 'sk-family', model: 'test-model', mode: ok.mode });
    expect(controller.snapshot.active).toBe('remote');
  });

  it('a model that cannot chat is refused by name; an empty model is only "not filled in yet"', () => {
    expect(saveProblem(form({ preset: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1', model: 'text-embedding-nomic-embed-text-v1.5' }), undefined, page.href)?.text).toContain('不能聊天');
    expect(saveProblem(form({ preset: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1', model: '' }), undefined, page.href)).toMatchObject({ missing: true });
    // The page cannot reach an http address from https: said, not tried.
    expect(saveProblem(form({ preset: 'ollama', baseUrl: 'http://192.168.1.20:11434/v1', model: 'qwen2.5:1.5b' }), undefined, 'https://tablet.example/')?.text).toContain('http://');
  });

  it("each preset's advice is its own", () => {
    expect(presetAdvice(remotePreset('ollama'), page)).toContain(`OLLAMA_ORIGINS=${page.origin}`);
    for (const id of ['llamacpp', 'lmstudio', 'vllm', 'cloud', 'custom']) expect(presetAdvice(remotePreset(id), page)).not.toContain('OLLAMA');
    expect(presetAdvice(remotePreset('cloud'), page)).toContain('API 密钥');
  });

  it('the answer-time limit is kept within the range and the measured speeds are judged again', async () => {
    const { ui, controller } = screen();
    await controller.init();
    const before = ui.answerSeconds();
    const r = ui.saveAnswerSeconds(10_000);
    expect(r.seconds).toBe(ui.answerLimits.max);
    expect(r.saved).toBe(`已保存：每轮最多等 ${ui.answerLimits.max} 秒。`);
    expect(ui.answerSeconds()).not.toBe(before);
  });
});
