/**
 * The lexicon built once per vocabulary: every name and alias of every known thing, normalised
 * (simplified characters, lower case) with its pinyin, plus forms derived by Chinese morphology
 * that every card gets for free:
 *   - a two-character name ending in 子 also answers to its first character (兔子 → 兔, 桃子 → 桃);
 *   - reduplication and diminutives (狗狗, 小狗, 小狗狗, 兔兔, 猫咪) need nothing: a name inside a longer
 *     word is still found, and the longest known name at a place wins (熊猫 beats 猫).
 */
import { normalize, isHan } from './normalize.ts';
import { numeralForm } from './numerals.ts';
import { syllables } from './pinyin.ts';
import type { JevTarget } from './types.ts';

export interface Term {
  /** Normalised surface form, e.g. "老虎", "tiger". */
  text: string;
  /** Index of the entry in `Lexicon.entries`. */
  entry: number;
  /** Han-only terms of 2+ characters take part in sound-alike matching. */
  pinyin: string[] | null;
  /** Latin terms need word boundaries ("cat" is not in "category"). */
  latin: boolean;
  /** Derived (兔 from 兔子) rather than written on the card. */
  derived: boolean;
}

export interface Lexicon {
  entries: JevTarget[];
  /** Normalised primary name per entry: the identity used to compare with the target. */
  keys: string[];
  terms: Term[];
  /** Terms by first character, longest first. */
  byFirst: Map<string, Term[]>;
  /** Han terms of 2+ characters, for sound-alike windows. */
  soundTerms: Term[];
}

export function entryKey(t: JevTarget): string {
  return normalize(t.name);
}

export function buildLexicon(vocabulary: readonly JevTarget[]): Lexicon {
  const entries: JevTarget[] = [];
  const keys: string[] = [];
  const seen = new Map<string, number>();
  for (const t of vocabulary) {
    const key = entryKey(t);
    if (key === '' || seen.has(key)) continue;
    seen.set(key, entries.length);
    entries.push(t);
    keys.push(key);
  }
  const terms: Term[] = [];
  const taken = new Set<string>();
  const add = (text: string, entry: number, derived: boolean) => {
    if (text === '' || text.includes('|') || taken.has(text)) return;
    taken.add(text);
    const han = [...text].every((c) => isHan(c));
    terms.push({
      text,
      entry,
      pinyin: han && text.length >= 2 ? syllables(text) : null,
      latin: /^[a-z0-9' -]+$/.test(text),
      derived,
    });
  };
  // Written names first (so a card's own alias beats another card's derived form), then derived.
  entries.forEach((t, i) => {
    for (const a of [t.name, ...t.aliases]) add(normalize(a), i, false);
  });
  // The same names with numbers in one form (三年级 / 3年级, 两只 / 2只): what was said is read in that form too.
  entries.forEach((t, i) => {
    for (const a of [t.name, ...t.aliases]) add(numeralForm(normalize(a)), i, false);
  });
  entries.forEach((t, i) => {
    for (const a of [t.name, ...t.aliases]) {
      const n = normalize(a);
      if (n.length === 2 && n[1] === '子' && isHan(n[0])) add(n[0], i, true);
    }
  });
  const byFirst = new Map<string, Term[]>();
  for (const term of terms) {
    const k = term.text[0];
    const list = byFirst.get(k) ?? [];
    list.push(term);
    byFirst.set(k, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.text.length - a.text.length);
  return { entries, keys, terms, byFirst, soundTerms: terms.filter((t) => t.pinyin !== null && !t.derived) };
}

// Building a lexicon runs pinyin over every name, so it is cached by the vocabulary's content: callers
// that build a fresh array per game or per answer (same names) still get the built one. Bounded, LRU.
const byContent = new Map<string, Lexicon>();
const byArray = new WeakMap<readonly JevTarget[], Lexicon>();
const MAX_LEXICONS = 16;

/** The lexicon of a vocabulary, built once per distinct content. */
export function lexiconFor(vocabulary: readonly JevTarget[]): Lexicon {
  const known = byArray.get(vocabulary);
  if (known) return known;
  const key = JSON.stringify(vocabulary.map((t) => [t.name, t.aliases]));
  let lex = byContent.get(key);
  if (lex) byContent.delete(key);
  else lex = buildLexicon(vocabulary);
  byContent.set(key, lex);
  if (byContent.size > MAX_LEXICONS) byContent.delete(byContent.keys().next().value!);
  byArray.set(vocabulary, lex);
  return lex;
}
