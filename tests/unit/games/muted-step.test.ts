/**
 * A model step cut by the colour window finishes muted: the turn ends at once with the rules' next
 * prompt, the late reply is never said, the step runs on in the background (not aborted), and the
 * round is then remembered as generated plus a note of what the child heard instead — the next
 * request is the previous request + its reply + new messages (in place under WebLLM's rule). A
 * muted step that would change the game is not performed; the next turn, an end or the session's
 * close cancels a muted step still running; no one waits for it, so the turn's deadline does not stop
 * it (with the developer switch that keeps the watch, it does).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { stepMessage } from '../../../src/core/agent/messages.ts';
import { heardInsteadNote } from '../../../src/core/games/muted-round.ts';
import { CHATML, continuation } from '../../../src/core/llm/continuation.ts';
import type { Step } from '../../../src/core/llm/types.ts';
import { HeldModel } from '../../support/llm/held-model.ts';
import { ctx, FakeDevice, secretRandom } from './helpers.ts';

const REPLY = (text: string): Step => ({ action: 'reply', args: { text } });
const RULES_LINE = ['50 小了！', '再大一点哦，还有 6 次机会。'];
const NEXT_PROMPT = '再猜一个吧！';

function setUp(model: HeldModel, finishMuted?: boolean) {
  const device = new FakeDevice();
  const agent = new GuessNumberAgent({ model, device, random: () => secretRandom(63), ...(finishMuted === undefined ? {} : { finishMuted }) });
  agent.game.start();
  return { agent, device };
}

/** One turn with an 18 s deadline and the colour window given with the turn (as the budget sends it). */
function play(agent: GuessNumberAgent, text: string, kind: 'message' | 'end' = 'message') {
  const c = ctx();
  const reply = agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 18_000, colourMs: 2000 });
  return { c, reply };
}

/** Plays 「我猜50」 until the colour window has ended the turn (the model's step still open). */
async function cutTurn(model: HeldModel, finishMuted?: boolean) {
  const { agent, device } = setUp(model, finishMuted);
  const first = play(agent, '我猜50');
  await vi.advanceTimersByTimeAsync(1);
  expect(first.c.intermediate).toEqual(RULES_LINE);
  await vi.advanceTimersByTimeAsync(2000);
  expect(await first.reply).toEqual({ text: NEXT_PROMPT, ended: false });
  if (finishMuted !== false) expect(model.ended).toEqual(['open']);
  return { agent, device, first };
}

describe('a step cut by the colour window finishes muted', () => {
  afterEach(() => vi.useRealTimers());

  it('the late reply is never said; memory holds it and the note; the next request continues the previous one in place', async () => {
    vi.useFakeTimers();
    const model = new HeldModel((_req, n) => (n > 1 ? REPLY('离答案越来越近啦！') : undefined));
    const { agent, first } = await cutTurn(model);
    // Nothing is prewarmed while the muted step still holds the engine.
    expect(model.warmed).toHaveLength(0);
    const late = { ...REPLY('你离答案越来越近啦！'), raw: '{"reply": {"text": "你离答案越来越近啦！"}}' };
    model.answer(0, late);
    await vi.advanceTimersByTimeAsync(10);
    expect(model.ended[0]).toBe('answered');
    expect(first.c.intermediate).toEqual(RULES_LINE);
    // Remembered as generated, then what the child heard instead.
    expect(agent.conversation.slice(-2)).toEqual([stepMessage(late), heardInsteadNote(NEXT_PROMPT)]);
    expect(agent.conversation.some((m) => m.content.includes(NEXT_PROMPT) && m.role === 'assistant')).toBe(false);
    // The finished step is followed by a prewarm of the next request's start.
    expect(model.warmed.at(-1)).toEqual([{ role: 'system', content: agent.systemPrompt() }, ...agent.conversation]);

    const second = play(agent, '我猜七十');
    await vi.advanceTimersByTimeAsync(10);
    await second.reply;
    const [asked, next] = [model.requests[0].messages, model.requests[1].messages];
    expect(next.slice(0, asked.length + 2)).toEqual([...asked, stepMessage(late), heardInsteadNote(NEXT_PROMPT)]);
    // WebLLM's rule: previous request + its reply + new messages → continued in place.
    expect(continuation({ asked, sent: asked, reply: stepMessage(late).content }, next, CHATML).inPlace).toBe(true);
  });

  it('a late reply that says what the child heard is kept without the note: the next request is the previous one + that reply + the new input', async () => {
    vi.useFakeTimers();
    const model = new HeldModel((_req, n) => (n > 1 ? REPLY('好的。') : undefined));
    const { agent } = await cutTurn(model);
    // The same claim as the rules' next prompt, punctuation and particles aside.
    const late = { ...REPLY('再猜一个。'), raw: '{"reply":{"text":"再猜一个。"}}' };
    model.answer(0, late);
    await vi.advanceTimersByTimeAsync(10);
    expect(agent.conversation.at(-1)).toEqual(stepMessage(late));
    const second = play(agent, '我猜七十');
    await vi.advanceTimersByTimeAsync(10);
    await second.reply;
    const [asked, next] = [model.requests[0].messages, model.requests[1].messages];
    expect(next.slice(0, asked.length + 2)).toEqual([...asked, stepMessage(late), next[asked.length + 1]]);
    expect(JSON.parse(next[asked.length + 1].content).user_text).toBe('我猜七十');
    expect(continuation({ asked, sent: asked, reply: stepMessage(late).content }, next, CHATML).inPlace).toBe(true);
  });

  it('a muted step that would change the game is not performed; the round stays as the rules took it', async () => {
    vi.useFakeTimers();
    const model = new HeldModel();
    const { agent, device, first } = await cutTurn(model);
    const kept = [...agent.conversation];
    model.answer(0, { action: 'submit_guess', args: { number: 70 } });
    await vi.advanceTimersByTimeAsync(10);
    expect(agent.game.guesses).toHaveLength(1);
    expect(device.reacts()).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect(first.c.intermediate).toEqual(RULES_LINE);
    expect(agent.conversation).toEqual(kept);
    expect(kept.at(-1)).toEqual(stepMessage(REPLY(NEXT_PROMPT)));
  });

  it('the next turn cancels a muted step still running before its own request', async () => {
    vi.useFakeTimers();
    const model = new HeldModel((_req, n) => (n > 1 ? REPLY('好呀。') : undefined));
    const { agent } = await cutTurn(model);
    const kept = [...agent.conversation];
    const second = play(agent, '我猜七十');
    await vi.advanceTimersByTimeAsync(10);
    await second.reply;
    expect(model.ended).toEqual(['aborted', 'answered']);
    // The next request continues the round as the rules took it.
    expect(model.requests[1].messages.slice(1, 1 + kept.length)).toEqual(kept);
    // A late answer to the cancelled step changes nothing.
    model.answer(0, REPLY('来晚了。'));
    await vi.advanceTimersByTimeAsync(10);
    expect(agent.conversation.some((m) => m.content.includes('来晚了'))).toBe(false);
  });

  it('an end and the session closing cancel it too; past the turn\'s deadline it goes on in the background', async () => {
    vi.useFakeTimers();
    const ending = new HeldModel((_req, n) => (n > 1 ? REPLY('下次再玩！') : undefined));
    const a = await cutTurn(ending);
    const end = play(a.agent, '不玩了', 'end');
    await vi.advanceTimersByTimeAsync(10);
    await end.reply;
    expect(ending.ended[0]).toBe('aborted');

    const closing = new HeldModel();
    const b = await cutTurn(closing);
    await b.agent.close();
    expect(closing.ended).toEqual(['aborted']);

    // No one waits for it: the deadline (18 s) does not stop it, and when it finishes it is kept.
    const slow = new HeldModel();
    const c = await cutTurn(slow);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(slow.ended).toEqual(['open']);
    slow.answer(0, REPLY('慢慢想。'));
    await vi.advanceTimersByTimeAsync(10);
    expect(c.agent.conversation.slice(-2)).toEqual([stepMessage(REPLY('慢慢想。')), heardInsteadNote(NEXT_PROMPT)]);
  });

  it('the step runs in the background from the colour window on (deadline only, not asked again); before it, someone waits', async () => {
    vi.useFakeTimers();
    const model = new HeldModel();
    const { agent } = setUp(model);
    const first = play(agent, '我猜50');
    await vi.advanceTimersByTimeAsync(1);
    expect(model.requests[0].background?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    await first.reply;
    expect(model.requests[0].background?.aborted).toBe(true);
    expect(model.requests[0].deadline).toBeDefined();
    // A step the muted loop asks next starts in the background.
    model.answer(0, { action: 'say', args: { text: '我们接着玩。' } });
    await vi.advanceTimersByTimeAsync(1);
    expect(model.requests[1].background?.aborted).toBe(true);
    expect(first.c.intermediate).toEqual(RULES_LINE);
  });

  it('with mutedInBackground: false (the developer switch) the muted step keeps the watch of a step someone waits for', async () => {
    vi.useFakeTimers();
    const model = new HeldModel();
    const device = new FakeDevice();
    const agent = new GuessNumberAgent({ model, device, random: () => secretRandom(63), mutedInBackground: false });
    agent.game.start();
    const first = play(agent, '我猜50');
    await vi.advanceTimersByTimeAsync(2001);
    expect(await first.reply).toEqual({ text: NEXT_PROMPT, ended: false });
    expect(model.ended).toEqual(['open']);
    expect(model.requests[0].background?.aborted).toBe(false);
    // …and the turn's deadline still bounds it: the round stays as the rules took it.
    const kept = [...agent.conversation];
    await vi.advanceTimersByTimeAsync(16_000);
    expect(model.ended).toEqual(['aborted']);
    expect(agent.conversation).toEqual(kept);
  });

  it("the developer switch (finishMuted: false) aborts the cut step at once, as before: the round stays as the rules took it", async () => {
    vi.useFakeTimers();
    const model = new HeldModel();
    const { agent } = await cutTurn(model, false);
    expect(model.ended).toEqual(['aborted']);
    expect(agent.conversation.at(-1)).toEqual(stepMessage(REPLY(NEXT_PROMPT)));
  });
});
