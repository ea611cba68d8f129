import { describe, expect, it } from 'vitest';
import { createEngineService, type EngineCompletion, type EngineLike } from '../../../src/llm/engine-service.ts';
import { FifoQueue } from '../../../src/llm/request-queue.ts';

/** A fake WebLLM engine: each generation waits for the test to release it, and records its order. */
function fakeEngine() {
  const log: string[] = [];
  const gates: Array<{ name: string; release: () => void }> = [];
  let interrupted = false;
  const requests: Array<Record<string, unknown>> = [];
  const engine: EngineLike & { reloaded: string[]; unloaded: number } = {
    reloaded: [],
    unloaded: 0,
    async reload(id) {
      this.reloaded.push(id);
    },
    async unload() {
      this.unloaded++;
    },
    interruptGenerate() {
      interrupted = true;
      gates.forEach((g) => g.release());
    },
    async chatCompletion(req) {
      requests.push(req);
      const user = (req.messages as Array<{ content: string }>).at(-1)!.content;
      interrupted = false;
      log.push(`start ${user}`);
      await new Promise<void>((release) => gates.push({ name: user, release }));
      log.push(`end ${user}`);
      const text = interrupted ? '{"act' : `{"reply":{"text":"${user}"}}`;
      return (async function* () {
        for (const ch of [text.slice(0, 5), text.slice(5)]) yield { choices: [{ delta: { content: ch } }] };
      })();
    },
  };
  return { engine, log, gates, requests };
}

const completion = (id: string, agent: string, text: string): EngineCompletion => ({
  id,
  agent,
  messages: [{ role: 'user', content: text }],
  schema: { anyOf: [] },
  maxTokens: 64,
  temperature: 0.2,
});

const tick = () => new Promise((r) => setTimeout(r, 0));

async function loadedService() {
  const f = fakeEngine();
  const service = createEngineService({
    prepareEngine: async (current) => current ?? f.engine,
    grammar: async () => 'root ::= "x"',
    isQwen3: (id) => id.startsWith('Qwen3'),
  });
  const progress: number[] = [];
  const r = await service.load({ modelId: 'Qwen3-0.6B-q4f16_1-MLC' }, (p) => progress.push(p.progress));
  expect(r).toEqual({ ok: true, value: 'Qwen3-0.6B-q4f16_1-MLC' });
  expect(progress.at(-1)).toBe(1);
  return { service, ...f };
}

describe('model worker queue', () => {
  it('serves two agents first in, first out, one generation at a time', async () => {
    const { service, log, gates, requests } = await loadedService();
    const a = service.complete(completion('1', 'main', 'A'));
    const b = service.complete(completion('2', 'game:guess-number', 'B'));
    await tick();
    expect(service.status().running).toBe('main#1');
    expect(service.status().waiting).toEqual(['game:guess-number#2']);
    gates.shift()!.release();
    expect(await a).toEqual({ ok: true, value: '{"reply":{"text":"A"}}' });
    await tick();
    gates.shift()!.release();
    expect(await b).toMatchObject({ ok: true });
    expect(log).toEqual(['start A', 'end A', 'start B', 'end B']);
    // grammar-constrained, max_tokens always set, Qwen3 thinking off
    expect(requests[0].response_format).toEqual({ type: 'grammar', grammar: 'root ::= "x"' });
    expect(requests[0].max_tokens).toBe(64);
    expect(requests[0].extra_body).toEqual({ enable_thinking: false });
  });

  it('a cancelled waiting request leaves the queue and the next one runs', async () => {
    const { service, log, gates } = await loadedService();
    const a = service.complete(completion('1', 'main', 'A'));
    const b = service.complete(completion('2', 'game:x', 'B'));
    const c = service.complete(completion('3', 'game:y', 'C'));
    await tick();
    service.cancel('2');
    expect(await b).toMatchObject({ ok: false, code: 'aborted' });
    expect(service.status().waiting).toEqual(['game:y#3']);
    gates.shift()!.release();
    await a;
    await tick();
    gates.shift()!.release();
    await c;
    expect(log).toEqual(['start A', 'end A', 'start C', 'end C']);
  });

  it('cancelling the running request interrupts the generation', async () => {
    const { service } = await loadedService();
    const a = service.complete(completion('1', 'main', 'A'));
    await tick();
    service.cancel('1');
    expect(await a).toMatchObject({ ok: false, code: 'aborted' });
    expect(service.status().running).toBeUndefined();
  });

  it('unload cancels everything and frees the engine; later requests say the model is not loaded', async () => {
    const { service, engine } = await loadedService();
    const a = service.complete(completion('1', 'main', 'A'));
    const b = service.complete(completion('2', 'main', 'B'));
    await tick();
    expect(await service.unload()).toEqual({ ok: true, value: undefined });
    expect((await a).ok).toBe(false);
    expect(await b).toMatchObject({ ok: false, code: 'aborted' });
    expect(engine.unloaded).toBe(1);
    expect(await service.complete(completion('3', 'main', 'C'))).toMatchObject({ ok: false, code: 'model_not_loaded' });
  });

  it('maps WebLLM error strings from a failed load to catalogue codes', async () => {
    const failing = (msg: string, online = true) =>
      createEngineService({
        prepareEngine: async () => ({
          reload: async () => {
            throw new Error(msg);
          },
          unload: async () => {},
          interruptGenerate: () => {},
          chatCompletion: async () => (async function* () {})(),
        }),
        grammar: async () => '',
        isQwen3: () => false,
        online: () => online,
      }).load({ modelId: 'm' });
    expect(await failing('Device was lost. This can happen due to insufficient memory (OOM)')).toMatchObject({ code: 'model_out_of_memory' });
    expect(await failing("TypeError: Failed to execute 'add' on 'Cache': Request failed")).toMatchObject({ code: 'model_download_failed' });
    expect(await failing("TypeError: Failed to execute 'add' on 'Cache': Request failed", false)).toMatchObject({ code: 'model_offline_not_cached' });
    expect(await failing('WebGPU is not supported in your current environment')).toMatchObject({ code: 'model_no_webgpu' });
    expect(await failing("Failed to construct 'URL': Invalid URL")).toMatchObject({ code: 'model_bad_config' });
  });
});

describe('FifoQueue', () => {
  it('a request aborted before it starts never runs', async () => {
    const q = new FifoQueue();
    const ran: string[] = [];
    let release!: () => void;
    const first = q.run(() => new Promise<void>((r) => (release = r)).then(() => void ran.push('a')), { label: 'a' });
    const ac = new AbortController();
    const second = q.run(async () => void ran.push('b'), { label: 'b', signal: ac.signal });
    const third = q.run(async () => void ran.push('c'), { label: 'c' });
    expect(q.waitingLabels).toEqual(['b', 'c']);
    ac.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(q.waitingLabels).toEqual(['c']);
    release();
    await Promise.all([first, third]);
    expect(ran).toEqual(['a', 'c']);
  });

  it('a job that throws does not block the queue', async () => {
    const q = new FifoQueue();
    const bad = q.run(() => {
      throw new Error('boom');
    });
    await expect(bad).rejects.toThrow('boom');
    expect(await q.run(async () => 42)).toBe(42);
  });
});
