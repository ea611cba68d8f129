import { describe, expect, it } from 'vitest';
import { engineState, localStateText, ModelController, tryStep } from '../../../src/llm/model-controller.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { defaultModelSettings, type ModelSettings } from '../../../src/llm/settings-store.ts';
import type { WebLlmProvider } from '../../../src/llm/webllm-provider.ts';
import type { WebGpuProbe } from '../../../src/llm/webgpu-probe.ts';
import type { LoadProgress } from '../../../src/llm/engine-service.ts';
import type { CpuProbe } from '../../../src/llm/cpu-probe.ts';
import { chooseEngine, cpuThreadCount } from '../../../src/core/llm/engine-choice.ts';
import { startDialectServer } from '../../support/dialect-servers.ts';
import { deferred } from '../../support/deferred.ts';
import { brainFacts } from '../../../src/llm/brain-status.ts';
import { brainSpeed } from '../../../src/core/llm/brain-speed.ts';
import { modelError } from '../../../src/llm/errors.ts';

const gpu: WebGpuProbe = { usable: true, f16: true, adapter: 'test', maxStorageBufferBindingSize: 1 << 30 };

/**
 * A local provider whose load the test drives (no worker, no GPU). With `rates`, its calibration
 * step answers with the rates of the thread count it was loaded with, and a load after the first
 * one (a reload with other threads) finishes at once.
 */
function fakeWebLlm(opts: { cached?: boolean; fail?: string; rates?: (threads: number) => { prefillPerS: number; decodePerS: number }; answer?: string } = {}) {
  const calls: string[] = [];
  let progress: ((p: LoadProgress) => void) | undefined;
  let finish!: (id: string) => void;
  let failLoad!: (e: unknown) => void;
  let threads = 1;
  let loadedOnce: string | undefined;
  const provider: WebLlmProvider = {
    label: 'Qwen2.5-1.5B（推荐）（本机）',
    async load(req, onProgress) {
      calls.push(`load ${req.modelId}${req.threads ? ` ×${req.threads}` : ''}`);
      threads = req.threads ?? 1;
      progress = onProgress;
      if (opts.rates && loadedOnce) return loadedOnce;
      return new Promise<string>((res, rej) => {
        finish = (id) => {
          loadedOnce = id;
          res(id);
        };
        failLoad = rej;
      });
    },
    async measure() {
      if (!opts.rates) throw new Error('no calibration in this test');
      calls.push(`measure ×${threads}`);
      return { ...opts.rates(threads), firstPieceMs: 1, decodeMs: 1 };
    },
    complete: async () => opts.answer ?? '{"reply":{"text":"本机模型在此"}}',
    interrupt() {},
    async unload() {
      calls.push('unload');
    },
    isCached: async () => opts.cached ?? false,
    deleteCached: async () => void calls.push('delete'),
    status: async () => ({ waiting: [] }),
    details: async () => (opts.rates ? { threads } : undefined),
    prepareGrammar: async () => '',
    dispose() {},
  };
  return { provider, calls, progress: (p: number) => progress?.({ progress: p, text: `Fetching param cache[${p}]` }), finish: (id: string) => finish(id), failLoad: (e: unknown) => failLoad(e) };
}

const noCpu: CpuProbe = { usable: false, reason: 'no-wasm-memory64', isolated: false, cores: 4 };

/** `saving`: each save finishes only when it settles (default: at once). */
function controller(f: ReturnType<typeof fakeWebLlm>, stored: Partial<ModelSettings> = {}, probe = gpu, cpu?: { fake: ReturnType<typeof fakeWebLlm>; probe: CpuProbe }, saving?: Promise<void>, checkModelFile?: (url: string) => Promise<void>) {
  const hub = new ModelHub();
  const saved: ModelSettings[] = [];
  const c = new ModelController({
    hub,
    webllm: () => f.provider,
    cpu: () => (cpu ?? { fake: fakeWebLlm() }).fake.provider,
    cpuProbe: () => cpu?.probe ?? noCpu,
    demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
    probe: async () => probe,
    load: async () => ({ ...defaultModelSettings(), ...stored }),
    save: async (s) => {
      saved.push(s);
      await saving;
    },
    checkModelFile,
    // This fake downloads nothing: there is no cache to read (tests/unit/llm/webllm-shards.test.ts checks real shards).
    checkDownloadedWebLlm: async () => undefined,
  });
  return { c, hub, saved };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ModelController (settings screen logic)', () => {
  it('a brain chosen while the saved settings are still being read stays chosen (reading them does not undo it)', async () => {
    const hub = new ModelHub();
    let release!: () => void;
    const reading = new Promise<void>((r) => (release = r));
    const c = new ModelController({
      hub,
      webllm: () => fakeWebLlm().provider,
      cpuProbe: () => noCpu,
      demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
      probe: async () => gpu,
      load: async () => (await reading, defaultModelSettings()),
      save: async () => undefined,
    });
    const started = c.init();
    const chosen = c.chooseProvider('scripted');
    release();
    await Promise.all([started, chosen]);
    expect(c.snapshot.settings.provider).toBe('scripted');
    expect(hub.kind).toBe('scripted');
  });

  it('download: 未下载 → 下载中 n% → 已可离线使用, then every agent uses the local model', async () => {
    const f = fakeWebLlm();
    const { c, hub, saved } = controller(f);
    await c.init();
    expect(localStateText(c.snapshot.local)).toBe('未下载');
    const loading = c.load('webllm');
    await tick();
    f.progress(0.42);
    expect(localStateText(c.snapshot.local)).toBe('下载中 42%');
    f.finish('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    await loading;
    expect(localStateText(c.snapshot.local)).toBe('已可离线使用');
    expect(saved.at(-1)!.readyOffline).toEqual(['Qwen2.5-1.5B-Instruct-q4f16_1-MLC']);
    expect(hub.kind).toBe('webllm');
    expect(await tryStep(hub, '你好')).toBe('本机模型在此');
  });

  it('a model that loads but cannot answer one step in the step format is not called ready: let go, nothing kept, the state says why', async () => {
    const f = fakeWebLlm({ answer: '\u0000\u0001 garbage, not a step' });
    const { c, hub, saved } = controller(f);
    await c.init();
    const loading = c.load('webllm');
    await tick();
    f.finish('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    await loading;
    expect(localStateText(c.snapshot.local)).toMatch(/^失败：这不是能用的模型文件，原来的大脑照常用（试答一步没有按格式回答/);
    expect(saved.every((x) => x.readyOffline.length === 0)).toBe(true);
    expect(hub.kind).toBeUndefined();
    expect(f.calls.at(-1)).toBe('unload');
  });

  it('a failed load says why (失败：原因) and leaves no model selected', async () => {
    const f = fakeWebLlm();
    const { c, hub } = controller(f);
    await c.init();
    const loading = c.load('webllm');
    await tick();
    f.failLoad('Error: Device was lost. This can happen due to insufficient memory (OOM).');
    await loading;
    expect(localStateText(c.snapshot.local)).toBe('失败：内存不足');
    expect(hub.kind).toBeUndefined();
  });

  it('at start, a model that is ready offline is loaded again without asking', async () => {
    const f = fakeWebLlm({ cached: true });
    const { c } = controller(f, { readyOffline: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'] });
    await c.init();
    await tick();
    expect(f.calls).toEqual(['load Qwen2.5-1.5B-Instruct-q4f16_1-MLC']);
  });

  it('without a usable GPU the local model is unavailable and never loaded', async () => {
    const f = fakeWebLlm();
    const { c } = controller(f, {}, { usable: false, reason: 'no-adapter', f16: false });
    await c.init();
    expect(localStateText(c.snapshot.local)).toBe('本机不能运行模型');
    await c.load('webllm');
    expect(localStateText(c.snapshot.local)).toBe('失败：没有可用的显卡（WebGPU）');
    expect(f.calls).toEqual([]);
  });

  it('no shader-f16: the q4f32 twin is loaded; a weak first-run device defaults to 0.5B', async () => {
    const f = fakeWebLlm();
    const { c } = controller(f, {}, { ...gpu, f16: false, maxStorageBufferBindingSize: 128 << 20 });
    await c.init();
    expect(c.snapshot.settings.localModelId).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(c.snapshot.effectiveModelId).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  });

  it('the saved remote provider is restored at start, and the demo script only when chosen', async () => {
    const f = fakeWebLlm();
    const remote = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: '', timeoutMs: 1000, disableThinking: false, preset: 'custom' };
    const { c, hub } = controller(f, { provider: 'remote', remote });
    await c.init();
    expect(hub.kind).toBe('remote');
    expect(hub.label).toBe('远程接口：m');
    await c.chooseProvider('scripted');
    expect(hub.label).toBe('规则大脑（不用模型）');
  });
});

const noGpu: WebGpuProbe = { usable: false, reason: 'no-adapter', f16: false };
const tablet: CpuProbe = { usable: true, isolated: true, cores: 8, deviceMemoryGB: 4 };

describe('automatic engine choice', () => {
  const facts = { gpuUsable: false, cpuUsable: true, isolated: true, cores: 8, deviceMemoryGB: 4, remoteConfigured: false, cpuModelRamMB: 900, cpuModelDownloadMB: 491 };
  // Rates measured on this 2-core machine for Qwen2.5-0.5B's shapes (two threads) and a fast laptop GPU.
  const slowCpu = brainSpeed({ prefillPerS: 11, decodePerS: 7.8 }, 20_000, 2);
  const fastCpu = brainSpeed({ prefillPerS: 60, decodePerS: 20 }, 20_000, 4);
  it('WebGPU → WebLLM unless measured too slow; the CPU engine only once measured fast enough; else remote; else the rules brain — each explained', () => {
    expect(chooseEngine({ ...facts, gpuUsable: true })).toMatchObject({ engine: 'webllm', slower: false });
    expect(chooseEngine({ ...facts, gpuUsable: true, speeds: { webllm: slowCpu } }).engine).toBe('scripted');
    const unmeasured = chooseEngine(facts);
    expect(unmeasured).toMatchObject({ engine: 'scripted', cpuRuns: true });
    expect(unmeasured.why).toContain('要先在这台设备上测过够快才会用它');
    expect(unmeasured.why).toContain('规则大脑');
    const slow = chooseEngine({ ...facts, speeds: { cpu: slowCpu } });
    expect(slow.engine).toBe('scripted');
    expect(slow.why).toContain('每轮要等约 24 秒才有回答，超过了每轮 20 秒的时限');
    const cpu = chooseEngine({ ...facts, speeds: { cpu: fastCpu } });
    expect(cpu).toMatchObject({ engine: 'cpu', slower: true });
    expect(cpu.why).toContain('没有可用的显卡');
    expect(cpu.why).toContain('在每轮 20 秒的时限以内');
    expect(cpu.why).not.toContain('10 到 40 秒');
    expect(chooseEngine({ ...facts, isolated: false, speeds: { cpu: fastCpu } }).detail).toContain('只能用 1 个线程');
    expect(chooseEngine({ ...facts, deviceMemoryGB: 1, remoteConfigured: true })).toMatchObject({ engine: 'remote', cpuRuns: false });
    expect(chooseEngine({ ...facts, speeds: { cpu: slowCpu }, remoteConfigured: true }).engine).toBe('remote');
    const none = chooseEngine({ ...facts, cpuUsable: false });
    expect(none.engine).toBe('scripted');
    expect(none.why).toContain('家里的电脑');
    // A browser that does not tell its memory (Safari, Firefox) may still try the CPU engine.
    expect(chooseEngine({ ...facts, deviceMemoryGB: undefined, speeds: { cpu: fastCpu } }).engine).toBe('cpu');
  });

  it('threads: one unless cross-origin isolated (the single-thread fallback); else the measured count, before that the cores, at most 4', () => {
    expect(cpuThreadCount(false, 8)).toBe(1);
    expect(cpuThreadCount(true, 8)).toBe(4);
    expect(cpuThreadCount(true, 16)).toBe(4);
    expect(cpuThreadCount(true, 2)).toBe(2);
    expect(cpuThreadCount(true, 2, 1)).toBe(1);
    expect(cpuThreadCount(false, 8, 4)).toBe(1);
  });

  it.each([
    { name: 'more threads measured faster: kept', rates: (t: number) => (t === 1 ? { prefillPerS: 5.5, decodePerS: 4.3 } : { prefillPerS: 11, decodePerS: 7.8 }), best: 4 },
    { name: 'more threads measured slower (a busy device): one thread', rates: (t: number) => (t === 1 ? { prefillPerS: 5.5, decodePerS: 4.3 } : { prefillPerS: 4, decodePerS: 3 }), best: 1 },
  ])('the CPU engine\'s threads are chosen by measurement on the device — $name', async ({ rates, best }) => {
    const cpu = fakeWebLlm({ rates });
    const { c, saved } = controller(fakeWebLlm(), {}, noGpu, { fake: cpu, probe: tablet });
    await c.init();
    const loading = c.load('cpu');
    await tick();
    cpu.finish('qwen2.5-0.5b-instruct-q4_k_m');
    await loading;
    const id = 'qwen2.5-0.5b-instruct-q4_k_m';
    expect(cpu.calls).toEqual([`load ${id}`, 'measure ×1', `load ${id} ×4`, 'measure ×4', ...(best === 1 ? [`load ${id} ×1`] : [])]);
    expect(saved.at(-1)!.cpu.threads).toBe(best);
    expect(c.snapshot.speeds.cpu).toMatchObject({ threads: best, ...rates(best) });
    // Measured once: the next load uses the chosen count and measures nothing again.
    await c.unload('cpu');
    cpu.calls.length = 0;
    await c.load('cpu');
    expect(cpu.calls).toEqual([`load ${id} ×${best}`]);
  });

  it('a CPU brain measured too slow for T2 is not the automatic choice; a longer 回答时限 makes it fit', async () => {
    let answerMs = 20_000;
    const cpu = fakeWebLlm({ rates: (t) => (t === 1 ? { prefillPerS: 5.5, decodePerS: 4.3 } : { prefillPerS: 11, decodePerS: 7.8 }) });
    const hub = new ModelHub();
    const c = new ModelController({
      hub,
      webllm: () => fakeWebLlm().provider,
      cpu: () => cpu.provider,
      cpuProbe: () => tablet,
      demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
      probe: async () => noGpu,
      load: async () => defaultModelSettings(),
      save: async () => {},
      turnBudget: () => ({ stillThinkingMs: 4000, answerMs, colourMs: 2000 }),
    });
    await c.init();
    const loading = c.load('cpu');
    await tick();
    cpu.finish('qwen2.5-0.5b-instruct-q4_k_m');
    await loading;
    expect(c.snapshot.speeds.cpu?.fits).toBe(false);
    expect(c.snapshot.choice?.engine).toBe('scripted');
    expect(hub.kind).toBeUndefined();
    answerMs = 40_000;
    c.budgetChanged();
    expect(c.snapshot.speeds.cpu?.fits).toBe(true);
    expect(c.snapshot.choice?.engine).toBe('cpu');
  });

  it('a tablet without WebGPU: the CPU engine is offered, downloaded only on request, then (measured fast enough) serves every agent', async () => {
    const f = fakeWebLlm();
    const cpu = fakeWebLlm({ rates: () => ({ prefillPerS: 60, decodePerS: 20 }) });
    const { c, hub, saved } = controller(f, {}, noGpu, { fake: cpu, probe: { ...tablet, cores: 1 } });
    await c.init();
    expect(c.snapshot.choice).toMatchObject({ engine: 'scripted', cpuRuns: true });
    expect(localStateText(c.snapshot.cpu)).toBe('未下载');
    expect(cpu.calls).toEqual([]);
    const loading = c.load('cpu');
    await tick();
    cpu.progress(0.5);
    expect(localStateText(c.snapshot.cpu)).toBe('下载中 50%');
    cpu.finish('qwen2.5-0.5b-instruct-q4_k_m');
    await loading;
    expect(cpu.calls).toEqual(['load qwen2.5-0.5b-instruct-q4_k_m', 'measure ×1']);
    expect(localStateText(c.snapshot.cpu)).toBe('已可离线使用');
    expect(saved.at(-1)!.readyOffline).toEqual(['cpu:qwen2.5-0.5b-instruct-q4_k_m']);
    expect(c.snapshot.choice?.engine).toBe('cpu');
    expect(c.snapshot.provider).toBe('cpu');
    expect(hub.kind).toBe('cpu');
    expect(await tryStep(hub, '你好')).toBe('本机模型在此');
    expect(f.calls).toEqual([]);
  });

  it('a new self-hosted GGUF address that is not a whole model: refused, saying why; the working CPU brain stays in use', async () => {
    const cpu = fakeWebLlm({ rates: () => ({ prefillPerS: 400, decodePerS: 40 }) });
    const checked: string[] = [];
    const check = async (url: string) => {
      checked.push(url);
      throw modelError('model_file_bad', `这是一个网页（HTML），不是模型文件：${url}`);
    };
    const { c, hub } = controller(fakeWebLlm(), {}, noGpu, { fake: cpu, probe: tablet }, undefined, check);
    await c.init();
    const loading = c.load('cpu');
    await tick();
    cpu.finish('qwen2.5-0.5b-instruct-q4_k_m');
    await loading;
    expect(hub.kind).toBe('cpu');
    await c.chooseModel('cpu', 'qwen2.5-0.5b-instruct-q4_k_m', { modelUrl: 'https://robot.local/models/page.gguf' });
    expect(checked).toEqual(['https://robot.local/models/page.gguf']);
    expect(hub.kind).toBe('cpu');
    expect(cpu.calls).not.toContain('unload');
    expect(c.snapshot.settings.cpu.modelUrl ?? '').not.toContain('page.gguf');
    expect(c.snapshot.cpu).toMatchObject({ kind: 'failed', code: 'model_file_bad' });
    expect(await tryStep(hub, '你好')).toBe('本机模型在此');
  });

  it('at start, a CPU model that is ready offline and measured fast enough is loaded again without asking', async () => {
    const cpu = fakeWebLlm({ cached: true });
    const speeds = { 'cpu:qwen2.5-0.5b-instruct-q4_k_m': brainSpeed({ prefillPerS: 60, decodePerS: 20 }, 20_000, 4) };
    const { c } = controller(fakeWebLlm(), { readyOffline: ['cpu:qwen2.5-0.5b-instruct-q4_k_m'], speeds, cpu: { modelId: 'qwen2.5-0.5b-instruct-q4_k_m', modelUrl: '', threads: 4 } }, noGpu, { fake: cpu, probe: tablet });
    await c.init();
    await tick();
    expect(c.snapshot.cpu.kind).not.toBe('not-downloaded');
    expect(cpu.calls).toEqual(['load qwen2.5-0.5b-instruct-q4_k_m ×4']);
  });

  it('neither GPU nor CPU engine: the demo is only recommended, never switched on silently', async () => {
    const { c, hub } = controller(fakeWebLlm(), {}, noGpu);
    await c.init();
    expect(c.snapshot.choice?.engine).toBe('scripted');
    expect(hub.kind).toBeUndefined();
    await c.chooseProvider('scripted');
    expect(hub.kind).toBe('scripted');
  });
});

describe('each engine on this device: unloading keeps the download, removing deletes it', () => {
  it.each([
    { engine: 'webllm', gpuProbe: gpu, loaded: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', key: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' },
    { engine: 'cpu', gpuProbe: noGpu, loaded: 'qwen2.5-0.5b-instruct-q4_k_m', key: 'cpu:qwen2.5-0.5b-instruct-q4_k_m' },
  ] as const)('$engine', async ({ engine, gpuProbe, loaded, key }) => {
    const gpuEngine = fakeWebLlm({ cached: true });
    const cpuEngine = fakeWebLlm({ cached: true });
    const { c, hub, saved } = controller(gpuEngine, { provider: engine }, gpuProbe, { fake: cpuEngine, probe: tablet });
    await c.init();
    const [fake, other] = engine === 'webllm' ? [gpuEngine, cpuEngine] : [cpuEngine, gpuEngine];
    const loading = c.load(engine);
    await tick();
    fake.finish(loaded);
    await loading;
    expect(saved.at(-1)!.readyOffline).toEqual([key]);
    expect(hub.kind).toBe(engine);

    await c.unload(engine);
    expect(hub.kind).toBeUndefined();
    expect(localStateText(engineState(c.snapshot, engine))).toBe('已可离线使用（未加载）');

    await c.remove(engine);
    expect(saved.at(-1)!.readyOffline).toEqual([]);
    expect(localStateText(engineState(c.snapshot, engine))).toBe('未下载');
    expect(fake.calls).toEqual([`load ${loaded}`, 'unload', 'delete']);
    expect(other.calls).toEqual([]);
  });
});

describe('测试连接 finds the server\'s output mode and keeps it with the settings', () => {
  it('an older llama.cpp server: GBNF is found, saved, and used by the next steps', async () => {
    const server = await startDialectServer('llamacpp-old');
    try {
      const remote = { baseUrl: server.baseUrl, model: 'test-model', apiKey: '', timeoutMs: 5000, disableThinking: false, preset: 'llamacpp' };
      const { c, hub, saved } = controller(fakeWebLlm(), { provider: 'remote', remote });
      await c.init();
      const test = await c.testRemote(remote);
      expect(test).toMatchObject({ testing: false, report: { ok: true, models: ['test-model', 'test-model-large'] }, mode: 'gbnf' });
      expect(saved.at(-1)!.remote).toMatchObject({ mode: 'gbnf', probedFor: `${server.baseUrl}|test-model` });
      await tryStep(hub, '你好');
      expect(server.requests.at(-1)!.body.grammar).toContain('root ::=');
      // Another model on the same server is probed again.
      await c.saveRemote({ ...c.snapshot.settings.remote, model: 'test-model-large' });
      expect(c.snapshot.settings.remote.mode).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('a step that switched the mode by itself keeps "上次连接成功": the mode is saved, the model in use kept', async () => {
    const server = await startDialectServer('openai');
    try {
      const remote = { baseUrl: server.baseUrl, model: 'test-model', apiKey: '', timeoutMs: 5000, disableThinking: false, preset: 'custom' };
      // Saving finishes when the test says, after the step has come back.
      const saving = deferred();
      const { c, hub, saved } = controller(fakeWebLlm(), { provider: 'remote', remote }, gpu, undefined, saving.promise);
      await c.init();
      // Strict json_schema with a union root is refused: the step probes, switches and succeeds.
      expect(await tryStep(hub, '你好')).not.toBe('');
      expect(brainFacts(c.snapshot).note).toContain('上次连接成功');
      saving.resolve();
      for (let i = 0; i < 5; i++) await tick();
      expect(saved.at(-1)!.remote).toMatchObject({ mode: 'json_schema_strict_object', probedFor: `${server.baseUrl}|test-model` });
      expect(brainFacts(c.snapshot).note).toContain('上次连接成功');
      // The next step goes straight out in the mode found.
      const before = server.requests.length;
      await tryStep(hub, '再说一句');
      expect(server.requests.slice(before).map((r) => r.status)).toEqual([200]);
    } finally {
      await server.close();
    }
  });
});
