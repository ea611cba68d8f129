/** What the robot shows and does after a turn: pure, from the board's `运行.*` changes. */
import { describe, expect, it } from 'vitest';
import { emptyBoard, recordRuntimeFact, type Blackboard } from '../../../src/core/studio/blackboard.ts';
import { cardScreenText, deviceEffects, turnChanges } from '../../../src/core/studio/device-effects.ts';
import type { CardAsset } from '../../../src/core/studio/types.ts';

const card = (id: string, o: Partial<CardAsset> = {}): CardAsset => ({ projectId: 'p', cardId: id, kind: 'question', prompt: '我是谁？', answer: '剑龙', aliases: ['剑背龙'], hints: [], difficulty: 1, ...o });
const TAGS = ['运行.当前卡', '运行.判定', '运行.进度', '运行.得分'];
const put = (b: Blackboard, tag: string, v: unknown) => recordRuntimeFact(b, tag, v, 1);

describe('the card on the robot screen never names its answer', () => {
  it('a picture card shows its picture; a picture or question naming the answer is not shown', () => {
    expect(cardScreenText(card('a', { kind: 'picture', picture: '背上有骨板的恐龙' }), 2)).toBe('第2题：背上有骨板的恐龙');
    expect(cardScreenText(card('b', { kind: 'picture', picture: '一只剑背龙', prompt: '我背上有骨板' }), 1)).toBe('第1题：我背上有骨板');
    expect(cardScreenText(card('c', { prompt: '剑 龙是谁？' }), 3)).toBe('第3题：猜猜看！');
  });
});

describe('reactions and pictures from a turn', () => {
  const deck = [card('c1', { answer: '霸王龙', aliases: [] }), card('c2', { kind: 'picture', picture: '三只角的恐龙', answer: '三角龙', aliases: [] })];
  let b0 = emptyBoard(TAGS);
  b0 = put(b0, '运行.当前卡', { id: 'c1' });
  b0 = put(b0, '运行.进度', { 第几张: 1, 已用: ['c1'] });

  it('right → happy + nod, then the next card', () => {
    let b1 = put(b0, '运行.判定', { 结果: '对' });
    b1 = put(b1, '运行.当前卡', { id: 'c2' });
    b1 = put(b1, '运行.进度', { 第几张: 2, 已用: ['c1', 'c2'] });
    b1 = put(b1, '运行.得分', { 得分: 2, 答对: 1 });
    const ch = turnChanges(b0, b1, deck);
    expect(ch.judgedCard?.cardId).toBe('c1');
    expect(deviceEffects(ch, false)).toEqual([
      { op: 'react', expression: 'happy', gesture: 'nod' },
      { op: 'showText', card: { text: '第2题：三只角的恐龙' } },
    ]);
  });

  it('wrong → sorry + shake; "不知道" → no reaction; no verdict change → nothing', () => {
    expect(deviceEffects(turnChanges(b0, put(b0, '运行.判定', { 结果: '错' }), deck), false)).toEqual([{ op: 'react', expression: 'sorry', gesture: 'shake' }]);
    expect(deviceEffects(turnChanges(b0, put(b0, '运行.判定', { 结果: '不知道' }), deck), false)).toEqual([]);
    expect(deviceEffects(turnChanges(b0, b0, deck), false)).toEqual([]);
  });

  it('the game over → the final score on the screen instead of a next card', () => {
    let b1 = put(b0, '运行.判定', { 结果: '错', 答案: '霸王龙' });
    b1 = put(b1, '运行.得分', { 得分: 3, 答对: 2 });
    b1 = put(b1, '运行.进度', { 第几张: 3, 已用: ['c1', 'c2', 'c3'] });
    const ch = turnChanges(b0, b1, deck);
    expect(ch.verdict).toEqual({ result: '错', revealed: '霸王龙' });
    expect(deviceEffects(ch, true)).toEqual([
      { op: 'react', expression: 'sorry', gesture: 'shake' },
      { op: 'showProgress', progress: { current: 2, total: 3, label: '答对 2 张 · 3 分' } },
    ]);
  });
});
