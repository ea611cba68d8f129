/** bench/latency's simulated engine applies WebLLM's cache rule and times sentences as the app releases them. */
import { describe, expect, it } from 'vitest';
import { beforeLayout } from '../../../bench/latency/layouts.ts';
import { firstSentenceEnd, SimulatedEngine, timeTurn, type Tokenizer } from '../../../bench/latency/simulate.ts';
import type { ChatMessage, StepRequest } from '../../../src/core/llm/types.ts';

const chars: Tokenizer = { name: 'chars', encode: (t) => [...t].map((c) => c.codePointAt(0)!) };
const tools = [{ name: 'reply', description: '回答', parameters: { type: 'object', properties: { text: { type: 'string' } } } }];
const req = (messages: ChatMessage[]): StepRequest => ({ agent: 'game:x', messages, tools });
const sys: ChatMessage = { role: 'system', content: 'rules' };
const input = (text: string, state: unknown): ChatMessage => ({ role: 'user', content: JSON.stringify({ event: 'message', user_text: text, state }) });

describe('the simulated engine', () => {
  it('prefills only the new message when the request continues the last one exactly, else everything', () => {
    const e = new SimulatedEngine(chars);
    const out = '{"reply":{"text":"好。"}}';
    const first = e.step(req([sys, input('一', { n: 1 })]), out);
    expect(first.inPlace).toBe(false);
    const again = e.step(req([sys, input('一', { n: 1 }), { role: 'assistant', content: out }, input('二', { n: 2 })]), out);
    expect(again.inPlace).toBe(true);
    expect(again.prefillTokens).toBeLessThan(again.promptTokens);
    // The old layout (state in the system prompt) changes the history every round: never in place.
    const old = new SimulatedEngine(chars);
    old.step(beforeLayout(req([sys, input('一', { n: 1 })])), out);
    expect(old.step(beforeLayout(req([sys, input('一', { n: 1 }), { role: 'assistant', content: out }, input('二', { n: 2 })])), out).inPlace).toBe(false);
  });

  it('a reply sentence can leave once the next one has begun; without streaming only when the step ends', () => {
    const out = '{"reply":{"text":"大了！再小一点。"}}';
    const streamed = firstSentenceEnd(out, true)!;
    expect(out.slice(0, streamed)).toBe('{"reply":{"text":"大了！再');
    expect(firstSentenceEnd(out, false)).toBe(out.length);
    expect(firstSentenceEnd('{"submit_guess":{"number":5}}', true)).toBeNull();
  });

  it('times a turn: with streaming and the cue the child hears sooner, the whole reply takes as long', () => {
    const profile = { id: 'p', label: 'p', prefillTps: 100, decodeTps: 10, source: 'test' };
    const turn = { steps: [{ req: req([sys, input('一', {})]), output: '{"reply":{"text":"大了！再小一点哦，还有五次。"}}' }] };
    const after = timeTurn(new SimulatedEngine(chars), turn, profile, { streaming: true, cue: true }, chars);
    const before = timeTurn(new SimulatedEngine(chars), turn, profile, { streaming: false, cue: false }, chars);
    expect(after.firstSentenceS).toBeLessThan(before.firstSentenceS);
    expect(after.fullReplyS).toBeCloseTo(before.fullReplyS);
    expect(after.cueS).toBeLessThan(0.1);
    expect(before.cueS).toBe(before.firstSentenceS);
  });
});
