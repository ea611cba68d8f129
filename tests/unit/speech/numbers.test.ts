/**
 * What a child's words guess in 猜数字 (skills/guess-number/numbers.ts over src/core/speech/numbers.ts):
 * a corpus of more than 100 utterances that are no guess, more than 100 that are one, and the ones
 * that need a question back (about a number, several numbers).
 */
import { describe, expect, it } from 'vitest';
import { guessIn, numbersIn } from '../../../skills/guess-number/numbers.ts';
import { numeralMentions, parseChineseNumeral } from '../../../src/core/speech/numbers.ts';

/** Chinese numerals as a child (or ASR) writes them, written independently of the parser. */
function chinese(n: number): string {
  const d = '零一二三四五六七八九';
  if (n === 100) return '一百';
  if (n < 10) return d[n];
  if (n < 20) return `十${n % 10 ? d[n % 10] : ''}`;
  return `${d[Math.floor(n / 10)]}十${n % 10 ? d[n % 10] : ''}`;
}

const NOT_GUESSES = [
  '给我一个提示', '给我一点提示', '再给我一个提示吧', '能不能给我一个提示', '我要一个提示', '提示一下', '我再猜一次', '让我再猜一次', '我想再试一次', '再来一次',
  '我想一想', '让我想一想', '我想想', '等一下', '等一等', '你等我一下', '稍等一下', '我看一看', '让我猜一猜', '我试一试',
  '我们一起玩吧', '一起猜吧', '我不知道', '好难呀', '太难了', '这个好难', '我猜不到', '帮帮我', '你帮我一下', '我想不出来',
  '不玩了', '我不想玩了', '结束游戏', '再见', '拜拜', '谢谢你', '你真好', '我好开心', '哈哈哈', '好的',
  '我们玩猜数字吧', '猜数字怎么玩', '我要玩猜数字', '再来一局', '我们重新开始', '你是谁', '你叫什么名字', '你几岁了', '你会画画吗', '讲个故事',
  '第一次玩这个', '这是第一局吗', '我是第一名', '一模一样', '乱七八糟', '七上八下', '五颜六色', '三心二意', '一心一意', '十分好玩',
  '我一定能猜对', '我一直在想', '等一会儿', '一会再猜', '一共几次机会', '还有几次机会', '我有几次机会呀', '一点点', '有一些难', '一样吗',
  '跟刚才一样', '一般般', '我一下子忘了', '一口气猜完', '我猜一个大的', '我猜一个小的', '猜一个数字', '两个人一起玩', '我有三个玩具', '我吃了两个苹果',
  '我今年五岁', '我五岁了', '我们班有一只小猫', '三只小猪', '我看了两遍', '给我两次机会', '再给一次机会', '我说过一遍了', '第二次了', '第三次猜',
  '大一点吗', '是大了还是小了', '比刚才大吗', '再大一点', '小一点吧', '不对吗', '对吗', '是不是', '嗯', '啊',
  '我猜是大的', '我猜是小的', '随便猜一个', '你猜我猜的是什么', '我不猜了', '万一猜错了呢', '唯一的机会', '统一一下', '我们一块儿玩', '一半一半',
];

const GUESSES: Array<[string, number]> = [
  ['我猜50', 50], ['50', 50], ['我猜５０！', 50], ['是50吗', 50], ['５０', 50], ['我猜 7', 7], ['7！', 7], ['我觉得是42', 42], ['嗯……88', 88], ['那就99吧', 99],
  ['一百', 100], ['我猜一百', 100], ['三十七', 37], ['我猜三十七', 37], ['是六十三吗', 63], ['六十三', 63], ['十五吧', 15], ['我猜十', 10], ['二十', 20], ['二十一', 21],
  ['我猜一', 1], ['一！', 1], ['两', 2], ['我猜两', 2], ['九十九', 99], ['五六', 56], ['我猜五十，五十', 50], ['50吧，50', 50], ['一百零五', 105], ['零', 0],
  ...Array.from({ length: 100 }, (_, i): [string, number] => [`我猜${chinese(i + 1)}`, i + 1]),
  ...[3, 12, 25, 48, 64, 77, 91].map((n): [string, number] => [`是${n}吗？`, n]),
];

const ASK: Array<[string, 'approximate' | 'several']> = [
  ['六十多', 'approximate'], ['我猜六十多', 'approximate'], ['五十几', 'approximate'], ['三四十', 'approximate'], ['大概七十左右', 'approximate'], ['60多', 'approximate'], ['十五六', 'approximate'], ['3.5', 'approximate'],
  ['两个数', 'several'], ['我猜两个数：三和七', 'several'], ['我猜三和七', 'several'], ['50还是60', 'several'], ['我想猜好几个数', 'several'], ['五十或者六十', 'several'],
];

describe('guesses a child says (猜数字)', () => {
  it(`the corpus is large enough: ${NOT_GUESSES.length} non-guesses, ${GUESSES.length} guesses`, () => {
    expect(NOT_GUESSES.length).toBeGreaterThanOrEqual(100);
    expect(GUESSES.length).toBeGreaterThanOrEqual(100);
  });

  it.each(NOT_GUESSES)('%s → no guess', (text) => {
    expect(guessIn(text)).toEqual({ kind: 'none' });
  });

  it.each(GUESSES)('%s → %i', (text, n) => {
    expect(guessIn(text)).toEqual({ kind: 'number', number: n });
  });

  it.each(ASK)('%s → ask (%s)', (text, why) => {
    expect(guessIn(text)).toMatchObject({ kind: 'ask', why });
  });

  it('"给我一个提示" is not the number 1, nor "我再猜一次" or "我想一想"', () => {
    for (const t of ['给我一个提示', '我再猜一次', '我想一想']) expect(numbersIn(t)).toEqual([]);
  });
});

describe('numerals in spoken Chinese', () => {
  it('parses Chinese numerals with units, digit by digit, and 万', () => {
    expect(parseChineseNumeral('二十')).toBe(20);
    expect(parseChineseNumeral('一百零五')).toBe(105);
    expect(parseChineseNumeral('五六')).toBe(56);
    expect(parseChineseNumeral('一万二千')).toBe(12000);
    expect(parseChineseNumeral('猫')).toBeNull();
  });

  it('tells a numeral with a measure word, an ordinal and a doubled verb apart from a number (what the robot says too)', () => {
    const m = numeralMentions('第一次你有 7 次机会，想一想，50 大了');
    expect(m.map((x) => [x.value, x.measure ?? '', x.ordinal, x.reduplication])).toEqual([
      [1, '次', true, false],
      [7, '次', false, false],
      [1, '', false, true],
      [50, '', false, false],
    ]);
  });
});
