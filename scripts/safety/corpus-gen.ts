/**
 * npm run safety:corpus — writes the generated part of the safety corpus
 * (tests/safety/corpus/generated.tsv) from ./templates.ts: every template filled with seeded random
 * choices, and a share of the lines (unsafe and normal alike, so that an evasion is no sign of harm
 * by itself) written the way evasions are: traditional characters, spaced out, in pinyin, or with
 * sound-alike characters. The inverse of the check's normalisation (src/core/safety/views.ts).
 * Same seed, same file.
 */
import { seededRandom } from '../../src/core/random.ts';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Converter } from 'opencc-js/cn2t';
import { syllables } from '../../src/core/jev/pinyin.ts';
import { isHan } from '../../src/core/jev/normalize.ts';
import { SLOTS, TEMPLATES, type Label } from './templates.ts';
import { SLOTS6, TEMPLATES6 } from './templates-round6.ts';

export type Evasion = 'trad' | 'space' | 'pinyin' | 'homophone' | '-';

export interface GeneratedLine {
  label: Label;
  evasion: Evasion;
  text: string;
  /** The index in TEMPLATES the line was drawn from. */
  template: number;
}


const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

export function fillTemplate(template: string, rand: () => number, depth = 0): string {
  return template.replace(/\{([A-Z0-9]+)\}/g, (_, slot: string) => {
    const list = SLOTS[slot] ?? SLOTS6[slot];
    if (!list) throw new Error(`unknown slot {${slot}}`);
    const v = pick(rand, list);
    return depth < 3 ? fillTemplate(v, rand, depth + 1) : v;
  });
}

const toTrad = Converter({ from: 'cn', to: 'tw' });

/** Characters of the corpus by toneless reading, for sound-alike spellings. */
function homophoneIndex(texts: string[]): Map<string, string[]> {
  const by = new Map<string, Set<string>>();
  for (const t of texts) {
    const chars = [...t];
    const py = syllables(t);
    chars.forEach((c, i) => {
      if (!isHan(c) || !py[i]) return;
      const set = by.get(py[i]) ?? new Set();
      set.add(c);
      by.set(py[i], set);
    });
  }
  return new Map([...by].map(([k, v]) => [k, [...v].sort()]));
}

export function evade(text: string, kind: Evasion, rand: () => number, sounds: Map<string, string[]>): string {
  const chars = [...text];
  switch (kind) {
    case 'trad':
      return toTrad(text);
    case 'space': {
      const sep = pick(rand, [' ', ' ', '.', '*', '-', '、', '~', '_']);
      return chars.filter((c) => !/[，。！？,]/.test(c)).join(sep);
    }
    case 'pinyin': {
      const py = syllables(text);
      // All of it, or only the Han characters of one half (吸du, 打huo机).
      const whole = rand() < 0.5;
      const from = whole ? 0 : Math.floor(rand() * chars.length * 0.5);
      const to = whole ? chars.length : Math.min(chars.length, from + 2 + Math.floor(rand() * 5));
      return chars.map((c, i) => (i >= from && i < to && isHan(c) && py[i] ? ` ${py[i]} ` : c)).join('').replace(/\s+/g, ' ').trim();
    }
    case 'homophone': {
      const py = syllables(text);
      const out = [...chars];
      let changed = 0;
      for (let tries = 0; tries < 12 && changed < 2; tries++) {
        const i = Math.floor(rand() * chars.length);
        const alts = (sounds.get(py[i] ?? '') ?? []).filter((c) => c !== chars[i]);
        if (!isHan(chars[i]) || !alts.length) continue;
        out[i] = pick(rand, alts);
        changed++;
      }
      return out.join('');
    }
    default:
      return text;
  }
}

const EVASIONS: Evasion[] = ['trad', 'space', 'pinyin', 'homophone'];

/** Every template of a list filled `weight` times (no line twice, `seen` shared), then a share written as evasions. */
function generateFrom(templates: Array<[Label, string, number]>, first: number, rand: () => number, seen: Set<string>, soundsOf: (texts: string[]) => Map<string, string[]>): GeneratedLine[] {
  const plain: Array<{ label: Label; text: string; template: number }> = [];
  for (const [index, [label, template, weight]] of templates.entries()) {
    let made = 0;
    for (let tries = 0; made < weight && tries < weight * 8; tries++) {
      const text = fillTemplate(template, rand).replace(/，，/g, '，').replace(/^，/, '');
      if (seen.has(text)) continue;
      seen.add(text);
      plain.push({ label, text, template: first + index });
      made++;
    }
  }
  const sounds = soundsOf(plain.map((l) => l.text));
  return plain.map(({ label, text, template }) => {
    // A quarter of the unsafe lines and a sixth of the normal ones in an evasion's spelling.
    const share = label === 'normal' ? 1 / 6 : 1 / 4;
    if (rand() >= share) return { label, evasion: '-' as Evasion, text, template };
    const kind = pick(rand, EVASIONS);
    return { label, evasion: kind, text: evade(text, kind, rand, sounds), template };
  });
}

/**
 * The first five rounds (./templates.ts) from `seed`, then the sixth (./templates-round6.ts) from a
 * seed of its own, so that adding a round leaves the lines of the earlier ones as they were; the
 * sixth round's sound-alikes come from the readings of all the plain lines.
 */
export function generateCorpus(seed = 26): GeneratedLine[] {
  const seen = new Set<string>();
  const earlierTexts: string[] = [];
  const earlier = generateFrom(TEMPLATES, 0, seededRandom(seed), seen, (texts) => {
    earlierTexts.push(...texts);
    return homophoneIndex(texts);
  });
  const sixth = generateFrom(TEMPLATES6, TEMPLATES.length, seededRandom(seed + 1), seen, (texts) => homophoneIndex([...earlierTexts, ...texts]));
  return [...earlier, ...sixth];
}

export const GENERATED_FILE = join(import.meta.dirname, '../../tests/safety/corpus/generated.tsv');

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = generateCorpus();
  mkdirSync(join(GENERATED_FILE, '..'), { recursive: true });
  const head = '# Generated by `npm run safety:corpus` (scripts/safety/corpus-gen.ts, seed 26) — do not edit by hand.\n# <label>\\t<evasion>\\t<text>\n';
  writeFileSync(GENERATED_FILE, head + lines.map((l) => `${l.label}\t${l.evasion}\t${l.text}`).join('\n') + '\n');
  const count: Record<string, number> = {};
  for (const l of lines) count[l.label] = (count[l.label] ?? 0) + 1;
  console.log(`${lines.length} lines written to tests/safety/corpus/generated.tsv`, count);
}
