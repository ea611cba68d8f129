/**
 * Text normalisation for JEV: what the child said (ASR output, or typed) is brought to one form
 * before matching — full-width → half-width (NFKC), lower case, traditional → simplified
 * characters (opencc-js, Taiwan/HK variants included), fillers dropped, spaces inside Chinese
 * removed (ASR sometimes spaces out "老 虎"), every punctuation mark turned into one clause
 * boundary `|`. The same function normalises aliases, so "貓" in a card matches "猫" said.
 */
import { Converter } from 'opencc-js/t2cn';

/** The clause boundary every punctuation mark and line break becomes. */
export const BOUNDARY = '|';

const toSimplified = Converter({ from: 'tw', to: 'cn' });

const HAN = /\p{Script=Han}/u;
const LATIN_OR_DIGIT = /[a-z0-9]/;

export function isHan(ch: string | undefined): boolean {
  return ch !== undefined && HAN.test(ch);
}

export function isLatin(ch: string | undefined): boolean {
  return ch !== undefined && LATIN_OR_DIGIT.test(ch);
}

/** Hesitation sounds that carry no meaning (Chinese and English). */
const FILLER_HAN = /[嗯呃]/gu;
const FILLER_LATIN = /\b(?:um+|uh+|erm+|er|hmm+|mm+|ah+)\b/g;
/** Any punctuation or symbol, of any script. Apostrophes inside English words are kept (isn't). */
const PUNCT = /[\p{P}\p{S}]/gu;

/** The bare words of a text: no spaces, punctuation or symbols, NFKC, lower case ("same words" comparisons). */
export function squash(text: string): string {
  return text.normalize('NFKC').replace(/[\s\p{P}\p{S}]/gu, '').toLowerCase();
}

export function normalize(text: string): string {
  return normalizeWith(text, false);
}

/** The same for a written line: hesitation sounds stay (its "er" may be pinyin, not a hesitation). */
export function normalizeWritten(text: string): string {
  return normalizeWith(text, true);
}

function normalizeWith(text: string, keepFillers: boolean): string {
  let s = text.normalize('NFKC').toLowerCase();
  s = toSimplified(s);
  s = s.replace(/(?<=[a-z])['’](?=[a-z])/g, '\uE000').replace(/(?<=[a-z])-(?=[a-z])/g, '\uE001'); // protect don't / it's / t-rex
  if (!keepFillers) s = s.replace(FILLER_HAN, ' ').replace(FILLER_LATIN, ' ');
  s = s.replace(PUNCT, BOUNDARY).replace(/\uE000/g, "'").replace(/\uE001/g, '-');
  s = s.replace(/[\r\n\t]+/g, BOUNDARY);
  // Spaces between two Han characters are ASR artefacts; elsewhere they separate words.
  s = s.replace(/\s+/g, ' ');
  s = s.replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, '');
  s = s.replace(/ ?\| ?/g, BOUNDARY).replace(/\|{2,}/g, BOUNDARY);
  return s.trim().replace(/^\|+|\|+$/g, '').trim();
}
