import { describe, expect, it } from 'vitest';
import { charTokenizer, measureSequence, renderChatML } from '../../../bench/llm/measure.ts';
import type { StepRequest } from '../../../src/core/llm/types.ts';

const step = (...contents: string[]): StepRequest => ({
  agent: 'game:t',
  tools: [],
  messages: contents.map((c, i) => ({ role: i === 0 ? 'system' : 'user', content: c })),
});

describe('bench measure', () => {
  it('renders the Qwen ChatML prompt with the generation prompt', () => {
    expect(renderChatML([{ role: 'user', content: '你好' }])).toBe('<|im_start|>user\n你好<|im_end|>\n<|im_start|>assistant\n');
  });

  it('counts the unchanged prefix of the previous prompt, and a changed system prompt breaks it', () => {
    const r = measureSequence({ agent: 'game:t', title: 't', steps: [step('AB', 'x'), step('AB', 'x', 'y'), step('AC', 'x', 'y')] }, charTokenizer);
    const [a, b, c] = r.rows;
    expect(a.reusedTokens).toBe(0);
    // step 2 extends step 1 up to step 1's generation prompt, of which only "<|im_start|>" is shared
    const p1 = renderChatML(step('AB', 'x').messages);
    const shared = p1.length - 'assistant\n'.length;
    expect(b.reusedTokens).toBe(shared);
    expect(b.promptTokens).toBe(renderChatML(step('AB', 'x', 'y').messages).length);
    // step 3 changes the system prompt after "<|im_start|>system\nA"
    expect(c.reusedTokens).toBe('<|im_start|>system\nA'.length);
    expect(r.totalNew).toBe(a.promptTokens + b.newTokens + c.newTokens);
  });
});
