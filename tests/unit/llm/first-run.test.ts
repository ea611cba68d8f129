/**
 * The first-run path's logic: which brains are offered on this device and in what order, the brain
 * as the status line sees it (from the real model controller over a fake engine), the guide's exact
 * address for the page the app is open on, and 测试连接's plain explanation — against the local
 * OpenAI-compatible test server (found, refused with 403, no /v1, nobody listening) and, before
 * trying, the mixed-content case of an https page and an http:// address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brainChoices } from '../../../src/core/llm/brain-choices.ts';
import { brainSpeed } from '../../../src/core/llm/brain-speed.ts';
import { HOME_BRAIN_PROGRAMS, homeBrainAdvice } from '../../../src/core/llm/home-brain.ts';
import { brainFacts } from '../../../src/llm/brain-status.ts';
import { partStatuses, type BrainFacts, type StatusFacts } from '../../../src/core/status/readiness.ts';
import { ModelError } from '../../../src/core/llm/types.ts';
import { testConnection } from '../../../src/llm/connection-test.ts';
import { ModelController } from '../../../src/llm/model-controller.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { defaultModelSettings, type ModelSettings } from '../../../src/llm/settings-store.ts';
import type { WebGpuProbe } from '../../../src/llm/webgpu-probe.ts';
import type { CpuProbe } from '../../../src/llm/cpu-probe.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../../support/openai-test-server.ts';

const factsWith = (brain: BrainFacts): StatusFacts => ({
  online: true,
  app: { cached: true, canCache: true },
  brain,
  listening: { place: 'none', mic: 'ok' },
  speaking: { state: 'none' },
  robot: { usb: 'none', canConnect: false },
});

const noGpu: WebGpuProbe = { usable: false, reason: 'no-webgpu-api', f16: false };
const [ollama, llamaServer, lmStudio] = HOME_BRAIN_PROGRAMS;

describe('the brains offered', () => {
  // Measured on this 2-core machine (Qwen2.5-0.5B shapes, two threads) and a fast GPU, against the default T2 of 20 s.
  const slow = brainSpeed({ prefillPerS: 11, decodePerS: 7.8 }, 20_000, 2);
  const fast = brainSpeed({ prefillPerS: 300, decodePerS: 40 }, 20_000);
  const device = { localDownloadMB: 880, cpuDownloadMB: 491 };
  it('with a GPU, not measured yet: the rules brain and the home computer recommended, the local model offered with its size and "measured after the download"', () => {
    const c = brainChoices({ gpu: true, cpu: true, ...device });
    expect(c.map((x) => [x.id, x.recommended])).toEqual([['demo', true], ['remote', true], ['local', false]]);
    expect(c[0].title).toBe('规则大脑');
    expect(c[0].blurb).toContain('每轮马上回答');
    expect(c[0].blurb).toContain('自己设计的游戏');
    expect(c[2].blurb).toBe('下载一次（约 880 MB），之后不联网也能玩。下载后会先在这台设备上测一下每轮要等多久。');
  });
  it('with a GPU measured fast enough: the local model first and alone recommended, with its measured wait', () => {
    const c = brainChoices({ gpu: true, cpu: true, ...device, speeds: { local: fast } });
    expect(c.map((x) => [x.id, x.recommended])).toEqual([['local', true], ['remote', false], ['demo', false]]);
    expect(c[0].blurb).toContain('每轮要等约 2 秒才有回答，在每轮 20 秒的时限以内');
  });
  it('without one, the CPU brain measured too slow: the rules brain and the home computer recommended, the CPU brain saying its measured wait', () => {
    const c = brainChoices({ gpu: false, cpu: true, ...device, speeds: { cpu: slow } });
    expect(c.map((x) => [x.id, x.recommended])).toEqual([['demo', true], ['remote', true], ['cpu', false]]);
    expect(c[2].blurb).toContain('约 491 MB');
    expect(c[2].blurb).toContain('比显卡慢很多');
    expect(c[2].blurb).toContain('超过了每轮 20 秒的时限');
    expect(c.map((x) => x.blurb).join('')).not.toContain('10 到 40 秒');
  });
  it('without one, the CPU brain measured fast enough (a longer T2): recommended', () => {
    const c = brainChoices({ gpu: false, cpu: true, ...device, speeds: { cpu: brainSpeed(slow, 40_000, 2) } });
    expect(c.map((x) => [x.id, x.recommended])).toEqual([['cpu', true], ['remote', false], ['demo', false]]);
  });
  it('without either: the rules brain and the home computer, both recommended, no local model', () => {
    expect(brainChoices({ gpu: false, cpu: false, ...device }).map((x) => [x.id, x.recommended])).toEqual([['demo', true], ['remote', true]]);
  });
});

function controllerWith(stored: Partial<ModelSettings> = {}, cpuProbe?: CpuProbe) {
  const hub = new ModelHub();
  const c = new ModelController({
    hub,
    webllm: () => {
      throw new Error('no WebLLM in this test');
    },
    ...(cpuProbe ? { cpuProbe: () => cpuProbe } : {}),
    demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
    probe: async () => noGpu,
    load: async () => ({ ...defaultModelSettings(), ...stored }),
    save: async () => {},
  });
  return { c, hub };
}

describe('the end of the first run, no brain chosen yet', () => {
  const runs: CpuProbe = { usable: true, isolated: false, cores: 2, deviceMemoryGB: 8 };
  const slow = { prefillPerS: 11, decodePerS: 7.8, turnWaitS: 24.3, fits: false, answerMs: 20_000, threads: 2 };

  it('nothing here can answer in time and no home computer: the rules brain is taken, and says so', async () => {
    for (const [stored, probe] of [
      [{}, { ...runs, deviceMemoryGB: 1 }], // too little memory for the CPU brain
      [{}, { usable: false, reason: 'no-wasm-memory64', isolated: false, cores: 2 }], // it cannot run in this browser
      [{ speeds: { 'cpu:qwen2.5-0.5b-instruct-q4_k_m': slow } }, runs], // measured here: too slow
    ] as Array<[Partial<ModelSettings>, CpuProbe]>) {
      const { c, hub } = controllerWith(stored, probe);
      await c.init();
      expect(c.snapshot.choice).toMatchObject({ engine: 'scripted', rulesOnly: true });
      expect(await c.takeRulesBrainIfOnly()).toBe(true);
      expect(hub.kind).toBe('scripted');
      expect(brainFacts(c.snapshot)).toMatchObject({ chosen: true, label: '规则大脑', ready: true });
    }
  });

  it('a CPU brain that may fit (not measured yet), a home computer set up, or a brain chosen already: nothing is taken', async () => {
    for (const stored of [{}, { remote: { ...defaultModelSettings().remote, baseUrl: 'http://192.168.1.5:11434/v1', model: 'qwen2.5:1.5b' } }, { provider: 'remote' as const }]) {
      const { c, hub } = controllerWith(stored, runs);
      await c.init();
      expect(await c.takeRulesBrainIfOnly()).toBe(false);
      expect(hub.kind).not.toBe('scripted');
    }
  });
});

describe('the brain as the status line sees it', () => {
  it('the untouched default is no choice; the demo answers and works offline', async () => {
    const { c } = controllerWith();
    await c.init();
    expect(brainFacts(c.snapshot)).toMatchObject({ chosen: false, ready: false });
    await c.chooseProvider('scripted');
    expect(brainFacts(c.snapshot)).toMatchObject({ chosen: true, label: '规则大脑', ready: true, offline: true });
  });

  it('the CPU engine: its download says how far; loaded, it works offline and says it is slower; left to the automatic choice and not downloaded, it is not a choice yet', async () => {
    const { c } = controllerWith();
    await c.init();
    const s = c.snapshot;
    const chosenCpu = { ...s, settings: { ...s.settings, provider: 'cpu' as const }, provider: 'cpu' as const };
    expect(brainFacts({ ...chosenCpu, cpu: { kind: 'downloading', percent: 40, text: '' } })).toMatchObject({ chosen: true, ready: false, offline: false, waiting: '下载中 40%' });
    expect(brainFacts({ ...chosenCpu, cpu: { kind: 'not-downloaded' } })).toMatchObject({ chosen: true, ready: false, waiting: '还没下载' });
    expect(brainFacts({ ...chosenCpu, cpu: { kind: 'ready' }, active: 'cpu' })).toMatchObject({ chosen: true, ready: true, offline: true, note: '比显卡慢，每轮回答要等一会儿' });
    expect(brainFacts({ ...s, settings: { ...s.settings, provider: 'auto' }, provider: 'cpu', cpu: { kind: 'not-downloaded' }, active: undefined })).toMatchObject({ chosen: false });
  });

  it('the home computer: set up, never "connected" until a step or a test reached it; a failed step says why', async () => {
    const { c, hub } = controllerWith({ provider: 'remote', remote: { ...defaultModelSettings().remote, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 } });
    await c.init();
    expect(brainFacts(c.snapshot)).toMatchObject({ chosen: true, label: '家里的电脑', ready: true, offline: false, note: '127.0.0.1:9，还没连过' });
    const reply = { name: 'reply', description: '回答', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
    await expect(hub.model().step({ agent: 'main', messages: [{ role: 'user', content: '你好' }], tools: [reply] })).rejects.toThrow();
    expect(brainFacts(c.snapshot)).toMatchObject({ ready: false, note: '127.0.0.1:9，上次连不上：连不上远程接口' });
    expect(partStatuses(factsWith(brainFacts(c.snapshot))).find((p) => p.id === 'brain')?.short).toBe('大脑：家里的电脑（连不上）');
    c.noteRemoteContact(true);
    expect(brainFacts(c.snapshot)).toMatchObject({ ready: true, note: '127.0.0.1:9，上次连接成功' });
    // A server that was reached but did not answer within the turn is said so, not "unreachable".
    c.noteRemoteContact(false, 'model_remote_timeout');
    expect(brainFacts(c.snapshot)).toMatchObject({ ready: false, waiting: '没有及时回答' });
    c.noteRemoteContact(false, 'model_remote_http');
    expect(brainFacts(c.snapshot)).toMatchObject({ ready: false, waiting: '连不上' });
    // An answer the model got wrong still came from a server that answered.
    hub.setModel('remote', { label: 'x', step: async () => { throw new ModelError('model_invalid_output', 'bad'); } });
    await expect(hub.model().step({ agent: 'main', messages: [], tools: [reply] })).rejects.toThrow();
    expect(brainFacts(c.snapshot)).toMatchObject({ ready: true });
  });

  it('the home computer with no address yet: chosen, not ready, and what is missing', async () => {
    const { c } = controllerWith({ provider: 'remote' });
    await c.init();
    expect(brainFacts(c.snapshot)).toMatchObject({ chosen: true, ready: false, note: '还没填家里电脑的地址' });
  });
});

describe('the exact address to type', () => {
  const page = (url: string) => {
    const u = new URL(url);
    return { protocol: u.protocol, hostname: u.hostname, origin: u.origin };
  };
  it('the app opened on the computer itself (localhost): the program on localhost, its own port', () => {
    expect(homeBrainAdvice(ollama, page('http://localhost:5173/')).address).toBe('http://localhost:11434/v1');
    expect(homeBrainAdvice(llamaServer, page('http://127.0.0.1:4173/'))).toMatchObject({ address: 'http://localhost:8080/v1', via: 'direct' });
  });
  it('an http page on the home network: the same computer, reachable from the tablet and allowing this page', () => {
    const a = homeBrainAdvice(ollama, page('http://192.168.1.20:4173/'));
    expect(a).toMatchObject({ address: 'http://192.168.1.20:11434/v1', via: 'direct' });
    expect(a.steps.join('')).toContain('OLLAMA_HOST=0.0.0.0 OLLAMA_ORIGINS=http://192.168.1.20:4173 ollama serve');
    expect(homeBrainAdvice(lmStudio, page('http://192.168.1.20:4173/')).steps.join('')).toContain('Serve on Local Network');
  });
  it('an https page: through the app\'s own address (no mixed content), with the command that forwards it', () => {
    const a = homeBrainAdvice(ollama, page('https://robot.local:4443/'));
    expect(a).toMatchObject({ address: 'https://robot.local:4443/brain/v1', via: 'forward' });
    expect(a.steps.at(-1)).toBe('在打开游戏厅的那台电脑上，这样启动游戏厅：「AGENTCADE_BRAIN=http://localhost:11434 npm start」。');
    expect(a.why).toContain('浏览器不让它直接连电脑上的 http:// 地址');
  });
});

describe('测试连接', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await startOpenAITestServer();
  });
  afterAll(() => server.close());

  it('found: the models on the computer', async () => {
    const r = await testConnection({ baseUrl: server.baseUrl }, { pageUrl: 'http://localhost:4173/' });
    expect(r).toMatchObject({ ok: true, models: ['test-model'], headline: '连上了！电脑上的模型：test-model' });
  });

  it('an https page and an http:// address: explained before trying (mixed content), with the way round it', async () => {
    const before = server.requests.length;
    const r = await testConnection({ baseUrl: 'http://192.168.1.20:11434/v1' }, { pageUrl: 'https://robot.local:4443/' });
    expect(r).toMatchObject({ ok: false, code: 'model_remote_mixed_content', headline: '连不上：https 页面不能访问 http 接口。' });
    expect(r.why).toContain('混合内容');
    expect(r.tips[0]).toContain('AGENTCADE_BRAIN=http://localhost:端口 npm start');
    expect(server.requests.length).toBe(before);
  });

  it('an address that is not a whole web address: said before trying, with how it must begin', async () => {
    const before = server.requests.length;
    const r = await testConnection({ baseUrl: 'robot.local:11434/v1' }, { pageUrl: 'http://localhost:4173/' });
    expect(r).toMatchObject({ ok: false, code: 'model_remote_bad_url' });
    expect(r.tips).toEqual(['地址要以 http:// 或 https:// 开头，例如 http://192.168.1.20:11434/v1。']);
    expect(server.requests.length).toBe(before);
  });

  it('nobody listening at that port: what to check on the computer and the Wi-Fi', async () => {
    const r = await testConnection({ baseUrl: 'http://127.0.0.1:9/v1', preset: 'ollama' }, { pageUrl: 'http://localhost:4173/' });
    expect(r).toMatchObject({ ok: false, code: 'model_remote_network', headline: '连不上 127.0.0.1:9。' });
    expect(r.tips.join('')).toContain('OLLAMA_ORIGINS');
    expect(r.detail).toContain('127.0.0.1:9');
    // Each program's own advice: llama-server's tips name its own switch, never Ollama's.
    const llama = await testConnection({ baseUrl: 'http://127.0.0.1:9/v1', preset: 'llamacpp' }, { pageUrl: 'http://localhost:4173/' });
    expect(llama.tips.join('')).toContain('--host 0.0.0.0');
    expect(llama.tips.join('')).not.toContain('OLLAMA');
  });

  it('an address with no /v1 API under it: found the computer, not the brain', async () => {
    const r = await testConnection({ baseUrl: `${server.baseUrl.replace(/\/v1$/, '')}/nothing-here/v1` }, { pageUrl: 'http://localhost:4173/' });
    expect(r).toMatchObject({ ok: false, code: 'model_remote_http' });
    expect(r.tips).toEqual(['找到了电脑，但这个地址下没有大脑的接口：地址要以 /v1 结尾，例如 http://192.168.1.20:11434/v1。']);
  });

  it('refused with 403 (what Ollama answers a page it does not allow): set OLLAMA_ORIGINS', async () => {
    const r = await testConnection({ baseUrl: 'http://192.168.1.20:11434/v1' }, { pageUrl: 'http://192.168.1.20:4173/', fetch: async () => new Response('', { status: 403 }) });
    expect(r).toMatchObject({ ok: false, code: 'model_remote_auth', headline: '192.168.1.20:11434 不让这个页面用它。' });
    expect(r.tips[0]).toContain('OLLAMA_ORIGINS');
  });

  it('refused with 401: 需要密钥 is the headline, and a cloud service\'s advice is about its key only', async () => {
    const refuse = async () => new Response('', { status: 401 });
    const none = await testConnection({ baseUrl: 'https://api.example.com/v1', preset: 'cloud' }, { pageUrl: 'https://tablet.local/', fetch: refuse });
    expect(none).toMatchObject({ ok: false, code: 'model_remote_auth', status: 401, headline: '需要密钥：api.example.com 要 API 密钥才让用。' });
    expect(none.tips.join('')).not.toContain('OLLAMA');
    const wrong = await testConnection({ baseUrl: 'https://api.example.com/v1', preset: 'cloud', apiKey: 'sk-old' }, { pageUrl: 'https://tablet.local/', fetch: refuse });
    expect(wrong.headline).toBe('需要密钥：api.example.com 不接受这个密钥。');
  });

  it('a server listing embedding models beside its chat models: only the chat models are offered, in its order', async () => {
    const list = async () => Response.json({ data: [{ id: 'text-embedding-nomic-embed-text-v1.5' }, { id: 'qwen2.5-1.5b-instruct' }, { id: 'bge-m3' }, { id: 'gemma-3-4b-it' }] });
    const r = await testConnection({ baseUrl: 'http://192.168.1.20:1234/v1', preset: 'lmstudio' }, { pageUrl: 'http://192.168.1.20:4173/', fetch: list });
    expect(r).toMatchObject({ ok: true, models: ['qwen2.5-1.5b-instruct', 'gemma-3-4b-it'], other: ['text-embedding-nomic-embed-text-v1.5', 'bge-m3'] });
    expect(r.headline).toBe('连上了！电脑上的模型：qwen2.5-1.5b-instruct、gemma-3-4b-it（另有 2 个不能聊天的模型没有列出）');
  });
});
