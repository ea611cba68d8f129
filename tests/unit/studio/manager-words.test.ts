import { describe, expect, it } from 'vitest';
import { withUserWords } from '../../../src/core/studio/manager-words.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

const system: ChatMessage = { role: 'system', content: '你是游戏工作室的经理。' };

describe("the parent's words in the manager's conversation", () => {
  it('after an answer the words are a new user message at the end', () => {
    const manager: ChatMessage[] = [system, { role: 'user', content: '做一个猜动物的游戏' }, { role: 'assistant', content: '好的' }];
    expect(withUserWords(manager, '再加一个关卡')).toEqual([...manager, { role: 'user', content: '再加一个关卡' }]);
  });

  it('after a user message nobody answered the words join it on a new line (turns keep alternating)', () => {
    const manager: ChatMessage[] = [system, { role: 'assistant', content: '好的' }, { role: 'user', content: '[工具结果] 草稿已写好' }];
    const out = withUserWords(manager, '动物要可爱一点');
    expect(out).toEqual([system, { role: 'assistant', content: '好的' }, { role: 'user', content: '[工具结果] 草稿已写好\n动物要可爱一点' }]);
    expect(out.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
  });

  it('the first words after the system prompt are a message of their own, and the conversation passed in is not changed', () => {
    const manager: readonly ChatMessage[] = [system];
    expect(withUserWords(manager, '你好')).toEqual([system, { role: 'user', content: '你好' }]);
    const unanswered: ChatMessage[] = [system, { role: 'user', content: '做一个游戏' }];
    withUserWords(unanswered, '要简单');
    expect(unanswered).toEqual([system, { role: 'user', content: '做一个游戏' }]);
  });

  it('the first message of the conversation is never joined into, whatever its role', () => {
    const first: ChatMessage = { role: 'user', content: '你是游戏工作室的经理。' };
    expect(withUserWords([first], '你好')).toEqual([first, { role: 'user', content: '你好' }]);
  });
});
