/**
 * The first-piece limit follows what the server must read before its first piece
 * (src/core/llm/prefill-pace.ts, used by src/llm/decide-step.ts): a slow but steady cold prefill
 * is waited for in one attempt, not cut and asked again from the start; a server that stalls on a
 * prompt it already holds is still noticed at the base limit and asked again; a prompt that cannot
 * be read within the turn is one attempt until the deadline, not three; before any pace, a try
 * that heard nothing is asked again with twice the time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatModel } from '../../../src/llm/decide-step.ts';
import { PACE_LATENCY_MS, PACE_SLACK, PrefillPace, promptText } from '../../../src/core/llm/prefill-pace.ts';
import type { ChatMessage, StepRequest } from '../../../src/core/llm/types.ts';
import { prefillServer } from '../../support/llm/prefill-server.ts';
import { guessNumberTools } from './fixtures.ts';

const GOOD = '{"submit_guess":{"number":50}}';
/** The default turn budget's remote limits (stepTimeouts(DEFAULT_TURN_BUDGET)). */
const BASE = { firstByteMs: 8000, idleMs: 5000, totalMs: 15_000 };
/** A step's deadline as the main agent's round gives it with the default budget (T2 − 0.6 s). */
const DEADLINE_MS = 19_400;

const game: ChatMessage[] = [
  { role: 'system', content: '你是游戏主持人。'.repeat(25) },
  { role: 'user', content: '{"event":"start"}' },
];
const main: ChatMessage[] = [
  { role: 'system', content: '你是陪孩子聊天的小机器人，用一句简短温暖的中文回答。'.repeat(22) },
  { role: 'user', content: '你叫什么名字' },
];
const req = (messages: ChatMessage[], over: Partial<StepRequest> = {}): StepRequest => ({ agent: 'main', messages, tools: guessNumberTools, deadline: Date.now() + DEADLINE_MS, ...over });

/** A model on a server that reads 40 characters a second, and one game step it answered (its pace measured). */
async function warmedUp(stall?: (n: number) => boolean) {
  const server = prefillServer({ charsPerS: 40, answer: GOOD, stall });
  const model = createChatModel(server, { backoffMs: [250, 800], timeouts: () => BASE });
  const first = model.step(req(game, { agent: 'game:guess-number' }));
  await vi.advanceTimersByTimeAsync(8000);
  expect((await first).action).toBe('submit_guess');
  expect(server.seen).toHaveLength(1);
  return { server, model };
}

describe('the first-piece limit follows the prompt the server must read', () => {
  afterEach(() => vi.useRealTimers());

  it('a cold prompt read slowly but steadily is waited for: one attempt, answered after 15 s, not cut at 8 s and read again', async () => {
    vi.useFakeTimers();
    const { server, model } = await warmedUp();
    const step = model.step(req(main));
    await vi.advanceTimersByTimeAsync(8500);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1].req.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(8000);
    expect(server.seen[1].answered).toBe(true);
    expect((await step).action).toBe('submit_guess');
    expect(server.seen).toHaveLength(2);
  });

  it('a server that stalls on a prompt it holds is still noticed at 8 s and asked again', async () => {
    vi.useFakeTimers();
    // The second request (the game's next step, continuing its prompt in place) hangs.
    const { server, model } = await warmedUp((n) => n === 1);
    const next = [...game, { role: 'assistant' as const, content: GOOD }, { role: 'user' as const, content: '{"event":"message","user_text":"我猜50"}' }];
    const step = model.step(req(next, { agent: 'game:guess-number' }));
    await vi.advanceTimersByTimeAsync(7900);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1].req.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(server.seen[1].req.signal?.aborted).toBe(true);
    expect(server.seen).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(6000);
    expect((await step).action).toBe('submit_guess');
    expect(server.seen[2].answered).toBe(true);
  });

  it('a prompt the turn cannot hold is read in one attempt until the deadline, not cut and sent three times', async () => {
    vi.useFakeTimers();
    const { server, model } = await warmedUp();
    const long: ChatMessage[] = [{ role: 'system', content: '很长的系统提示。'.repeat(250) }, { role: 'user', content: '你好' }];
    const step = model.step(req(long)).catch((e) => e);
    await vi.advanceTimersByTimeAsync(DEADLINE_MS + 100);
    expect((await step).code).toBe('model_too_slow');
    expect(server.seen).toHaveLength(2);
  });

  it('with no pace measured yet (nothing answered), silence is noticed at the budget\'s 8 s and asked again with twice the time', async () => {
    vi.useFakeTimers();
    const server = prefillServer({ charsPerS: 40, answer: GOOD, stall: () => true });
    const step = createChatModel(server, { backoffMs: [250, 800], timeouts: () => BASE }).step(req(main)).catch((e) => e);
    await vi.advanceTimersByTimeAsync(8100);
    expect(server.seen[0].req.signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(DEADLINE_MS);
    expect((await step).code).toBe('model_too_slow');
    // The second try was still open at the deadline (16 s); no third one.
    expect(server.seen).toHaveLength(2);
  });

  it('a first prompt slower than the budget\'s limit, before any pace: cut once at 8 s, then read to the end within the turn', async () => {
    vi.useFakeTimers();
    const server = prefillServer({ charsPerS: 40, answer: GOOD });
    const first: ChatMessage[] = [{ role: 'system', content: '你是陪孩子聊天的小机器人。'.repeat(26) }, { role: 'user', content: '你好' }];
    const step = createChatModel(server, { backoffMs: [250, 800], timeouts: () => BASE }).step(req(first));
    await vi.advanceTimersByTimeAsync(8100);
    expect(server.seen[0].req.signal?.aborted).toBe(true);
    // 10 s of reading from the second try's start (8.25 s): answered before the deadline (19.4 s).
    await vi.advanceTimersByTimeAsync(11_000);
    expect(server.seen[1].answered).toBe(true);
    expect((await step).action).toBe('submit_guess');
    expect(server.seen).toHaveLength(2);
  });
});

describe('PrefillPace', () => {
  const text = promptText(game);

  it('counts as uncached what no prompt answered before shares; a prompt abandoned before its first piece is not held', () => {
    const pace = new PrefillPace();
    expect(pace.uncached(text)).toBe(text.length);
    pace.firstPiece(text, text.length, 5000);
    const next = promptText([...game, { role: 'assistant', content: GOOD }]);
    expect(pace.uncached(next)).toBe(next.length - text.length);
    expect(pace.uncached(promptText(main))).toBeGreaterThanOrEqual(promptText(main).length - 10);
  });

  it('the pace is characters per second over the first pieces; the limit is never below the base', () => {
    const pace = new PrefillPace();
    expect(pace.limits(BASE, 10_000)).toEqual(BASE);
    // A first piece after a few new characters says nothing about reading.
    pace.firstPiece('short', 5, 2000);
    expect(pace.charsPerS()).toBeUndefined();
    pace.firstPiece(text, 400, 10_000);
    expect(pace.charsPerS()).toBe(40);
    expect(pace.limits(BASE, 40)).toEqual(BASE);
    const cold = pace.limits(BASE, 800);
    expect(cold.firstByteMs).toBe(PACE_LATENCY_MS + 20_000 * PACE_SLACK);
    expect(cold.totalMs - cold.firstByteMs).toBe(BASE.totalMs - BASE.firstByteMs);
    expect(cold.idleMs).toBe(BASE.idleMs);
  });
});
