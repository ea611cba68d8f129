/**
 * On an engine that reads a begun prefill to the end and keeps nothing of an abandoned reply
 * (EngineTraits.cutsPrefill false: WebLLM), the next turn does not cancel a muted step whose
 * request has gone out: the rules' line of the next turn is said at once, its model step waits for
 * the muted one, the muted round is remembered as generated with its note, and the next request
 * continues it in place. A muted step that was still waiting (it read nothing) is cancelled; an end
 * cancels as before. Timers are faked: no timing decides anything.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { stepMessage } from '../../../src/core/agent/messages.ts';
import { heardInsteadNote, replaceRound, withoutOwnRound } from '../../../src/core/games/muted-round.ts';
import { CHATML, continuation } from '../../../src/core/llm/continuation.ts';
import type { ChatMessage, Step } from '../../../src/core/llm/types.ts';
import { HeldModel } from '../../support/llm/held-model.ts';
import { ctx, FakeDevice, secretRandom } from './helpers.ts';

const REPLY = (text: string): Step => ({ action: 'reply', args: { text } });
const NEXT_PROMPT = '再猜一个吧！';
const WEBLLM = { cutsPrefill: false, keepsPromptsApart: false };

function setUp(model: HeldModel) {
  const agent = new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(63) });
  agent.game.start();
  return agent;
}

function play(agent: GuessNumberAgent, text: string, kind: 'message' | 'end' = 'message') {
  const c = ctx();
  const reply = agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 18_000, colourMs: 2000 });
  return { c, reply };
}

const late = { ...REPLY('你离答案越来越近啦！'), raw: '{"reply":{"text":"你离答案越来越近啦！"}}' };

/** 「我猜50」 until the colour window ended the turn, its step still open. */
async function cutFirst(model: HeldModel) {
  const agent = setUp(model);
  const first = play(agent, '我猜50');
  await vi.advanceTimersByTimeAsync(2001);
  expect(await first.reply).toEqual({ text: NEXT_PROMPT, ended: false });
  expect(model.ended).toEqual(['open']);
  return agent;
}

/**
 * The second request continues the first, muted one in place: the first request, its late step as
 * generated and the note of what the child heard instead. Returns the second request's messages.
 */
function expectMutedContinued(model: HeldModel): ChatMessage[] {
  const [asked, next] = [model.requests[0].messages, model.requests[1].messages];
  expect(next.slice(0, asked.length + 2)).toEqual([...asked, stepMessage(late), heardInsteadNote(NEXT_PROMPT)]);
  expect(continuation({ asked, sent: asked, reply: stepMessage(late).content }, next, CHATML).inPlace).toBe(true);
  return next;
}

describe('a muted step on an engine whose prefill cannot be cut', () => {
  afterEach(() => vi.useRealTimers());

  it('the next turn does not cancel it: its rules line is said at once, its model step waits, the muted round is remembered and the next request continues it in place', async () => {
    vi.useFakeTimers();
    const model = new HeldModel((_req, n) => (n === 2 ? REPLY('加油！') : undefined), WEBLLM);
    const agent = await cutFirst(model);
    const second = play(agent, '我猜75');
    await vi.advanceTimersByTimeAsync(1);
    // The rules spoke at once; nothing new went to the engine, and the muted step goes on.
    expect(second.c.intermediate.join('')).toContain('75');
    expect(model.requests).toHaveLength(1);
    expect(model.ended).toEqual(['open']);
    model.answer(0, late);
    await vi.advanceTimersByTimeAsync(10);
    expect(await second.reply).toEqual({ text: '加油！', ended: false });
    expect(model.ended).toEqual(['answered', 'answered']);
    // Nothing said of the late reply.
    expect(second.c.intermediate.join('') + (await second.reply).text).not.toContain('越来越近');
    const next = expectMutedContinued(model);
    // Memory: the muted round as generated, then the second round as sent.
    expect(agent.conversation.slice(0, next.length - 1)).toEqual(next.slice(1));
    // A next turn waited for it: no prewarm was asked between the two steps.
    expect(model.warmed).toHaveLength(1);
  });

  it('a turn cut while it still waited is cancelled by the next one (it read nothing); the earlier step still finishes and the next request continues it', async () => {
    vi.useFakeTimers();
    const model = new HeldModel((_req, n) => (n === 2 ? REPLY('加油！') : undefined), WEBLLM);
    const agent = await cutFirst(model);
    const second = play(agent, '我猜75');
    await vi.advanceTimersByTimeAsync(2001);
    expect((await second.reply).ended).toBe(false);
    const third = play(agent, '我猜62');
    await vi.advanceTimersByTimeAsync(1);
    expect(third.c.intermediate.join('')).toContain('62');
    expect(model.requests).toHaveLength(1);
    model.answer(0, late);
    await vi.advanceTimersByTimeAsync(10);
    await third.reply;
    // The second turn's step never went out; the third continues the first step's conversation.
    expect(model.requests).toHaveLength(2);
    const next = expectMutedContinued(model);
    // The second round is there as the rules took it, before the third's input.
    expect(next.some((m) => m.role === 'user' && m.content.includes('我猜75'))).toBe(true);
  });

  it('an end still cancels it, and on an engine that cuts a prefill the next turn cancels it as before', async () => {
    vi.useFakeTimers();
    const ending = new HeldModel((_req, n) => (n > 1 ? REPLY('下次再玩！') : undefined), WEBLLM);
    const a = await cutFirst(ending);
    const end = play(a, '不玩了', 'end');
    await vi.advanceTimersByTimeAsync(10);
    await end.reply;
    expect(ending.ended[0]).toBe('aborted');

    const cutting = new HeldModel((_req, n) => (n > 1 ? REPLY('加油！') : undefined), { cutsPrefill: true, keepsPromptsApart: true });
    const b = await cutFirst(cutting);
    const next = play(b, '我猜75');
    await vi.advanceTimersByTimeAsync(10);
    await next.reply;
    expect(cutting.ended).toEqual(['aborted', 'answered']);
  });
});

describe('the rounds of a muted step in memory', () => {
  const m = (content: string, role: ChatMessage['role'] = 'user'): ChatMessage => ({ role, content });
  const a = [m('a'), m('a1', 'assistant')];
  const b = [m('b'), m('b1', 'assistant')];
  const kept = [m('b'), m('b1', 'assistant'), m('note')];

  it('replaceRound puts the kept round in place of the rules\' round and keeps the rounds after it', () => {
    const c = [m('c'), m('c1', 'assistant')];
    expect(replaceRound([...a, ...b, ...c], b, kept)).toEqual([...a, ...kept, ...c]);
    // The same text is not enough: the round must be the one the rules kept.
    expect(replaceRound([...a, ...b.map((x) => ({ ...x }))], b, kept)).toEqual([...a, ...b]);
  });

  it('withoutOwnRound drops the last round only when it is the turn\'s own', () => {
    expect(withoutOwnRound([...a, ...b], b)).toEqual(a);
    expect(withoutOwnRound([...a, ...b], a)).toEqual([...a, ...b]);
    expect(withoutOwnRound([...a, ...b], undefined)).toEqual([...a, ...b]);
  });
});
