import { beforeEach, describe, expect, it, vi } from 'vitest';
import { actions, cachedUrls, lastLoad, resetFake, whenRunning } from '../../support/llm/fake-wllama.ts';
import { cpuEngineDeps } from '../../../src/llm/cpu-engine.ts';
import { createEngineService, type EngineCompletion } from '../../../src/llm/engine-service.ts';
import { CPU_PREFILL_CHUNK } from '../../../src/core/llm/engine-choice.ts';

vi.mock('@wllama/wllama', () => import('../../support/llm/fake-wllama.ts'));
vi.mock('@wllama/wllama/esm/wasm/wllama.wasm?url', () => ({ default: 'data:application/wasm;base64,AA==' }));

const MODEL_URL = 'http://models.test/qwen.gguf';

const step = (id: string, agent: string, chars: number): EngineCompletion => ({
  id,
  agent,
  messages: [
    { role: 'system', content: 'x'.repeat(chars) },
    { role: 'user', content: '我' },
  ],
  schema: { anyOf: [] },
  maxTokens: 3,
  temperature: 0,
});

async function cpuService(batch?: number) {
  cachedUrls.push(MODEL_URL);
  const service = createEngineService({ prepareEngine: cpuEngineDeps.prepareEngine, grammar: async () => 'root ::= "x"', isQwen3: () => false });
  expect(await service.load({ modelId: 'qwen2.5-0.5b', modelUrl: MODEL_URL, ...(batch ? { batch } : {}) })).toMatchObject({ ok: true });
  return service;
}

/** Prompt tokens the abandoned request (engine request 1) read once it was given up, and when the next request began. */
function afterCancel() {
  const prefilledAfterAbort = actions.filter((a) => a.req === 1 && a.kind === 'prefill' && a.afterAbort).reduce((n, a) => n + a.tokens, 0);
  const firstOfNext = actions.findIndex((a) => a.req === 2);
  const cancelled = actions.findIndex((a) => a.req === 1 && a.kind === 'cancel');
  return { prefilledAfterAbort, firstOfNext, cancelled, decodedByAbandoned: actions.filter((a) => a.req === 1 && a.kind === 'decode').length };
}

describe('a cancelled step frees the CPU engine', () => {
  beforeEach(() => resetFake());

  it('a step given up in the middle of a long prefill stops within one prompt batch, and the next step runs at once', async () => {
    const service = await cpuService();
    expect(lastLoad).toMatchObject({ n_batch: CPU_PREFILL_CHUNK });
    const long = service.complete(step('long', 'game:guess-number', 1200));
    const next = service.complete(step('next', 'main', 10));
    // Its turn is given up while the long prompt is being read.
    await whenRunning(1, 'prefill');
    service.cancel('long');
    expect(await long).toMatchObject({ ok: false, code: 'aborted' });
    expect(await next).toEqual({ ok: true, value: 'xxx' });
    const r = afterCancel();
    // Only the batch that was running when the cancel came, then the engine let it go.
    expect(r.prefilledAfterAbort).toBe(CPU_PREFILL_CHUNK);
    expect(r.decodedByAbandoned).toBe(0);
    expect(r.cancelled).toBeGreaterThan(-1);
    expect(r.cancelled).toBeLessThan(r.firstOfNext);
    expect(service.status()).toMatchObject({ running: undefined, waiting: [] });
  });

  it("with llama.cpp's default batch the same cancel lets the whole prompt run on first (why the app sets its own)", async () => {
    const service = await cpuService(2048);
    const long = service.complete(step('long', 'game:guess-number', 1200));
    const next = service.complete(step('next', 'main', 10));
    await whenRunning(1, 'prefill');
    service.cancel('long');
    expect(await long).toMatchObject({ ok: false, code: 'aborted' });
    expect(await next).toMatchObject({ ok: true });
    expect(afterCancel().prefilledAfterAbort).toBe(1201);
  });

  it('a step cancelled while it waits in the queue never reaches the engine', async () => {
    const service = await cpuService();
    const first = service.complete(step('first', 'game:guess-number', 100));
    const waiting = service.complete(step('waiting', 'main', 100));
    service.cancel('waiting');
    expect(await waiting).toMatchObject({ ok: false, code: 'aborted' });
    expect(await first).toMatchObject({ ok: true });
    expect(actions.some((a) => a.req === 2)).toBe(false);
  });
});
