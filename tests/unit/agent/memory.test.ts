import { describe, expect, it } from 'vitest';
import { lastRounds, MEMORY_ROUNDS, remember } from '../../../src/core/agent/memory.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

const isInput = (m: ChatMessage) => m.role === 'user' && m.content.startsWith('in ');
/** A round as a game keeps it: the input, a tool call and its result, the reply. */
const round = (i: number): ChatMessage[] => [
  { role: 'user', content: `in ${i}` },
  { role: 'assistant', content: `call ${i}` },
  { role: 'user', content: `result ${i}` },
  { role: 'assistant', content: `reply ${i}` },
];
const system: ChatMessage = { role: 'system', content: 'rules' };

describe('the memory window (pure, one for every game engine)', () => {
  it('keeps the most recent 16 rounds whole, oldest first', () => {
    let m: ChatMessage[] = [];
    for (let i = 1; i <= 17; i++) m = remember(m, round(i), isInput);
    expect(MEMORY_ROUNDS).toBe(16);
    expect(m.filter(isInput)).toHaveLength(16);
    expect(m.slice(0, 4)).toEqual(round(2));
    expect(m.slice(-4)).toEqual(round(17));
  });

  it('keeps what comes before the first round (the system prompt)', () => {
    const conversation = [system, ...Array.from({ length: 20 }, (_, i) => round(i + 1)).flat()];
    const kept = lastRounds(conversation, isInput, 3);
    expect(kept[0]).toEqual(system);
    expect(kept.slice(1)).toEqual([...round(18), ...round(19), ...round(20)]);
  });

  it('never changes the conversation it was given', () => {
    const a = remember([], round(1), isInput);
    const b = remember(a, round(2), isInput);
    expect(a).toHaveLength(4);
    expect(b).toHaveLength(8);
    expect(lastRounds(b, isInput, 16)).not.toBe(b);
  });
});
