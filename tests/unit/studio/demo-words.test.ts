/**
 * The demo Studio reads a parent's words as a model should: a confirmation (「好的，就这样」) takes
 * what was offered and is never a theme; 「一人一句接下去」 describes how a story is played, not its
 * title; a first sentence the parent gives (「开头是：…」, or the answer to 「怎么开头？」) is the
 * story's opening.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, StepRequest } from '../../../src/core/llm/types.ts';
import { helperAgent } from '../../../src/core/studio/manager-tools.ts';
import { isAcceptWords, statedOpening } from '../../../src/core/studio/parent-words.ts';
import { studioDemoPolicies, themeFromWords } from '../../../src/studio/studio-demo-policies.ts';

/** A design helper's request: what the parent asked, the sections on the blackboard, and the parent's answers to it. */
function request(parent: string[], sections: Record<string, unknown>, answersGiven: string[] = []): StepRequest {
  const lower = [`## 设计.家长要求\n${JSON.stringify(parent)}`, ...Object.entries(sections).map(([k, v]) => `## ${k}\n${JSON.stringify(v)}`)].join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: 'worker' },
    { role: 'user', content: lower },
    ...answersGiven.flatMap((a): ChatMessage[] => [
      { role: 'assistant', content: '{"ask_user":{"question":"?"}}' },
      { role: 'user', content: `<tool_response>${JSON.stringify({ name: 'ask_user', result: { answer: a } })}</tool_response>` },
    ]),
  ];
  return { agent: 'x', messages, tools: [{ name: 'submit', description: '', parameters: {} }, { name: 'ask_user', description: '', parameters: {} }] } as unknown as StepRequest;
}

const run = (helper: string, req: StepRequest) => studioDemoPolicies[helperAgent(helper)](req) as { action: string; args: { values?: Record<string, any>; question?: string } };

describe('the demo Studio understands confirmations and story openings', () => {
  it('「好的，就这样」 is a confirmation, a run of them too; 「好的，玩3轮」 is not', () => {
    for (const w of ['好的，就这样', '嗯，好的', '可以，没问题', '好的']) expect(isAcceptWords(w), w).toBe(true);
    for (const w of ['好的，玩3轮', '好难', '换一批']) expect(isAcceptWords(w), w).toBe(false);
  });

  it('a confirmation to 「想做什么主题？」 takes the first suggestion, never 「就这样」 as the theme', () => {
    const r = run('theme', request(['做一个问答游戏'], { '设计.交互范式': { 范式: '问答' } }, ['好的，就这样']));
    expect(r.action).toBe('submit');
    expect(r.args.values!['设计.主题'].主题).toBe('恐龙');
    expect(JSON.stringify(r.args.values)).not.toContain('就这样');
  });

  it('「一人一句接下去」 says how the story is played: no title is made of it', () => {
    expect(themeFromWords('和孩子一起编故事，一人一句接下去')).toBe('');
    const r = run('theme', request(['和孩子一起编故事，一人一句接下去'], { '设计.交互范式': { 范式: '故事接龙' } }));
    expect(r.args.values!['设计.主题'].标题).not.toMatch(/一人一句|接下去/);
  });

  it("the parent's first sentence is the story's opening, and not its theme", () => {
    expect(statedOpening('讲一个恐龙的故事，开头是：从前有一只小恐龙')).toBe('从前有一只小恐龙');
    expect(themeFromWords('讲一个恐龙的故事，开头是：从前有一只小恐龙')).toBe('恐龙');
    const said = run('story-setup', request(['讲一个恐龙的故事，开头是：从前有一只小恐龙'], { '设计.主题': { 主题: '恐龙' } }));
    expect(said.args.values!['设计.故事'].开头).toBe('从前有一只小恐龙。');
    // The answer to 「想让故事怎么开头？」 is the first sentence.
    const answered = run('story-setup', request(['讲故事'], { '设计.主题': { 主题: '森林里的小动物' } }, ['小兔子一早醒来，发现门口有一个大箱子']));
    expect(answered.args.values!['设计.故事'].开头).toBe('小兔子一早醒来，发现门口有一个大箱子。');
  });
});
