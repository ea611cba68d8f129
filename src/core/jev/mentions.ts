/**
 * Finding the known things named in a normalised utterance.
 *
 * 1. Written forms: left to right, the longest known term at each place (熊猫 beats 猫, 猫头鹰
 *    beats 猫); an everyday word from COMMON_WORDS that is longer than any term there is stepped
 *    over (马上 is not a horse). Latin terms need word boundaries and may take a plural.
 * 2. Sound-alikes (ASR errors): windows of Han characters as long as a 2+ character term, compared
 *    syllable by syllable without tones (see pinyin.ts). A window is accepted when every character
 *    matches by character, sound or fuzzy sound, and
 *      (a) one matching character is a real anchor (not an affix like 子/小/老, not a function
 *          word) — then at most one fuzzy syllable is allowed (兔纸 → 兔子), or
 *      (b) there is no fuzzy syllable and no function character in the window (老胡 → 老虎).
 *    A sound-alike never overrides a written term of the same or greater length; it may replace
 *    shorter written terms inside it only if it has no fuzzy syllable (饿鱼 → 鳄鱼, but 金鱼 stays 鱼).
 *    Single-character names are never matched by sound: 马/吗/妈 would match everything.
 */
import { COMMON_WORDS } from './common-words.ts';
import { AFFIX_CHARS, FUNCTION_CHARS } from './cues.ts';
import { isHan, isLatin, normalize } from './normalize.ts';
import { compareChar, fuzzyKey, syllables } from './pinyin.ts';
import type { Lexicon, Term } from './lexicon.ts';

export interface Mention {
  entry: number;
  start: number;
  end: number;
  /** What was actually said (the span of the normalised text). */
  said: string;
  term: string;
  by: 'text' | 'sound';
}

const commonWords = COMMON_WORDS.map((w) => normalize(w)).sort((a, b) => b.length - a.length);

function latinTermAt(s: string, i: number, term: string): number {
  if (isLatin(s[i - 1])) return -1;
  if (term.endsWith('y') && s.startsWith(term.slice(0, -1) + 'ies', i) && !isLatin(s[i + term.length + 2])) return i + term.length + 2;
  if (!s.startsWith(term, i)) return -1;
  const end = i + term.length;
  for (const e of ['es', 's', '']) {
    if (s.startsWith(e, end) && !isLatin(s[end + e.length])) return end + e.length;
  }
  return -1;
}

function termEndAt(s: string, i: number, term: Term): number {
  if (term.latin) return latinTermAt(s, i, term.text);
  return s.startsWith(term.text, i) ? i + term.text.length : -1;
}

function commonWordAt(s: string, i: number): number {
  for (const w of commonWords) {
    if (!s.startsWith(w, i)) continue;
    if (isLatin(w[0]) && (isLatin(s[i - 1]) || isLatin(s[i + w.length]))) continue;
    return w.length;
  }
  return 0;
}

function writtenMentions(s: string, lex: Lexicon): Mention[] {
  const out: Mention[] = [];
  let i = 0;
  while (i < s.length) {
    let best: { term: Term; end: number } | null = null;
    for (const term of lex.byFirst.get(s[i]) ?? []) {
      const end = termEndAt(s, i, term);
      if (end > 0 && (!best || end > best.end)) best = { term, end };
    }
    const common = commonWordAt(s, i);
    if (common > 0 && common > (best ? best.end - i : 0)) {
      i += common;
      continue;
    }
    if (best) {
      out.push({ entry: best.term.entry, start: i, end: best.end, said: s.slice(i, best.end), term: best.term.text, by: 'text' });
      i = best.end;
    } else {
      i += 1;
    }
  }
  return out;
}

interface SoundCandidate extends Mention {
  fuzzy: number;
  exact: number;
}

const soundIndex = new WeakMap<Lexicon, Map<string, Term[]>>();

/** Sound terms by the fuzzy key of their first syllable and by their first character. */
function soundTermsBy(lex: Lexicon): Map<string, Term[]> {
  let index = soundIndex.get(lex);
  if (!index) {
    index = new Map();
    for (const term of lex.soundTerms) {
      for (const key of new Set([`py:${fuzzyKey(term.pinyin![0])}`, `ch:${term.text[0]}`])) {
        const list = index.get(key) ?? [];
        list.push(term);
        index.set(key, list);
      }
    }
    soundIndex.set(lex, index);
  }
  return index;
}

function soundMentions(s: string, py: string[], lex: Lexicon): SoundCandidate[] {
  const out: SoundCandidate[] = [];
  const index = soundTermsBy(lex);
  for (let j = 0; j < s.length; j++) {
    if (!isHan(s[j])) continue;
    const terms = new Set([...(index.get(`py:${fuzzyKey(py[j])}`) ?? []), ...(index.get(`ch:${s[j]}`) ?? [])]);
    for (const term of terms) {
      const want = term.text;
      const wantPy = term.pinyin!;
      const L = want.length;
      if (j + L > s.length) continue;
      let exact = 0;
      let fuzzy = 0;
      let anchor = false;
      let functionChar = false;
      let ok = true;
      for (let k = 0; k < L && ok; k++) {
        const c = s[j + k];
        if (!isHan(c)) {
          ok = false;
          break;
        }
        const m = compareChar(c, py[j + k], want[k], wantPy[k]);
        if (m === 'none') ok = false;
        else if (m === 'exact') {
          exact++;
          if (!AFFIX_CHARS.has(c) && !FUNCTION_CHARS.has(c)) anchor = true;
        } else if (m === 'fuzzy') fuzzy++;
        if (FUNCTION_CHARS.has(c)) functionChar = true;
      }
      if (!ok || exact === L) continue;
      const accepted = (anchor && fuzzy <= 1) || (fuzzy === 0 && !functionChar);
      if (!accepted) continue;
      out.push({ entry: term.entry, start: j, end: j + L, said: s.slice(j, j + L), term: want, by: 'sound', fuzzy, exact });
    }
  }
  return out;
}

/**
 * All mentions, in order, not overlapping. `prefer` (the target's entry) breaks exact ties
 * between equally good sound-alikes of different things — the benefit of the doubt goes to the child.
 */
export function findMentions(s: string, lex: Lexicon, prefer: number): Mention[] {
  const written = writtenMentions(s, lex);
  if (lex.soundTerms.length === 0) return written;
  const py = syllables(s);
  // syllables() works per code point; the text is indexed by UTF-16 units. Han outside the BMP is
  // rare in speech; if they ever disagree, skip sound matching rather than misalign.
  if (py.length !== s.length) return written;
  const candidates = soundMentions(s, py, lex);
  // Better candidates first: longer, fewer fuzzy syllables, more exact characters, the target.
  candidates.sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      a.fuzzy - b.fuzzy ||
      b.exact - a.exact ||
      Number(b.entry === prefer) - Number(a.entry === prefer) ||
      a.start - b.start,
  );
  let result = [...written];
  const chosen: SoundCandidate[] = [];
  for (const c of candidates) {
    if (chosen.some((o) => o.start < c.end && c.start < o.end)) continue;
    const overlapped = result.filter((m) => m.start < c.end && c.start < m.end);
    // Written terms win unless strictly inside a fuzzy-free sound-alike.
    const replaceable = overlapped.every((m) => m.start >= c.start && m.end <= c.end && m.end - m.start < c.end - c.start);
    if (overlapped.length > 0 && (!replaceable || c.fuzzy > 0)) continue;
    result = result.filter((m) => !overlapped.includes(m));
    chosen.push(c);
    result.push({ entry: c.entry, start: c.start, end: c.end, said: c.said, term: c.term, by: 'sound' });
  }
  return result.sort((a, b) => a.start - b.start);
}
