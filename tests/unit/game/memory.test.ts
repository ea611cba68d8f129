import { describe, expect, it } from 'vitest';
import { emptyMemory, memoryMessages, remember, MEMORY_ROUNDS, type Memory } from '../../../src/core/agent/memory.ts';

const round = (i: number) => ({ user: `u${i}`, assistant: `a${i}` });

describe('memory (pure)', () => {
  it('keeps the most recent 16 rounds, oldest first', () => {
    let m: Memory = emptyMemory;
    for (let i = 1; i <= 17; i++) m = remember(m, round(i));
    expect(MEMORY_ROUNDS).toBe(16);
    expect(m).toHaveLength(16);
    expect(m[0]).toEqual(round(2));
    expect(m[15]).toEqual(round(17));
  });

  it('never changes the memory it was given', () => {
    const a = remember(emptyMemory, round(1));
    const b = remember(a, round(2));
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(2);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('turns rounds into alternating user/assistant messages', () => {
    const m = remember(remember(emptyMemory, round(1)), round(2));
    expect(memoryMessages(m)).toEqual([
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'u2' },
      { role: 'assistant', content: 'a2' },
    ]);
  });
});
