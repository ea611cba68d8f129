import { describe, expect, it } from 'vitest';
import { HISTORY_KEPT, RoundHistory } from '../../../src/core/arcade/history.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

describe('round history', () => {
  it('keeps only the newest HISTORY_KEPT entries, oldest first', () => {
    const h = new RoundHistory();
    const total = HISTORY_KEPT + 5;
    for (let i = 0; i < total; i++) h.remember({ role: i % 2 ? 'main' : 'user', text: `第${i}句`, at: i });
    expect(h.entries).toHaveLength(HISTORY_KEPT);
    expect(h.entries[0].text).toBe('第5句');
    expect(h.entries.at(-1)?.text).toBe(`第${total - 1}句`);
    expect(h.entries.map((e) => e.at)).toEqual(Array.from({ length: HISTORY_KEPT }, (_, k) => k + 5));
  });

  it('keeps the round as it was sent (its state line too) on the child entry; the main lines after it are marked inside, the game replies are not', () => {
    const h = new RoundHistory();
    h.remember({ role: 'user', text: '你好', at: 0 });
    h.remember({ role: 'main', text: '你好呀', at: 1 });
    h.remember({ role: 'user', text: '我们玩猜数字吧', at: 2 });
    const asked = h.entries[2];
    h.remember({ role: 'main', text: '好的，开始啦', at: 3 });
    h.remember({ role: 'game_agent', text: '我想好了一个数', gameId: 'guess', at: 4 });
    h.remember({ role: 'main', text: '猜猜看吧', at: 5 });
    const sent: ChatMessage[] = [
      { role: 'user', content: '[状态：没有游戏]\n我们玩猜数字吧' },
      { role: 'assistant', content: '{"action":"start_game","args":{"id":"guess"}}' },
    ];
    h.keepSent(asked, sent);
    expect(h.entries[2]).toEqual({ role: 'user', text: '我们玩猜数字吧', at: 2, sent });
    expect(h.entries[2].sent?.[0].content).toContain('[状态：没有游戏]');
    expect(h.entries.map((e) => e.inSent ?? false)).toEqual([false, false, false, true, false, true]);
    // The entry passed in is left as it was (the history holds a new one).
    expect(asked.sent).toBeUndefined();
  });

  it('a round whose child entry already left the history changes nothing', () => {
    const h = new RoundHistory();
    const gone = { role: 'user' as const, text: '最早的一句', at: -1 };
    h.remember({ role: 'user', text: '你好', at: 0 });
    h.remember({ role: 'main', text: '你好呀', at: 1 });
    const before = structuredClone(h.entries);
    h.keepSent(gone, [{ role: 'user', content: '最早的一句' }]);
    expect(h.entries).toEqual(before);
  });
});
