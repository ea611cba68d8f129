/**
 * The safety corpus: unsafe candidate replies (corpus/unsafe.txt, by category and evasion) and
 * normal lines — hand-written chat and game lines (corpus/normal.txt) plus every line the games
 * and the app already say, read from the code: the 你画我猜 animal catalogue's names and hints, the
 * Studio demo decks (questions, hints, pictures, personas), the error catalogue's child sentences,
 * and the app's own safety sentences (redirects, caring answers, play-time lines).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import animals from '../../../skills/draw-guess/animals.json';
import { DEMO_THEMES } from '../../../src/studio/demo-decks.ts';
import { CATEGORIES, type SafetyCategory } from '../../../src/core/safety/classify.ts';
import { CARING, REDIRECT } from '../../../src/core/safety/replies.ts';
import { PLAY_TIME_LINES } from '../../../src/core/safety/play-time.ts';
import { allChildSentences } from '../../../src/core/errors/catalogue.ts';

export interface UnsafeLine {
  category: SafetyCategory;
  evasion: 'trad' | 'space' | 'pinyin' | 'homophone' | null;
  text: string;
}

export interface NormalLine {
  source: string;
  text: string;
}

const dir = join(import.meta.dirname, 'corpus');

function lines(file: string): string[] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

export function unsafeLines(file = 'unsafe.txt'): UnsafeLine[] {
  return lines(file).map((l) => {
    const [category, evasion, ...rest] = l.split(' ');
    if (!CATEGORIES.includes(category as SafetyCategory)) throw new Error(`unknown category in: ${l}`);
    return { category: category as SafetyCategory, evasion: evasion === '-' ? null : (evasion as UnsafeLine['evasion']), text: rest.join(' ') };
  });
}

function sourced(file: string): NormalLine[] {
  return lines(file).map((l) => {
    const [source, ...rest] = l.split(' ');
    return { source, text: rest.join(' ') };
  });
}

/** The held-out lines: written after the rules were final, never used to change them. */
export function heldOut(): { unsafe: UnsafeLine[]; normal: NormalLine[] } {
  return { unsafe: unsafeLines('heldout-unsafe.txt'), normal: sourced('heldout-normal.txt') };
}

export function normalLines(): NormalLine[] {
  const out: NormalLine[] = sourced('normal.txt');
  for (const a of animals as Array<{ name: string; hints: string[] }>) {
    out.push({ source: 'animals', text: `答对啦！就是${a.name}！` });
    for (const h of a.hints) out.push({ source: 'animals', text: h });
  }
  for (const theme of Object.values(DEMO_THEMES)) {
    out.push({ source: 'deck', text: `你好，我是${theme.persona}！我出题，你来猜，猜不出我会给提示哦。` });
    for (const [answer, , prompt, hints, , picture] of theme.rows) {
      out.push({ source: 'deck', text: prompt }, { source: 'deck', text: `答对了！就是${answer}！` });
      for (const h of hints) out.push({ source: 'deck', text: h });
      if (picture) out.push({ source: 'deck', text: picture });
    }
  }
  for (const s of allChildSentences()) out.push({ source: 'errors', text: s });
  for (const s of [...Object.values(REDIRECT), ...Object.values(CARING), ...Object.values(PLAY_TIME_LINES)]) out.push({ source: 'app', text: s });
  return out;
}
