/**
 * Transient failures are asked again before anyone hears of them (src/llm/decide-step.ts over
 * src/llm/step-retry.ts): HTTP 5xx and 429, cut streams, network errors and stalls, with backoff and
 * inside the step's deadline; a stream asked again is a new attempt (nothing is said twice). And the
 * real remote provider against a test server that fails once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatModel, type CompletionRequest, type StepProvider } from '../../../src/llm/decide-step.ts';
import { httpError, modelError } from '../../../src/llm/errors.ts';
import { isTransient } from '../../../src/llm/step-retry.ts';
import { createRemoteModel } from '../../support/remote-model.ts';
import { ModelError, type StepRequest } from '../../../src/core/llm/types.ts';
import { normalizeTurnBudget, stepTimeouts, DEFAULT_TURN_BUDGET } from '../../../src/core/arcade/turn-budget.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../../support/openai-test-server.ts';
import { guessNumberTools } from './fixtures.ts';

const GOOD = '{"submit_guess":{"number":50}}';
const req = (over: Partial<StepRequest> = {}): StepRequest => ({ agent: 'game:guess-number', messages: [{ role: 'user', content: '我猜50' }], tools: guessNumberTools, ...over });

type Behaviour = { fail: ModelError } | { stall: 'before' | 'after-piece' } | { text: string };

/** A provider that behaves as told, attempt after attempt (streaming its text in two pieces). */
function provider(behaviours: Behaviour[]): StepProvider & { seen: CompletionRequest[] } {
  const seen: CompletionRequest[] = [];
  return {
    label: 'test',
    seen,
    async complete(r) {
      seen.push(r);
      const b = behaviours[Math.min(seen.length - 1, behaviours.length - 1)];
      if ('fail' in b) throw b.fail;
      if ('stall' in b) {
        if (b.stall === 'after-piece') r.onDelta?.(GOOD.slice(0, 5));
        return new Promise((_, reject) => r.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }
      r.onDelta?.(b.text.slice(0, 10));
      r.onDelta?.(b.text.slice(10));
      return b.text;
    },
  };
}

const fast = { backoffMs: [5, 10], timeouts: () => ({ firstByteMs: 150, idleMs: 150, totalMs: 2000 }) };

describe('transient failures', () => {
  it.each([
    ['HTTP 500', httpError(500, 'boom'), true],
    ['HTTP 503', httpError(503), true],
    ['HTTP 429', httpError(429, 'slow down'), true],
    ['an error event mid-stream', modelError('model_remote_http', 'overloaded'), true],
    ['a cut stream', modelError('model_remote_network', '读取回答时断开'), true],
    ['a garbled stream', modelError('model_remote_bad_stream', 'x'), true],
    ['a timeout', modelError('model_remote_timeout', '60 秒'), true],
    ['HTTP 400', httpError(400, 'bad request'), false],
    ['a wrong key', httpError(401), false],
    ['a bad URL', modelError('model_remote_bad_url', 'x'), false],
  ])('%s → transient: %s', (_n, e, yes) => expect(isTransient(e)).toBe(yes));

  it('HTTP 500, then 429, then a good answer: the step succeeds, each try a new attempt of the stream', async () => {
    const p = provider([{ fail: httpError(500) }, { fail: httpError(429) }, { text: GOOD }]);
    const retried: string[] = [];
    const streamed: Array<[string, number]> = [];
    const step = await createChatModel(p, { ...fast, onRetry: (i) => retried.push(i.code) }).step(req({ onStream: (d, a) => streamed.push([d, a]) }));
    expect(step).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    expect(p.seen.map((s) => s.attempt)).toEqual([0, 1, 2]);
    expect(retried).toEqual(['model_remote_http', 'model_remote_http']);
    expect(new Set(streamed.map(([, a]) => a))).toEqual(new Set([2]));
  });

  it('a stall before the first piece and a stall mid-answer are noticed and asked again', async () => {
    const p = provider([{ stall: 'before' }, { stall: 'after-piece' }, { text: GOOD }]);
    const retried: string[] = [];
    const step = await createChatModel(p, { ...fast, onRetry: (i) => retried.push(i.message) }).step(req());
    expect(step.action).toBe('submit_guess');
    expect(retried).toHaveLength(2);
    expect(retried[0]).toContain('第一个字');
    expect(retried[1]).toContain('中途停了');
  });

  it('gives up after two retries with the failure itself (the child then hears its line)', async () => {
    const p = provider([{ fail: modelError('model_remote_network', 'down') }]);
    const err = await createChatModel(p, fast).step(req()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('model_remote_network');
    expect(p.seen).toHaveLength(3);
  });

  it('a failure that is not transient is not asked again', async () => {
    const p = provider([{ fail: httpError(401) }, { text: GOOD }]);
    expect((await createChatModel(p, fast).step(req()).catch((e) => e)).code).toBe('model_remote_auth');
    expect(p.seen).toHaveLength(1);
  });

  it('the deadline bounds everything: a stalled step fails with model_too_slow by then, and no try starts that could not finish', async () => {
    const p = provider([{ stall: 'before' }]);
    // (A hang would fail the test by its timeout: no wall-clock figure decides it.)
    const err = await createChatModel(p, { backoffMs: [5] }).step(req({ deadline: Date.now() + 800 })).catch((e) => e);
    expect(err.code).toBe('model_too_slow');
    const late = provider([{ text: GOOD }]);
    expect((await createChatModel(late).step(req({ deadline: Date.now() + 100 })).catch((e) => e)).code).toBe('model_too_slow');
    expect(late.seen).toHaveLength(0);
  });

  it('malformed output still gets corrections, and an aborted step is an AbortError, not retried', async () => {
    const p = provider([{ text: '{"action":"jump"}' }, { text: GOOD }]);
    expect((await createChatModel(p, fast).step(req())).action).toBe('submit_guess');
    expect(p.seen[1].messages.at(-1)!.content).toContain('上一个输出无效');
    const ac = new AbortController();
    const stalled = provider([{ stall: 'before' }]);
    const pending = createChatModel(stalled, fast).step(req({ signal: ac.signal }));
    ac.abort();
    expect((await pending.catch((e) => e)).name).toBe('AbortError');
    expect(stalled.seen).toHaveLength(1);
  });
});

/** A provider whose single answer the test releases: the first piece, then the rest (a long cold prefill, then decoding). */
function heldProvider(): StepProvider & { seen: CompletionRequest[]; release(): void; fail(e: ModelError): void } {
  const seen: CompletionRequest[] = [];
  const open: Array<{ resolve: (t: string) => void; reject: (e: unknown) => void; r: CompletionRequest }> = [];
  return {
    label: 'held',
    seen,
    complete(r) {
      seen.push(r);
      return new Promise<string>((resolve, reject) => {
        open.push({ resolve, reject, r });
        r.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    },
    release() {
      const o = open.at(-1)!;
      o.r.onDelta?.(GOOD);
      o.resolve(GOOD);
    },
    fail(e) {
      open.at(-1)!.reject(e);
    },
  };
}

describe('a step in the background (a muted game step: no one waits for its words)', () => {
  afterEach(() => vi.useRealTimers());
  const limits = { backoffMs: [5, 10], timeouts: () => ({ firstByteMs: 8000, idleMs: 5000, totalMs: 15000 }) };

  it('once in the background, a first piece later than the first-byte limit is waited for: one attempt, read once to the end', async () => {
    vi.useFakeTimers();
    const p = heldProvider();
    const bg = new AbortController();
    const pending = createChatModel(p, limits).step(req({ deadline: Date.now() + 18_800, background: bg.signal }));
    await vi.advanceTimersByTimeAsync(2000);
    bg.abort();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(p.seen).toHaveLength(1);
    expect(p.seen[0].signal?.aborted).toBe(false);
    p.release();
    expect(await pending).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    expect(p.seen).toHaveLength(1);
  });

  it('still watched while someone waits: the same silence is a stall, asked again from the start', async () => {
    vi.useFakeTimers();
    const p = heldProvider();
    const pending = createChatModel(p, limits).step(req({ deadline: Date.now() + 18_800, background: new AbortController().signal }));
    await vi.advanceTimersByTimeAsync(8000);
    expect(p.seen[0].signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(p.seen).toHaveLength(2);
    p.release();
    expect((await pending).action).toBe('submit_guess');
  });

  it('a step already in the background has no stall limit from its start, and a failure is not asked again', async () => {
    vi.useFakeTimers();
    const bg = new AbortController();
    bg.abort();
    const p = heldProvider();
    const pending = createChatModel(p, limits).step(req({ deadline: Date.now() + 18_800, background: bg.signal }));
    await vi.advanceTimersByTimeAsync(16_000);
    expect(p.seen).toHaveLength(1);
    p.fail(httpError(503));
    expect((await pending.catch((e) => e)).code).toBe('model_remote_http');
    expect(p.seen).toHaveLength(1);
  });

  it('past the deadline it goes on (a cold prompt on a slow engine is read to the end); only its signal stops it', async () => {
    vi.useFakeTimers();
    const bg = new AbortController();
    const p = heldProvider();
    const slow = createChatModel(p, limits).step(req({ deadline: Date.now() + 18_800, background: bg.signal }));
    await vi.advanceTimersByTimeAsync(2000);
    bg.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(p.seen).toHaveLength(1);
    expect(p.seen[0].signal?.aborted).toBe(false);
    p.release();
    expect((await slow).action).toBe('submit_guess');
    // Started in the background after its deadline: asked all the same.
    const after = createChatModel(p, limits).step(req({ deadline: Date.now() - 1, background: bg.signal }));
    await vi.advanceTimersByTimeAsync(1);
    p.release();
    expect((await after).action).toBe('submit_guess');
    const ac = new AbortController();
    const cancelled = createChatModel(p, limits).step(req({ deadline: Date.now() + 18_800, background: bg.signal, signal: ac.signal })).catch((e) => e);
    await vi.advanceTimersByTimeAsync(100);
    ac.abort();
    expect((await cancelled).name).toBe('AbortError');
    expect(p.seen).toHaveLength(3);
  });
});

describe('the turn budget sizes the remote timeouts', () => {
  it('defaults: 8 s to the first piece, 5 s of silence, 15 s per attempt; anything stored is brought inside', () => {
    expect(stepTimeouts(DEFAULT_TURN_BUDGET)).toEqual({ firstByteMs: 8000, idleMs: 5000, totalMs: 15000 });
    expect(normalizeTurnBudget({ stillThinkingMs: 9000, answerMs: 4000 })).toEqual({ stillThinkingMs: 2000, answerMs: 4000, colourMs: 2000 });
    expect(normalizeTurnBudget('nonsense')).toEqual(DEFAULT_TURN_BUDGET);
    // The colour window: stored with T1/T2, brought inside its range and never past T2.
    expect(normalizeTurnBudget({ answerMs: 20_000, colourMs: 15_000 }).colourMs).toBe(15_000);
    expect(normalizeTurnBudget({ answerMs: 8000, colourMs: 15_000 }).colourMs).toBe(8000);
    expect(normalizeTurnBudget({ colourMs: 10 }).colourMs).toBe(500);
    expect(normalizeTurnBudget({ colourMs: 'soon' }).colourMs).toBe(2000);
  });
});

describe('the remote provider against a server that fails once', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await startOpenAITestServer();
  });
  afterAll(() => server.close());
  // Generous limits: a loaded machine must not look like a stalled server.
  const model = () => createRemoteModel({ baseUrl: server.baseUrl, model: 'm' }, { backoffMs: [5, 10], timeouts: () => ({ firstByteMs: 1500, idleMs: 1500, totalMs: 20_000 }) });

  it.each([
    ['HTTP 500', { status: 500, body: '{"error":{"message":"boom"}}' }],
    ['HTTP 429', { status: 429, body: '{"error":"slow down"}' }],
    ['a stream cut mid-way', { cutAfter: '{"action":"sub' }],
    ['a stall', { hangAfter: '{"act' }],
  ])('%s, then a good answer: nobody hears of it', async (_n, first) => {
    let n = 0;
    server.respond(() => (n++ === 0 ? (first as never) : { content: GOOD }));
    expect(await model().step(req())).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    expect(n).toBe(2);
  });
});
