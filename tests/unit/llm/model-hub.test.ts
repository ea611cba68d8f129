import { describe, expect, it } from 'vitest';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { connectModel, exposeModel } from '../../../src/llm/model-port.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { DEFAULT_TRAITS, ModelError, type ChatModel, type Step, type StepRequest } from '../../../src/core/llm/types.ts';
import { guessNumberTools } from './fixtures.ts';

const req = (agent: string, text = '你好', signal?: AbortSignal): StepRequest => ({
  agent,
  messages: [{ role: 'user', content: text }],
  tools: guessNumberTools,
  signal,
});

/** A model whose steps finish only when the test says so. */
function gatedModel() {
  const started: string[] = [];
  const gates: Array<(s: Step) => void> = [];
  const model: ChatModel = {
    label: '测试模型',
    step: (r) =>
      new Promise<Step>((resolve, reject) => {
        started.push(r.agent);
        gates.push(resolve);
        r.signal?.addEventListener('abort', () => reject(new DOMException('x', 'AbortError')));
      }),
  };
  return { model, started, gates };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ModelHub', () => {
  it('queues agents first in, first out; an aborted waiting step leaves the queue', async () => {
    const hub = new ModelHub();
    const g = gatedModel();
    hub.setModel('scripted', g.model);
    const ac = new AbortController();
    const a = hub.model().step(req('main'));
    const b = hub.model().step(req('game:draw-guess', '', ac.signal));
    const c = hub.model().step(req('game:guess-number'));
    await tick();
    expect(hub.status()).toMatchObject({ running: 'main', waiting: ['game:draw-guess', 'game:guess-number'] });
    ac.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    g.gates.shift()!({ action: 'reply', args: { text: 'a' } });
    expect(await a).toMatchObject({ action: 'reply', args: { text: 'a' } });
    await tick();
    g.gates.shift()!({ action: 'get_hint', args: {} });
    expect(await c).toMatchObject({ action: 'get_hint', args: {} });
    expect(g.started).toEqual(['main', 'game:guess-number']);
  });

  it('a step that comes stops a step in the background (a muted game step), never one someone waits for', async () => {
    const hub = new ModelHub();
    const g = gatedModel();
    hub.setModel('scripted', g.model);
    const muted = new AbortController();
    const game = hub.model().step({ ...req('game:guess-number'), background: muted.signal });
    await tick();
    // Not yet in the background: the main agent's step waits its turn.
    const main = hub.model().step(req('main'));
    await tick();
    expect(hub.status()).toMatchObject({ running: 'game:guess-number', waiting: ['main'] });
    g.gates.shift()!({ action: 'reply', args: { text: '好' } });
    expect((await game).action).toBe('reply');
    g.gates.shift()!({ action: 'reply', args: { text: '我是小机器人' } });
    await main;
    // In the background (the colour window passed): the next step stops it and runs at once.
    const late = hub.model().step({ ...req('game:guess-number'), background: muted.signal });
    muted.abort();
    await tick();
    const chat = hub.model().step(req('main'));
    await expect(late).rejects.toMatchObject({ name: 'AbortError' });
    await tick();
    expect(hub.status()).toMatchObject({ running: 'main', waiting: [] });
    g.gates.at(-1)!({ action: 'reply', args: { text: '我叫小星' } });
    expect((await chat).args).toEqual({ text: '我叫小星' });
  });

  it('without a selected provider a step fails clearly', async () => {
    const err = await new ModelHub().model().step(req('main')).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('model_not_configured');
  });

  it('a provider switch applies to the next step, and the label follows', async () => {
    const hub = new ModelHub();
    const model = hub.model();
    hub.setModel('scripted', createScriptedModel({ main: () => ({ action: 'reply', args: { text: '一' } }) }));
    expect(model.label).toBe('规则大脑（不用模型）');
    expect(await model.step(req('main'))).toMatchObject({ action: 'reply', args: { text: '一' } });
    hub.setModel('remote', { label: '远程接口：m', step: async () => ({ action: 'end_game', args: {} }) });
    expect(model.label).toBe('远程接口：m');
    expect(await model.step(req('main'))).toMatchObject({ action: 'end_game', args: {} });
  });
});

describe('model ports (main thread ↔ game worker)', () => {
  it('a worker-side model steps through the hub and sees the provider label', async () => {
    const hub = new ModelHub();
    hub.setModel('scripted', createScriptedModel({ 'game:guess-number': (r) => ({ action: 'reply', args: { text: `收到：${r.messages[0].content}` } }) }));
    const remote = connectModel(hub.openPort().port);
    expect(await remote.step(req('game:guess-number', '五十'))).toMatchObject({ action: 'reply', args: { text: '收到：五十' } });
    expect(remote.label).toBe('规则大脑（不用模型）');
  });

  it("a game worker's prewarm crosses the port to the hub (the engine reads the game's next prompt)", async () => {
    const hub = new ModelHub();
    const warmed: Array<{ agent: string; messages: number }> = [];
    hub.setModel('cpu', { label: 'cpu', step: async () => ({ action: 'reply', args: { text: 'ok' } }), prewarm: async (agent, messages) => void warmed.push({ agent, messages: messages.length }) });
    const remote = connectModel(hub.openPort().port);
    await remote.prewarm!('game:guess-number', [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], new AbortController().signal);
    expect(warmed).toEqual([{ agent: 'game:guess-number', messages: 2 }]);
  });

  it("the selected engine's traits cross the port (a worker's game agent plans by them); none selected or none said: the defaults", async () => {
    const hub = new ModelHub();
    const remote = connectModel(hub.openPort().port);
    expect(await remote.traits!()).toEqual(DEFAULT_TRAITS);
    hub.setModel('webllm', { label: 'w', traits: async () => ({ cutsPrefill: false, keepsPromptsApart: false }), step: async () => ({ action: 'reply', args: {} }) });
    expect(await remote.traits!()).toEqual({ cutsPrefill: false, keepsPromptsApart: false });
    hub.setModel('remote', { label: 'r', step: async () => ({ action: 'reply', args: {} }) });
    expect(await remote.traits!()).toEqual(DEFAULT_TRAITS);
  });

  it('errors keep their catalogue code across the port', async () => {
    const hub = new ModelHub();
    hub.setModel('scripted', createScriptedModel({ main: () => ({ raw: 'garbage' }) }));
    const err = await connectModel(hub.openPort().port).step(req('main')).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('model_invalid_output');
  });

  it("closing a worker's port aborts its running step and drops its queued one, so the main agent's step runs", async () => {
    const hub = new ModelHub();
    const g = gatedModel();
    hub.setModel('scripted', g.model);
    const worker = hub.openPort();
    const remote = connectModel(worker.port);
    void remote.step(req('game:draw-guess', '第一步')); // never settles: the worker is gone
    void remote.step(req('game:draw-guess', '第二步'));
    while (g.started.length === 0) await tick();
    const main = hub.model().step(req('main', '不玩了'));
    await tick();
    expect(hub.status()).toMatchObject({ running: 'game:draw-guess', waiting: ['game:draw-guess', 'main'] });

    worker.close();
    for (let i = 0; i < 50 && g.started.length < 2; i++) await tick();
    expect(g.started).toEqual(['game:draw-guess', 'main']); // the queued worker step never reached the model
    expect(hub.status()).toMatchObject({ running: 'main', waiting: [] });
    g.gates[1]({ action: 'reply', args: { text: '好的' } });
    expect(await main).toMatchObject({ action: 'reply', args: { text: '好的' } });
    worker.close(); // twice is harmless
  });

  it('the streamed text crosses the port in order, all of it before the step resolves', async () => {
    const { port1, port2 } = new MessageChannel();
    const pieces = ['{"reply": {"text": "', '我画', '好啦，', '你猜', '！"}}'];
    const streaming: ChatModel = {
      label: 'streaming',
      async step(r) {
        pieces.forEach((p, i) => r.onStream?.(p, i < 2 ? 0 : 1));
        return { action: 'reply', args: { text: '我画好啦，你猜！' } };
      },
    };
    const close = exposeModel(streaming, port1);
    const heard: string[] = [];
    const step = await connectModel(port2).step({ ...req('game:x', 'hi'), onStream: (d, attempt) => heard.push(`${attempt}:${d}`) });
    expect(step).toMatchObject({ action: 'reply' });
    expect(heard).toEqual(['0:{"reply": {"text": "', '0:我画', '1:好啦，', '1:你猜', '1:！"}}']);
    close();
    port2.close();
  });

  it('aborting in the worker cancels the step on the main thread', async () => {
    const g = gatedModel();
    const { port1, port2 } = new MessageChannel();
    exposeModel(g.model, port1);
    const remote = connectModel(port2);
    const ac = new AbortController();
    const p = remote.step(req('game:x', 'hi', ac.signal));
    while (g.started.length === 0) await tick();
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    port1.close();
    port2.close();
  });

  it("a step the worker puts in the background is in the background on the main thread too (already, or later)", async () => {
    const seen: StepRequest[] = [];
    const gates: Array<(s: Step) => void> = [];
    const model: ChatModel = { label: 'm', step: (r) => new Promise<Step>((resolve) => (seen.push(r), gates.push(resolve))) };
    const { port1, port2 } = new MessageChannel();
    const close = exposeModel(model, port1);
    const remote = connectModel(port2);
    const later = new AbortController();
    const first = remote.step({ ...req('game:x', 'a'), background: later.signal });
    const already = new AbortController();
    already.abort();
    const second = remote.step({ ...req('game:x', 'b'), background: already.signal });
    while (seen.length < 2) await tick();
    while (!seen[1].background?.aborted) await tick();
    expect(seen[0].background?.aborted).toBe(false);
    later.abort();
    while (!seen[0].background?.aborted) await tick();
    for (const g of gates) g({ action: 'reply', args: { text: '好' } });
    expect((await first).action).toBe('reply');
    expect((await second).action).toBe('reply');
    close();
    port2.close();
  });
});
