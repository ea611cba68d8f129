/**
 * The forms of one line the safety rules look at, so that the usual tricks do not hide a word:
 * - `text`: NFKC (full-width → half-width), lower case, invisible characters dropped, traditional →
 *   simplified characters, spaces between characters dropped, punctuation as clause boundaries `|`
 *   (the same normalisation the answer judge uses, src/core/jev/normalize.ts);
 * - `homophone`: key words written with sound-alike characters put back (火才 → 火柴, 紫砂 → 自杀): a
 *   span that reads like a key word (toneless pinyin) and keeps at least one of its characters, unless
 *   the span is a common word of its own (小岛 is not 小刀);
 * - `squashed`: every separator removed, when characters are spaced out with symbols (火.柴, 刀-捅-人)
 *   or most clauses are a single character;
 * - `pinyin`: the line as toneless syllables, when it contains romanised words (huo chai, 吸du).
 */
import { isHan, normalizeWritten } from '../jev/normalize.ts';
import { fuzzyKey, syllables } from '../jev/pinyin.ts';
import { wordTokens } from './patterns.ts';

export type ViewName = 'text' | 'homophone' | 'squashed' | 'pinyin';

export interface View {
  name: ViewName;
  /** Clauses separated by `|` (characters) or ` |` (pinyin tokens, each preceded by a space). */
  value: string;
  kind: 'han' | 'py';
  /** Pinyin view: where the romanised words are (a match must touch one of them). */
  romanised?: Array<[number, number]>;
}

/** Key words and their sound-alike spellings that are real words of their own (never put back). */
export interface HomophoneTable {
  terms: readonly string[];
  /** term → words that read the same and keep one of its characters, but mean something else. */
  innocent: Readonly<Record<string, readonly string[]>>;
  /** Spellings used on purpose that share no character with the word (紫砂 for 自杀), with what may follow them innocently. */
  euphemisms: ReadonlyArray<{ spelling: string; word: string; notBefore?: string }>;
  /** Common miswritings (自已 for 自己). */
  typos: Readonly<Record<string, string>>;
}

const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0]/gu;
/** Separators a sentence uses normally; any other symbol between two characters is a trick. */
const ORDINARY_PUNCT = '，。！？、；：,!?;:…—~～「」“”‘’"\'()（）《》 \n\r\t';

const SYLLABLE = new RegExp(
  '^(?:(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|van|ai|ei|ao|ou|an|en|in|un|vn|ia|ie|iu|ua|uo|ui|ue|ve|a|o|e|i|u|v)|a|o|e|ai|ei|ao|ou|an|en|er|ang|eng)$',
);

/** English words a line may hold that happen to spell pinyin (data = da ta). */
const ENGLISH = new Set(
  'a an and are as be but by can come data day done game gone go have he her hi home i if in is it make man me men name no not of on one or pen same see she so some take tang ten the then time to game we yes you zoo panda china hello bye bingo banana mango tango'.split(' '),
);

/** Splits a romanised word into syllables (fewest pieces), or null when it is not pinyin. */
function pinyinSyllables(word: string): string[] | null {
  const w = word.replace(/ü/g, 'v');
  if (!/^[a-z]+$/.test(w) || ENGLISH.has(w)) return null;
  const best: Array<string[] | null> = new Array(w.length + 1).fill(null);
  best[0] = [];
  for (let end = 1; end <= w.length; end++) {
    for (let start = Math.max(0, end - 6); start < end; start++) {
      const prev = best[start];
      const piece = w.slice(start, end);
      if (prev && SYLLABLE.test(piece) && (!best[end] || best[end]!.length > prev.length + 1)) best[end] = [...prev, piece];
    }
  }
  return best[w.length];
}

interface Token {
  /** The syllable (or a Latin word / digits as they are). */
  py: string;
  /** The character it stands for in the text view, or -1 for a Latin word. */
  at: number;
  /** A syllable of a romanised word. */
  roman?: boolean;
}

/** Syllable tokens of one clause (Han characters in context; Latin words segmented). */
function clauseTokens(clause: string, offset: number): { tokens: Token[] } {
  const tokens: Token[] = [];
  const chars = [...clause];
  let i = 0;
  let pos = offset;
  while (i < chars.length) {
    if (isHan(chars[i])) {
      let j = i;
      while (j < chars.length && isHan(chars[j])) j++;
      const run = chars.slice(i, j).join('');
      const readings = syllables(run);
      for (let k = 0; k < j - i; k++) tokens.push({ py: readings[k] ?? chars[i + k], at: pos + k });
      pos += j - i;
      i = j;
    } else if (/[a-z0-9']/.test(chars[i])) {
      let j = i;
      while (j < chars.length && /[a-z0-9'ü]/.test(chars[j])) j++;
      const word = chars.slice(i, j).join('');
      for (const part of word.split("'").filter(Boolean)) {
        const syl = pinyinSyllables(part);
        if (syl) {
          for (const s of syl) tokens.push({ py: s, at: -1, roman: true });
        } else tokens.push({ py: part, at: -1 });
      }
      pos += j - i;
      i = j;
    } else {
      i++;
      pos++;
    }
  }
  return { tokens };
}

interface TermIndex {
  byFirst: Map<string, Array<{ term: string; syl: string[] }>>;
}

const termIndexes = new WeakMap<HomophoneTable, TermIndex>();

function termIndex(table: HomophoneTable): TermIndex {
  let index = termIndexes.get(table);
  if (!index) {
    const byFirst = new Map<string, Array<{ term: string; syl: string[] }>>();
    for (const term of table.terms) {
      const syl = wordTokens(term);
      const first = fuzzyKey(syl[0]);
      const list = byFirst.get(first) ?? [];
      list.push({ term, syl });
      byFirst.set(first, list.sort((a, b) => b.syl.length - a.syl.length));
    }
    index = { byFirst };
    termIndexes.set(table, index);
  }
  return index;
}

/** Puts back key words spelled with sound-alike characters (see the module comment). */
function restoreHomophones(text: string, tokens: Token[], table: HomophoneTable): string {
  const chars = [...text];
  const { byFirst } = termIndex(table);
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].at < 0) continue;
    for (const { term, syl } of byFirst.get(fuzzyKey(tokens[i].py)) ?? []) {
      const span = tokens.slice(i, i + syl.length);
      if (span.length !== syl.length || span.some((t, k) => t.at < 0 || fuzzyKey(t.py) !== fuzzyKey(syl[k]) || (k > 0 && t.at !== span[k - 1].at + 1))) continue;
      const spelled = span.map((t) => chars[t.at]).join('');
      const want = [...term];
      if (spelled === term || !want.some((c, k) => c === [...spelled][k])) continue;
      if (isInnocent(chars, span[0].at, spelled, table.innocent[term] ?? [])) continue;
      span.forEach((t, k) => (chars[t.at] = want[k]));
      i += syl.length - 1;
      break;
    }
  }
  return chars.join('');
}

/** The sound-alike span is (part of) one of the term's innocent look-alike words in place. */
function isInnocent(chars: string[], at: number, spelled: string, innocent: readonly string[]): boolean {
  for (const word of innocent) {
    const idx = word.indexOf(spelled);
    if (idx < 0) continue;
    const start = at - [...word.slice(0, idx)].length;
    if (start >= 0 && chars.slice(start, start + [...word].length).join('') === word) return true;
  }
  return false;
}

function applyTable(text: string, table: HomophoneTable): string {
  let s = text;
  for (const [from, to] of Object.entries(table.typos)) s = s.split(from).join(to);
  for (const e of table.euphemisms) {
    const re = new RegExp(`${e.spelling}${e.notBefore ? `(?![${e.notBefore}])` : ''}`, 'gu');
    s = s.replace(re, e.word);
  }
  return s;
}

function spacedOut(raw: string, text: string): boolean {
  const chars = [...raw];
  const isSep = (c: string) => !isHan(c) && !/[\p{L}\p{N}]/u.test(c);
  for (let i = 1; i < chars.length - 1; i++) {
    if (!isSep(chars[i]) || ORDINARY_PUNCT.includes(chars[i])) continue;
    // An unusual separator between two characters (other separators around it skipped).
    let a = i - 1;
    while (a > 0 && isSep(chars[a])) a--;
    let b = i + 1;
    while (b < chars.length - 1 && isSep(chars[b])) b++;
    if (isHan(chars[a]) && isHan(chars[b])) return true;
  }
  const clauses = text.split('|').filter(Boolean);
  const single = clauses.filter((c) => [...c].length === 1).length;
  return clauses.length >= 3 && single * 2 > clauses.length;
}

function pinyinView(text: string): { value: string; romanised: Array<[number, number]>; tokens: Token[] } {
  const romanised: Array<[number, number]> = [];
  const all: Token[] = [];
  let value = '';
  let offset = 0;
  text.split('|').forEach((clause, i) => {
    if (i > 0) value += ' |';
    const r = clauseTokens(clause, offset);
    for (const t of r.tokens) {
      if (t.roman) romanised.push([value.length, value.length + 1 + t.py.length]);
      value += ` ${t.py}`;
    }
    all.push(...r.tokens, { py: '|', at: -1 });
    offset += [...clause].length + 1;
  });
  return { value, romanised, tokens: all };
}

/** The toneless syllables of a normalised line (Han characters in context, romanised words split), clause marks dropped. */
export function syllablesOfLine(text: string): string[] {
  return pinyinView(text).value.split(' ').filter((t) => t && t !== '|');
}

/** The views of one line, the plain text first. */
export function viewsOf(raw: string, table: HomophoneTable): View[] {
  const cleaned = String(raw ?? '').normalize('NFKC').replace(INVISIBLE, '');
  const text = normalizeWritten(applyTable(normalizeWritten(cleaned), table));
  const views: View[] = [{ name: 'text', value: text, kind: 'han' }];
  const py = pinyinView(text);
  const restored = restoreHomophones(text, py.tokens, table);
  if (restored !== text) views.push({ name: 'homophone', value: restored, kind: 'han' });
  if (spacedOut(cleaned, text)) {
    const squash = (s: string) => s.replace(/[|\s]/g, '');
    views.push({ name: 'squashed', value: squash(text), kind: 'han' });
    const squashedPy = pinyinView(squash(text));
    const restoredSquashed = restoreHomophones(squash(text), squashedPy.tokens, table);
    if (restoredSquashed !== squash(text)) views.push({ name: 'squashed', value: restoredSquashed, kind: 'han' });
  }
  if (py.romanised.length) views.push({ name: 'pinyin', value: py.value, kind: 'py', romanised: py.romanised });
  return views;
}
