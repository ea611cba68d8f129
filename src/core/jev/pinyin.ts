/**
 * Pinyin comparison for ASR homophone errors (老胡 for 老虎, 大像 for 大象, 兔纸 for 兔子).
 * Readings come from pinyin-pro in context (so 长颈鹿 reads chang, not zhang), without tones:
 * recognisers pick a character by sound and often by the wrong tone.
 *
 * Two levels: `homophone` (same toneless syllable) and `fuzzy` (same after the usual
 * "模糊音" merges of Mandarin speakers and IMEs: zh/z ch/c sh/s, n/l, -ng/-n, ü/u).
 */
import { pinyin } from 'pinyin-pro';

/** Toneless syllables of `s`, one per UTF-16 code unit position that is a Han character; '' elsewhere. */
export function syllables(s: string): string[] {
  if (s === '') return [];
  const out = pinyin(s, { toneType: 'none', type: 'array', v: true }) as string[];
  // pinyin-pro returns one item per character; keep the alignment robust anyway.
  const chars = [...s];
  if (out.length !== chars.length) return chars.map((c) => (pinyin(c, { toneType: 'none', v: true }) as string));
  return out;
}

const FUZZY: Array<[RegExp, string]> = [
  [/^zh/, 'z'],
  [/^ch/, 'c'],
  [/^sh/, 's'],
  [/^n(?=[a-z])/, 'l'],
  [/ng$/, 'n'],
  [/v/g, 'u'],
];

export function fuzzyKey(syllable: string): string {
  let k = syllable;
  for (const [re, to] of FUZZY) k = k.replace(re, to);
  return k;
}

type CharMatch = 'exact' | 'homophone' | 'fuzzy' | 'none';

export function compareChar(said: string, saidPy: string, want: string, wantPy: string): CharMatch {
  if (said === want) return 'exact';
  if (!saidPy || !wantPy) return 'none';
  if (saidPy === wantPy) return 'homophone';
  if (fuzzyKey(saidPy) === fuzzyKey(wantPy)) return 'fuzzy';
  return 'none';
}
