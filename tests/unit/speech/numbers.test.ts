/**
 * What a child's words guess in 猜数字 (skills/guess-number/numbers.ts over src/core/speech/numbers.ts):
 * a corpus of more than 100 utterances that are no guess, more than 100 that are one, and the ones
 * that need a question back (about a number, several numbers).
 */
import { describe, expect, it } from 'vitest';
import { guessIn, numbersIn } from '../../../skills/guess-number/numbers.ts';
import { numeralMentions, parseChineseNumeral } from '../../../src/core/speech/numbers.ts';

import { ASK, GUESSES, NOT_GUESSES } from '../../support/utterances.ts';

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
