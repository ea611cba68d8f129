/**
 * The learned half of the child-safety check: a linear model (one logistic scorer per category)
 * over hashed features of a line — character 1–3-grams of the normalised line and of its sound-alike
 * view (./views.ts: traditional → simplified, full-width, invisible characters, separators gone),
 * pairs of characters with one or two others between them, the rules' word lists a clause names
 * (alone and in pairs), and toneless pinyin syllables and syllable pairs (so pinyin and sound-alike spellings land on the
 * same features as the characters). Trained by `npm run safety:train` (scripts/safety/train.ts);
 * the weights are an asset, int8 per feature bucket and category, with a scale, a bias and a
 * threshold per category (chosen on cross-validated scores). Pure: the model is handed in.
 */
import type { CheckLine } from './classify.ts';
import { CATEGORIES, HOMOPHONES, LISTS, type SafetyCategory } from './rules.ts';
import { fuzzyKey } from '../jev/pinyin.ts';
import { syllablesOfLine, viewsOf } from './views.ts';

export interface LearnedModel {
  version: 1;
  /** Feature buckets (a power of two). */
  dim: number;
  categories: SafetyCategory[];
  bias: number[];
  scale: number[];
  threshold: number[];
  /** int8 weights, category-major (dim per category), base64. */
  weights: string;
}

export interface LoadedModel {
  model: LearnedModel;
  w: Int8Array;
}

/** FNV-1a, 32 bits. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function grams(out: Set<string>, prefix: string, units: string[], max: number): void {
  for (let n = 1; n <= max; n++) for (let i = 0; i + n <= units.length; i++) out.add(`${prefix}${n}:${units.slice(i, i + n).join(n > 1 && prefix === 'p' ? ' ' : '')}`);
}

/** Every word of the rules' word lists (./rules.ts LISTS) → the lists it is in; the longest word first at each place. */
let lexicon: { words: Map<string, string[]>; longest: number } | null = null;
function lexiconOf(): NonNullable<typeof lexicon> {
  if (lexicon) return lexicon;
  const words = new Map<string, string[]>();
  for (const [name, list] of Object.entries(LISTS))
    for (const w of list) if (/^[\p{Script=Han}a-z]+$/u.test(w)) words.set(w, [...(words.get(w) ?? []), name]);
  return (lexicon = { words, longest: Math.max(...[...words.keys()].map((w) => w.length)) });
}

/**
 * Word-level features: which of the rules' word lists (dangerous things, places at home, victims,
 * monsters, family, leaving…) a clause names, alone and in pairs, so that a new sentence with other
 * words of the same kinds lands near the ones the model was trained on.
 */
function conceptFeatures(out: Set<string>, value: string): void {
  const { words, longest } = lexiconOf();
  const line = new Set<string>();
  for (const clause of value.split('|')) {
    const found = new Set<string>();
    for (let i = 0; i < clause.length; i++)
      for (let n = Math.min(longest, clause.length - i); n >= 1; n--) {
        const names = words.get(clause.slice(i, i + n));
        if (!names) continue;
        for (const k of names) found.add(k);
        break;
      }
    const ks = [...found].sort();
    for (const k of ks) line.add(k);
    for (let a = 0; a < ks.length; a++) for (let b = a + 1; b < ks.length; b++) out.add(`kk:${ks[a]}+${ks[b]}`);
  }
  for (const k of line) out.add(`k:${k}`);
}

/** The feature strings of a line (before hashing). */
export function featureStrings(text: string): Set<string> {
  const views = viewsOf(text, HOMOPHONES);
  const out = new Set<string>();
  const base = views[0].value;
  if (!base) return out;
  for (const v of views) {
    if (v.kind !== 'han') continue;
    const chars = [...v.value.replace(/[|\s]/g, '')];
    grams(out, 'c', ['^', ...chars, '$'], 3);
    conceptFeatures(out, v.value);
    // Pairs of characters with one or two others between them (绳子…脖子, 偷偷…拿): the same act
    // said with other words in the middle.
    for (let i = 0; i < chars.length; i++) for (let gap = 2; gap <= 3 && i + gap < chars.length; gap++) out.add(`s:${chars[i]}${chars[i + gap]}`);
  }
  const py = syllablesOfLine(base).map(fuzzyKey);
  grams(out, 'p', ['^', ...py, '$'], 2);
  return out;
}

/** Hashed feature buckets of a line. */
export function featuresOf(text: string, dim: number): number[] {
  const mask = dim - 1;
  return [...new Set([...featureStrings(text)].map((f) => hash(f) & mask))];
}

export function loadModel(model: LearnedModel): LoadedModel {
  const bin = atob(model.weights);
  const w = new Int8Array(bin.length);
  for (let i = 0; i < bin.length; i++) w[i] = (bin.charCodeAt(i) << 24) >> 24;
  if (w.length !== model.dim * model.categories.length) throw new Error('safety model: weights do not match its size');
  return { model, w };
}

/** The probability of each category for a line. */
export function scoresOf(m: LoadedModel, text: string): Record<SafetyCategory, number> {
  const { model, w } = m;
  const f = featuresOf(text, model.dim);
  const out = {} as Record<SafetyCategory, number>;
  model.categories.forEach((c, k) => {
    let z = 0;
    const base = k * model.dim;
    for (const i of f) z += w[base + i];
    out[c] = 1 / (1 + Math.exp(-(model.bias[k] + model.scale[k] * z)));
  });
  return out;
}

/** The most serious category whose score reaches its threshold, or null. */
export function learnedVerdict(m: LoadedModel, text: string): { category: SafetyCategory; score: number } | null {
  const scores = scoresOf(m, text);
  const over = m.model.categories.filter((c, k) => scores[c] >= m.model.threshold[k]);
  if (!over.length) return null;
  const category = [...over].sort((a, b) => CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b))[0];
  return { category, score: Math.round(scores[category] * 1000) / 1000 };
}

/**
 * The whole check: the rules first, then (for a line the robot is about to say) the classifier. A
 * line is blocked when either says so; the verdict says which. The child's own words are judged by
 * the rules alone: a caring answer instead of play is for words the rules know.
 */
export function withLearned(rules: CheckLine, m: LoadedModel): CheckLine {
  return (text, who = 'robot') => {
    const v = rules(text, who);
    if (v.verdict === 'blocked' || who !== 'robot') return v;
    const l = learnedVerdict(m, String(text ?? ''));
    return l ? { verdict: 'blocked', category: l.category, rule: `learned.${l.category}`, view: 'text', by: 'classifier', score: l.score } : v;
  };
}
