/**
 * What number a child guessed, from their words (src/core/speech/numbers.ts reads the numerals):
 * - one number said as a number → that guess (我猜50, 三十七, 一百, 是六十三吗);
 * - no number (给我一个提示, 我再猜一次, 我想一想, 第一次玩) → no guess;
 * - about a number (六十多, 三四十, 五十几) or several numbers (三和七, 两个数) → ask which one.
 * `submit_guess` accepts only the number a guess names, so a hint request is never judged as 1.
 */
import { numeralMentions, type NumeralMention } from '../../src/core/speech/numbers.ts';

export type Guess =
  | { kind: 'number'; number: number }
  | { kind: 'none' }
  /** Not one exact number: ask the child which number they mean. */
  | { kind: 'ask'; why: 'approximate' | 'several'; said: string[] };

/** Asking to guess several numbers at once: 两个数, 三个数字, 好几个数. */
const SEVERAL = /(两|二|三|四|五|几|好几|多)个(数|数字)/;

/** A numeral the child used as a number (not 一个 / 一次 / 第一 / 想一想). */
export function isNumber(m: NumeralMention): boolean {
  return !m.measure && !m.ordinal && !m.reduplication;
}

/** The guess in a child's words. */
export function guessIn(text: string): Guess {
  const t = text.normalize('NFKC');
  const mentions = numeralMentions(t);
  if (SEVERAL.test(t)) return { kind: 'ask', why: 'several', said: mentions.filter(isNumber).map((m) => m.raw) };
  const numbers = mentions.filter(isNumber);
  if (numbers.length === 0) return { kind: 'none' };
  const about = numbers.filter((m) => m.approximate);
  if (about.length) return { kind: 'ask', why: 'approximate', said: about.map((m) => m.raw) };
  const distinct = [...new Set(numbers.map((m) => m.value))];
  if (distinct.length > 1) return { kind: 'ask', why: 'several', said: numbers.map((m) => m.raw) };
  return { kind: 'number', number: distinct[0] };
}

/** The exact numbers a child said as numbers, in order (none for 一个 / 一次 / 想一想 / 六十多). */
export function numbersIn(text: string): number[] {
  return numeralMentions(text)
    .filter((m) => isNumber(m) && !m.approximate)
    .map((m) => m.value);
}
