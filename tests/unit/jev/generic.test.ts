import { describe, expect, it } from 'vitest';
import { judge, type JevTarget } from '../../../src/core/jev/index.ts';

// JEV knows nothing about animals: a Studio quiz brings its own cards.
const FRUIT: JevTarget[] = [
  { name: '苹果', aliases: ['apple', '红苹果'] },
  { name: '香蕉', aliases: ['banana'] },
  { name: '桃子', aliases: ['水蜜桃', 'peach'] },
  { name: '火龙果', aliases: ['dragon fruit'] },
  { name: '西瓜', aliases: ['watermelon'] },
  { name: '葡萄', aliases: ['grape'] },
];
const VEHICLES: JevTarget[] = [
  { name: '火车', aliases: ['train', '小火车'] },
  { name: '汽车', aliases: ['小汽车', 'car'] },
  { name: '飞机', aliases: ['plane', 'airplane'] },
  { name: '自行车', aliases: ['单车', 'bike', 'bicycle'] },
];
const DINOSAURS: JevTarget[] = [
  { name: '霸王龙', aliases: ['暴龙', 't-rex'] },
  { name: '三角龙', aliases: ['triceratops'] },
  { name: '翼龙', aliases: ['pterosaur'] },
];
const card = (list: JevTarget[], name: string) => list.find((c) => c.name === name)!;

describe('JEV with cards that are not animals', () => {
  it('judges fruit by name, alias, derived diminutive, traditional characters and sound', () => {
    expect(judge('是苹果吧', card(FRUIT, '苹果'), FRUIT).verdict).toBe('correct');
    expect(judge('桃桃', card(FRUIT, '桃子'), FRUIT)).toMatchObject({ verdict: 'correct', matched: '桃子' });
    expect(judge('蘋果', card(FRUIT, '苹果'), FRUIT).verdict).toBe('correct');
    expect(judge('平果', card(FRUIT, '苹果'), FRUIT).verdict).toBe('correct');
    expect(judge('我猜西瓜', card(FRUIT, '苹果'), FRUIT)).toMatchObject({ verdict: 'wrong', matched: '西瓜' });
  });

  it('lets a card beat the everyday-word list (火龙果 is a card here, not a dragon)', () => {
    expect(judge('是火龙果', card(FRUIT, '火龙果'), FRUIT)).toMatchObject({ verdict: 'correct', matched: '火龙果' });
    expect(judge('dragon fruit', card(FRUIT, '火龙果'), FRUIT).verdict).toBe('correct');
  });

  it('prefers the longest vehicle name and hears ASR homophones', () => {
    expect(judge('是自行车', card(VEHICLES, '汽车'), VEHICLES)).toMatchObject({ verdict: 'wrong', matched: '自行车' });
    expect(judge('是飞鸡', card(VEHICLES, '飞机'), VEHICLES).verdict).toBe('correct');
    expect(judge('火车还是汽车', card(VEHICLES, '火车'), VEHICLES).verdict).toBe('unclear');
    expect(judge('不是火车，是汽车', card(VEHICLES, '汽车'), VEHICLES).verdict).toBe('correct');
  });

  it('uses the card aliases of dinosaurs', () => {
    expect(judge('暴龙！', card(DINOSAURS, '霸王龙'), DINOSAURS).verdict).toBe('correct');
    expect(judge('T-Rex', card(DINOSAURS, '霸王龙'), DINOSAURS).verdict).toBe('correct');
    expect(judge('三角龙', card(DINOSAURS, '霸王龙'), DINOSAURS).verdict).toBe('wrong');
  });

  it('works when the target is missing from the vocabulary, or the vocabulary is empty', () => {
    const kiwi = { name: '猕猴桃', aliases: ['奇异果', 'kiwi'] };
    expect(judge('奇异果', kiwi, FRUIT).verdict).toBe('correct');
    expect(judge('香蕉', kiwi, FRUIT).verdict).toBe('wrong');
    expect(judge('奇异果', kiwi, []).verdict).toBe('correct');
    expect(judge('香蕉', kiwi, []).verdict).toBe('unclear');
  });

  it('lists every thing heard, including ruled-out ones, and explains in Chinese', () => {
    const r = judge('不是香蕉也不是西瓜，是葡萄', card(FRUIT, '葡萄'), FRUIT);
    expect(r).toMatchObject({ verdict: 'correct', matched: '葡萄', mentioned: ['香蕉', '西瓜', '葡萄'] });
    expect(r.reason).toMatch(/葡萄/);
  });
});
