/**
 * The child-safety check: one line in, a verdict out — pure, offline, the same everywhere (the
 * speaking path before every spoken line, the main agent's router before any model call, and
 * `npm run safety`). Chinese first: each rule (./rules.ts) is tried on every view of the line
 * (./views.ts: the normalised text, sound-alike spellings put back, separators squashed, pinyin).
 */
import { compilePattern, type CompiledPattern } from './patterns.ts';
import { AMBIGUOUS_PINYIN, CATEGORIES, CHILD_INVITED, GROWN_UP_ACTS, GROWN_UP_CATEGORIES, HOMOPHONES, RULE_LISTS, QUIZ_CATEGORIES, QUIZ_NO, RULES, SAFE_ADVICE, TOLD_ADVICE, ADVICE_UNDONE, type SafetyCategory, type SafetyRule } from './rules.ts';
import { viewsOf, type View, type ViewName } from './views.ts';

export type { SafetyCategory } from './rules.ts';
export { CATEGORIES } from './rules.ts';

/** Whose words: a line the robot is about to say, or what the child said. */
export type Speaker = 'robot' | 'child';

export type SafetyVerdict =
  | { verdict: 'ok' }
  | {
      verdict: 'blocked';
      category: SafetyCategory;
      /** The rule that matched (for the parent's 技术细节 and for tuning). */
      rule: string;
      /** Which form of the line it was found in. */
      view: ViewName;
      /** Which half of the check: the rules here, or the learned classifier (./learned.ts). */
      by: 'rules' | 'classifier';
      /** The classifier's score for the category (its verdicts only). */
      score?: number;
    };

/** The check as every caller uses it: one line and whose words, a verdict. */
export type CheckLine = (text: string, who?: Speaker) => SafetyVerdict;

interface Compiled {
  rule: SafetyRule;
  /** Global copies, to look at every match. */
  pattern: CompiledPattern;
  unless?: CompiledPattern;
  with: CompiledPattern[];
  rank: number;
}

let compiled: Compiled[] | null = null;

const global = (p: CompiledPattern): CompiledPattern => ({ han: new RegExp(p.han.source, 'gu'), py: new RegExp(p.py.source, 'gu') });

function rules(): Compiled[] {
  compiled ??= RULES.map((rule) => ({
    rule,
    pattern: global(rule.latin ? { han: new RegExp(rule.pattern, 'u'), py: /(?!)/ } : compilePattern(rule.pattern, RULE_LISTS)),
    unless: rule.unless ? compilePattern(rule.unless, RULE_LISTS) : undefined,
    with: (rule.with ?? []).map((w) => compilePattern(w, RULE_LISTS)),
    rank: CATEGORIES.indexOf(rule.category),
  })).sort((a, b) => a.rank - b.rank);
  return compiled;
}

/** The clause of `value` around index `at` (clauses are separated by `|`). */
function clauseAt(value: string, at: number): string {
  const start = value.lastIndexOf('|', at) + 1;
  const end = value.indexOf('|', at);
  return value.slice(start, end < 0 ? value.length : end);
}

/** A match in the pinyin view must touch a romanised word (the characters are checked as characters). */
function counts(view: View, m: RegExpMatchArray): boolean {
  if (!view.romanised) return true;
  if (AMBIGUOUS_PINYIN.includes(m[0].trim())) return false;
  const start = m.index ?? 0;
  const end = start + m[0].length;
  return view.romanised.some(([a, b]) => a < end && b > start);
}

/** A compiled pattern's regular expression for this view (characters or pinyin). */
const regexFor = (p: CompiledPattern, view: View): RegExp => (view.kind === 'han' ? p.han : p.py);

function matches(c: Compiled, view: View): boolean {
  if (c.rule.latin && view.name !== 'text') return false;
  const pick = (p: CompiledPattern) => regexFor(p, view);
  // Every match counts on its own: the clause around it must have the other words and not the protective ones.
  for (const m of view.value.matchAll(pick(c.pattern))) {
    if (!counts(view, m)) continue;
    const clause = c.rule.scope === 'line' ? view.value : clauseAt(view.value, m.index);
    if (c.with.some((w) => !pick(w).test(clause))) continue;
    if (c.unless && pick(c.unless).test(c.rule.unlessScope === 'line' ? view.value : clause)) continue;
    return true;
  }
  return false;
}

/** Body-safety advice (said with 「如果」, or told plainly) and its taking back, compiled on first use. */
let advice: { ifSaid: CompiledPattern; told: CompiledPattern; undone: CompiledPattern } | null = null;
const advicePatterns = () => (advice ??= { ifSaid: compilePattern(SAFE_ADVICE, RULE_LISTS), told: compilePattern(TOLD_ADVICE, RULE_LISTS), undone: compilePattern(ADVICE_UNDONE, RULE_LISTS) });

/**
 * An ordinary line to check once right after loading: the patterns compile on first use (hundreds of
 * milliseconds in a browser), and the first sentence the robot says should not wait for that.
 */
export const WARM_UP_LINE = '我想好了一个数字，你来猜猜看吧！';

/** Checks one line (or a few joined sentences) said by `who`. */
export function checkLine(text: string, who: Speaker = 'robot'): SafetyVerdict {
  const views = viewsOf(text, HOMOPHONES);
  if (!views[0].value) return { verdict: 'ok' };
  // The robot may tell the advice plainly; a child's words need the 「如果」 to be advice.
  const a = advicePatterns();
  const said = who === 'robot' ? a.told : a.ifSaid;
  const isAdvice = views.some((v) => regexFor(said, v).test(v.value)) && !views.some((v) => regexFor(a.undone, v).test(v.value));
  const isQuizNo = views.some((v) => v.kind === 'han' && QUIZ_NO.test(v.value));
  const grownUpActs = views.some((v) => v.kind === 'han' && GROWN_UP_ACTS.test(v.value) && !CHILD_INVITED.test(v.value));
  for (const c of rules()) {
    if (c.rule.who && c.rule.who !== who) continue;
    if (isAdvice && c.rule.category === 'sexual') continue;
    if (isQuizNo && QUIZ_CATEGORIES.includes(c.rule.category)) continue;
    if (grownUpActs && GROWN_UP_CATEGORIES.includes(c.rule.category)) continue;
    const view = views.find((v) => matches(c, v));
    if (view) return { verdict: 'blocked', category: c.rule.category, rule: c.rule.id, view: view.name, by: 'rules' };
  }
  return { verdict: 'ok' };
}
