/**
 * The pure pieces a parent meets: what their words state (rounds, age, easier/harder, "好的", a card
 * said in one breath), names in the arcade, and the tag schemas of the shipped package — plain
 * summaries, problems in words a parent understands, ids for hand-written rows.
 */
import { describe, expect, it } from 'vitest';
import { freeName, nameTaken, takenNameMessage } from '../../../src/core/studio/names.ts';
import { cardFromWords, isAcceptWords, statedAge, statedDifficulty, statedRounds } from '../../../src/core/studio/parent-words.ts';
import { fillTemplate, summarize, toJsonSchema, valueProblems, withIds } from '../../../src/core/studio/tag-schema.ts';
import { quizPackage } from './helpers.ts';

const pkg = quizPackage();
const def = (tag: string) => pkg.tagDefs[tag];

describe('what a parent\'s words state', () => {
  it('numbers, rounds, age and difficulty, the last mention winning', () => {
    expect(['玩3轮', '玩三轮', '十二道题', '两局', '二十张卡片', '几轮'].map(statedRounds)).toEqual([3, 3, 12, 2, 20, undefined]);
    expect(statedRounds('猜谜语，玩 3 轮')).toBe(3);
    expect(statedRounds('出五道题')).toBe(5);
    expect(statedRounds('玩5轮；还是玩三轮吧')).toBe(3);
    expect(statedRounds('一张一张出题')).toBeUndefined();
    expect(statedRounds('给5岁的孩子做一个问答')).toBeUndefined();
    expect(statedAge('给5岁的孩子')).toBe(5);
    expect(statedAge('六岁半的女儿')).toBe(6);
    expect(statedDifficulty('太难了')).toBe('easy');
    expect(statedDifficulty('太简单了')).toBe('hard');
    expect(statedDifficulty('简单一点；不，难一点')).toBe('hard');
    expect(statedDifficulty('换一批')).toBeUndefined();
  });
  it('「好的」 takes a draft; a change does not', () => {
    for (const w of ['好的', '可以', '就这样！', '好吧', '没问题']) expect(isAcceptWords(w), w).toBe(true);
    for (const w of ['好的，玩3轮', '不行', '换一批', '好难']) expect(isAcceptWords(w), w).toBe(false);
  });
  it('a card said in one breath', () => {
    expect(cardFromWords('题目是汪汪汪是谁在叫，答案是小狗，提示是它会看家，也可以说狗狗')).toEqual({ prompt: '汪汪汪是谁在叫', answer: '小狗', aliases: ['狗狗'], hints: ['它会看家'] });
    expect(cardFromWords('喵喵喵是谁在叫？小猫')).toEqual({ prompt: '喵喵喵是谁在叫？', answer: '小猫', aliases: [], hints: [] });
    expect(cardFromWords('哞哞哞是谁在叫，答案是牛')).toMatchObject({ prompt: '哞哞哞是谁在叫', answer: '牛' });
    expect(cardFromWords('我想想')).toBeNull();
  });
});

describe('names in the arcade', () => {
  it('compared as bare words; the next free one suggested', () => {
    const taken = ['恐龙问答', '恐龙问答 2', '猜数字'];
    expect(nameTaken('恐龙问答2', taken)).toBe(true);
    expect(nameTaken('恐龙问答 3', taken)).toBe(false);
    expect(freeName('恐龙问答', taken)).toBe('恐龙问答 3');
    expect(freeName('水果问答', taken)).toBe('水果问答');
    expect(takenNameMessage('猜数字', taken)).toBe('游戏厅里已经有叫「猜数字」的游戏了，换一个名字吧，比如「猜数字 2」。');
  });
});

describe('the shipped tag schemas, for the parent', () => {
  it('summaries in plain words', () => {
    expect(summarize(def('设计.交互范式'), { 范式: '问答', 说明: '一张一张出题，答错给提示', 轮数: 3 }).text).toBe('玩法：问答——一张一张出题，答错给提示，一共 3 轮');
    expect(summarize(def('设计.主题'), { 主题: '恐龙', 标题: '恐龙问答', 别名: ['猜恐龙', '恐龙游戏'], 年龄: '5岁' }).text).toBe('名字叫「恐龙问答」，主题是恐龙，孩子也可以说「猜恐龙」「恐龙游戏」，适合5岁');
    expect(summarize(def('设计.主题'), { 主题: '谜语', 标题: '猜谜语', 别名: [], 年龄: '4-8岁' }).text).toBe('名字叫「猜谜语」，主题是谜语，适合4-8岁');
    const cards = summarize(def('设计.卡牌'), [{ prompt: '汪汪汪？', answer: '小狗' }, { prompt: '喵喵喵？', answer: '小猫' }]);
    expect(cards).toEqual({ text: '一共 2 张卡片', items: ['汪汪汪？ → 小狗', '喵喵喵？ → 小猫'] });
    expect(summarize(def('设计.动作'), { 动作: [{ 说法: '拍拍手' }, { 说法: '跳一跳' }, { 说法: '点点头' }], 陷阱: true })).toEqual({ text: '3 个动作，有一轮小陷阱：没说「我说」就不要做', items: ['拍拍手', '跳一跳', '点点头'] });
    expect(fillTemplate('{a?有}{a}{b?没有}', { a: '', b: false })).toBe('');
  });
  it('problems a parent can act on', () => {
    const deck = def('设计.卡牌').schema!;
    expect(valueProblems(deck, [{ prompt: 'a', answer: 'b' }], '卡片')).toEqual(['「卡片」至少要 3 张（现在 1 张）']);
    expect(valueProblems(deck, [{ prompt: 'a', answer: 'b' }, { prompt: 'c' }, { answer: 'd' }], '卡片')).toEqual(['「卡片」第 2 张缺少「答案」', '「卡片」第 3 张缺少「题目」']);
    expect(valueProblems(def('设计.交互范式').schema!, { 范式: '问答', 说明: 'x', 轮数: 30 }, '玩法')).toEqual(['「玩法」的「玩几轮」要在 1～20 之间']);
    expect(valueProblems(def('设计.交互范式').schema!, { 范式: '画画', 说明: 'x', 轮数: 3 }, '玩法')).toEqual(['「玩法」的「玩法」只能是：问答、猜谜语、故事接龙、我说你做']);
  });
  it('the tool schema keeps standard JSON schema only', () => {
    const j = JSON.stringify(toJsonSchema(def('设计.卡牌').schema!));
    for (const k of ['widget', 'hidden', 'unit', 'labels', 'stated', 'gameName']) expect(j).not.toContain(`"${k}"`);
    expect(j).toContain('"minItems":3');
  });
  it('hand-written rows get ids that do not clash with the ones they have', () => {
    expect(withIds(def('设计.卡牌').schema, [{ prompt: 'a', answer: 'b' }, { id: 'c1', prompt: 'c', answer: 'd' }, { prompt: 'e', answer: 'f' }])).toEqual([
      { id: 'c2', prompt: 'a', answer: 'b' },
      { id: 'c1', prompt: 'c', answer: 'd' },
      { id: 'c3', prompt: 'e', answer: 'f' },
    ]);
    expect(withIds(def('设计.角色').schema, { 名字: 'x' })).toEqual({ 名字: 'x' });
  });
});
