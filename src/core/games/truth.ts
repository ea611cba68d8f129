/**
 * The truth check: the runtime owns the truth of a game, and so the truth of what is said about
 * it. Each game declares its truth rules (skills/<id>/truth.ts): a pure function over the turn's
 * tool results and the game's state (the runtime's own, the answer included — it never reaches a
 * prompt) that finds the outcome claims in a sentence (right/wrong, bigger/smaller, tries left,
 * score, the answer…) and says whether each was decided. Every sentence is checked before it is
 * released to the child (src/core/speech/sentence-stream.ts); a sentence with a claim the rules did
 * not decide is refused back to the model like malformed output, and when the model cannot get it
 * right, the engine says the rules' own line built from the tool results instead.
 */

import { parseChineseNumeral } from '../speech/numbers.ts';

/** Replies refused by the truth check in one turn before the engine says the rules' own line instead. */
export const TRUTH_RETRIES = 2;

/**
 * One turn's refusals, for every engine: a refused sentence goes back to the model to be written
 * again while retries last; after that the engine says the rules' own line instead.
 */
export class TruthGate {
  private count = 0;
  /** Counts one refusal: true while the model may write it again. */
  retry(): boolean {
    return ++this.count <= TRUTH_RETRIES;
  }
  /** Refusals so far in this turn. */
  get refusals(): number {
    return this.count;
  }
}

/** A tool that ran in this turn (not refused), with what it returned. */
export interface TurnResult {
  name: string;
  args: Record<string, unknown>;
  result: unknown;
}

/** One outcome a sentence claims. */
export interface Claim {
  /** What is claimed: 'correct', 'wrong', 'too_big', 'tries_left', 'score', 'answer', … */
  kind: string;
  /** The value claimed, when there is one (a number, an animal). */
  value?: string | number;
  /** The words that make the claim (quoted back to the model). */
  words: string;
}

export interface TruthRules {
  /** The outcome claims one sentence makes, in the game's words for them. */
  claims(sentence: string): Claim[];
  /** `true` when the claim was decided (by this turn's tool results or the state); else why not (Chinese, for the model). */
  judge(claim: Claim): true | string;
  /** A true line built from this turn's tool results, or null when they decided nothing worth saying. */
  fallback(): string | null;
}

/** What a game's truth function sees. `state` is the runtime's (the answer included). */
export interface TruthView<S> {
  results: readonly TurnResult[];
  state: S;
  /** The child's words of this turn. */
  heard: string;
}

export type TruthFn<S> = (view: TruthView<S>) => TruthRules;

/** A sentence that claims what the rules did not decide. */
export interface TruthProblem {
  sentence: string;
  claim: Claim;
  reason: string;
}

/** The first claim of a sentence that the rules did not decide, or null when the sentence is true. */
export function checkSentence(sentence: string, rules: TruthRules): TruthProblem | null {
  for (const claim of rules.claims(sentence)) {
    const verdict = rules.judge(claim);
    if (verdict !== true) return { sentence, claim, reason: verdict };
  }
  return null;
}

/** What the model reads when a sentence was refused (a tool error: the model writes the reply again). */
export function truthCorrection(p: TruthProblem): string {
  return `这句话没有说出去：「${p.sentence}」里说了「${p.claim.words}」，但${p.reason}。结果只能按这一轮工具返回的来说，请重新回复。`;
}

/** Rules for an agent that decides no game outcome at all (the main agent): every outcome claim is refused. */
export function noOutcomeRules(claims: (sentence: string) => Claim[], why: string): TruthRules {
  return { claims, judge: () => why, fallback: () => null };
}

// ── shared words ────────────────────────────────────────────────────────────────────

/** A number as a sentence says it, as a capture group: digits or Chinese numerals (3, 三, 二十, 一百). */
export const NUMBER = '(\\d+|[零〇一二两三四五六七八九十百]+)';

/** The value of a `NUMBER` capture (NaN when it is none). */
export function numberValue(s: string): number {
  return /^\d+$/.test(s) ? Number(s) : (parseChineseNumeral(s) ?? NaN);
}

/** 「还剩 3 次」「还有两次」: the tries left (not 「还有 2 次提示」). */
export const TIMES_LEFT = new RegExp(`(?<!提示\\S{0,3})(?:还剩|还有|剩下|只剩|剩|有)\\s*${NUMBER}\\s*次(?!提示)`, 'g');

/** 「得了 3 分」「一共 5 分」: the points. */
export const POINTS = new RegExp(`(?:得了|得到|拿了|拿到|一共)\\s*${NUMBER}\\s*分`, 'g');

/** 「答对了 2 题」: how many were right, counted in `measures` (e.g. 题|道). */
export function rightCount(measures: string): RegExp {
  return new RegExp(`(?:答对了?|猜对了?|对了)\\s*${NUMBER}\\s*(?:${measures})`, 'g');
}


/** The child got it right (not "没猜对", not "答对了 2 题": that is a score). */
const CORRECT = /(?<![没不还未能会要想])(猜对|答对|说对|猜中|答中)(?![了啦]?\s*[0-9零一二两三四五六七八九十]+\s*[题张道个])(了|啦)?|没错|你赢了|正确(?<!不正确)/g;
/** The child got it wrong. */
const WRONG = /(没猜对|没答对|没猜中|没说对|不对|猜错|答错|说错|不正确|(?<![没不])错(了|啦))/g;

/** A question claims nothing ("是 50 吗？"). */
export function isQuestion(sentence: string): boolean {
  return /[？?][”’」』）)\]"'\s]*$/.test(sentence.trim());
}

/** "right" and "wrong" claims, in any game's words (none in a question). */
export function verdictClaims(sentence: string): Claim[] {
  const out: Claim[] = [];
  if (isQuestion(sentence)) return out;
  for (const m of sentence.matchAll(WRONG)) out.push({ kind: 'wrong', words: m[0] });
  // "没猜对" also contains 猜对: a correct claim only where no wrong claim stands.
  const wrongSpans = [...sentence.matchAll(WRONG)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
  for (const m of sentence.matchAll(CORRECT)) {
    const at = m.index ?? 0;
    if (wrongSpans.some(([a, b]) => at >= a && at < b)) continue;
    out.push({ kind: 'correct', words: m[0] });
  }
  return out;
}
