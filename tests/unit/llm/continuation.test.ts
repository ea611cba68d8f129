/**
 * WebLLM continues in place only when a request adds one message to the conversation it holds. A
 * turn whose input is followed by the steps the rules performed (pre-executed steps and results)
 * adds several: the WebLLM engine sends them folded into one user message that renders to exactly
 * the same prompt, so the model reads the pre-executed step as it would read its own, and each
 * request continues the last one in place.
 */
import { describe, expect, it } from 'vitest';
import { CHATML, continuation, foldMessages } from '../../../src/core/llm/continuation.ts';
import { stepMessage, toolResultMessage } from '../../../src/core/agent/messages.ts';
import { ContinuingEngine } from '../../../src/llm/webllm-engine.ts';
import type { EngineChunk } from '../../../src/llm/engine-service.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';
import { FakeWebLlm, renderChatML } from '../../support/llm/fake-webllm.ts';

const sys: ChatMessage = { role: 'system', content: '你是桌面小机器人里的游戏主持人。' };
const input = (text: string): ChatMessage => ({ role: 'user', content: JSON.stringify({ event: 'message', user_text: text }) });
const r1 = '{"reply":{"text":"说“我猜”再加上一个数字就行。"}}';
const r2 = '{"get_hint":{}}';
const r3 = '{"reply":{"text":"再猜一个吧！"}}';
// Turn 1 (start): the rules started the game and said the opening line before the model.
const asked1: ChatMessage[] = [
  sys,
  { role: 'user', content: JSON.stringify({ event: 'start', user_text: '我们来玩猜数字吧' }) },
  stepMessage({ action: 'start_game', args: {} }),
  toolResultMessage('start_game', { started: true }),
  stepMessage({ action: 'say', args: { text: '我想好了一个数字，猜猜看吧！' } }),
  toolResultMessage('say', { said: true }),
];
// Turn 2: the model's reply, the child's guess, judged and told by the rules.
const asked2: ChatMessage[] = [
  ...asked1,
  { role: 'assistant', content: r1 },
  input('我猜五十'),
  stepMessage({ action: 'submit_guess', args: { number: 50 } }),
  toolResultMessage('submit_guess', { result: 'too_big' }),
  stepMessage({ action: 'say', args: { text: '50 大了！' } }),
  toolResultMessage('say', { said: true }),
];
// The model's own tool call in the same turn, then its result.
const asked3: ChatMessage[] = [...asked2, { role: 'assistant', content: r2 }, toolResultMessage('get_hint', { hint: '单数' })];

async function run(engine: { chatCompletion(req: Record<string, unknown>): Promise<AsyncIterable<EngineChunk>> }, messages: ChatMessage[]) {
  let text = '';
  for await (const c of await engine.chatCompletion({ messages, stream: true })) text += c.choices[0]?.delta?.content ?? '';
  return text;
}

describe('a pre-executed step folded into the input message', () => {
  it('renders exactly as the separate messages would (the model reads it as its own step)', () => {
    const tail = asked2.slice(asked1.length + 1);
    const folded = foldMessages(tail, CHATML);
    expect(folded.role).toBe('user');
    expect(renderChatML([folded])).toBe(renderChatML(tail));
  });

  it('WebLLM continues every request of a game in place, and reads only the new part', async () => {
    const plain = new FakeWebLlm([r1, r2, r3]);
    for (const m of [asked1, asked2, asked3]) await run(plain as never, m);
    // Sent as asked, the turn with the rules' steps is read from the start.
    expect(plain.log.map((l) => l.inPlace)).toEqual([false, false, true]);

    const fake = new FakeWebLlm([r1, r2, r3]);
    const engine = new ContinuingEngine(fake as never);
    await engine.reload('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    for (const m of [asked1, asked2, asked3]) await run(engine, m);
    expect(fake.log.map((l) => l.inPlace)).toEqual([false, true, true]);
    // Each request the engine received is the previous one, its reply, then the new part.
    const sent = fake.log.map((l) => l.messages);
    expect(sent[1].slice(0, sent[0].length)).toEqual(sent[0]);
    expect(sent[1][sent[0].length]).toEqual({ role: 'assistant', content: r1 });
    expect(sent[2].slice(0, sent[1].length)).toEqual(sent[1]);
    // The prompt the model reads is the one asked for, message for message.
    expect(fake.log.map((l) => renderChatML(l.messages))).toEqual([asked1, asked2, asked3].map(renderChatML));
    // Only the turn's new part is read: the guess and the rules' steps, not the game so far.
    expect(fake.log[1].prefill).toBe(renderChatML(asked2.slice(asked1.length + 1)).length);
    expect(fake.log[1].prefill).toBeLessThan(plain.log[1].prefill / 2);
  });

  it('a request that does not continue the held conversation is sent as asked', () => {
    const held = { asked: asked1, sent: asked1, reply: r1 };
    // The memory was changed (another reply than the one generated): the engine starts over.
    const other = [...asked1, { role: 'assistant' as const, content: '{"reply":{"text":"别的"}}' }, input('我猜五十')];
    expect(continuation(held, other, CHATML)).toEqual({ send: other, inPlace: false });
    expect(continuation(null, asked2, CHATML)).toEqual({ send: asked2, inPlace: false });
  });

  it('an interrupted reply is not held (WebLLM starts over after it)', async () => {
    const fake = new FakeWebLlm([r1, r2]);
    const engine = new ContinuingEngine(fake as never);
    await engine.reload('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    await run(engine, asked1);
    engine.interruptGenerate();
    await run(engine, asked2);
    expect(fake.log[1].messages).toEqual(asked2);
  });
});
