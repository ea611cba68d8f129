/** A parent's hand-written cards checked when written (src/core/safety/card-check.ts), with the whole check. */
import { describe, expect, it } from 'vitest';
import { flaggedInDrafts, flaggedTexts, playableDeck } from '../../../src/core/safety/card-check.ts';
import { fullCheck } from '../../../scripts/safety/check.ts';

describe('flaggedTexts', () => {
  const check = fullCheck();
  const cards = [
    { prompt: '什么动物的鼻子长长的？', answer: '大象', hints: ['它很大', '它住在非洲'] },
    { prompt: '你的幼儿园叫什么', answer: '阳光幼儿园' },
    { prompt: '什么动物会下蛋？', answer: '鸡', hints: ['火柴在抽屉里，你去拿吧'] },
  ];

  it('flags each harmful question, answer or hint once, with its category in plain words and who found it', () => {
    expect(flaggedTexts(cards, check)).toEqual([
      { text: '你的幼儿园叫什么', category: 'personal_info', label: '打听个人信息或要孩子保密', by: 'rules' },
      { text: '火柴在抽屉里，你去拿吧', category: 'danger', label: '危险行为和危险物品', by: 'rules' },
    ]);
  });

  it('leaves out what the parent approved', () => {
    expect(flaggedTexts(cards, check, ['你的幼儿园叫什么']).map((f) => f.text)).toEqual(['火柴在抽屉里，你去拿吧']);
  });

  it('flags nothing in ordinary cards', () => {
    expect(flaggedTexts([{ prompt: '摸摸你的鼻子，它在脸的中间，是什么？', answer: '鼻子' }, { prompt: '红红的圆圆的水果', answer: '苹果', hints: ['长在树上'] }], check)).toEqual([]);
  });
});

describe('playableDeck', () => {
  const check = fullCheck();
  const blocked = (t: string) => check(t, 'robot').verdict === 'blocked';
  const deck = [
    { id: 'c1', prompt: '什么动物的鼻子长长的？', answer: '大象' },
    { id: 'c2', prompt: '你家住在哪里？把地址告诉我。', answer: '三角龙' },
    { id: 'c3', prompt: '什么动物会下蛋？', answer: '鸡', hints: ['火柴在抽屉里，你去拿吧'] },
    { id: 'c4', prompt: '红红的圆圆的水果', answer: '苹果' },
  ];

  it('leaves out every card with a text the check blocks (question or hint), in order, each with that text', () => {
    const { kept, left } = playableDeck(deck, blocked);
    expect(kept.map((c) => c.id)).toEqual(['c1', 'c4']);
    expect(left.map((l) => [l.card.id, l.text])).toEqual([
      ['c2', '你家住在哪里？把地址告诉我。'],
      ['c3', '火柴在抽屉里，你去拿吧'],
    ]);
  });

  it('keeps a card whose flagged text the parent approved', () => {
    expect(playableDeck(deck, blocked, ['火柴在抽屉里，你去拿吧']).kept.map((c) => c.id)).toEqual(['c1', 'c3', 'c4']);
  });
});

describe('flaggedInDrafts: the cards the Studio\'s model wrote, at review', () => {
  const check = fullCheck();
  // The values of the tags a draft shows: the deck (a list of cards) and plain facts beside it.
  const drafts = [
    { 主题: '动物', 标题: '动物问答' },
    [
      { prompt: '什么动物的脖子最长？', answer: '长颈鹿', hints: ['它住在草原上'] },
      { prompt: '你家住在哪个小区，门牌号是多少？', answer: '幸福小区' },
    ],
    '玩 3 轮',
  ];

  it('flags a model-written card with its category, as for a hand-made card', () => {
    expect(flaggedInDrafts(drafts, check)).toEqual([{ text: '你家住在哪个小区，门牌号是多少？', category: 'personal_info', label: '打听个人信息或要孩子保密', by: 'rules' }]);
  });

  it('an approved text is not flagged again; a draft without cards flags nothing', () => {
    expect(flaggedInDrafts(drafts, check, ['你家住在哪个小区，门牌号是多少？'])).toEqual([]);
    expect(flaggedInDrafts([{ 主题: '火柴' }, '火柴在抽屉里，你去拿吧'], check)).toEqual([]);
  });
});
