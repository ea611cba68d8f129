/** The pieces the child-safety rules (./rules.ts, ./sentence-rules.ts) are written with: their categories, their shape, and shared sub-patterns. */
export type SafetyCategory = 'sexual' | 'violence' | 'danger' | 'self_harm' | 'drugs' | 'personal_info' | 'scary' | 'insult' | 'attachment';

/** Most serious first: a line that breaks several rules is reported under the first. */
export const CATEGORIES: readonly SafetyCategory[] = ['self_harm', 'sexual', 'danger', 'violence', 'drugs', 'personal_info', 'scary', 'attachment', 'insult'];

export interface SafetyRule {
  id: string;
  category: SafetyCategory;
  /** Whose words it applies to (default: both). */
  who?: 'robot' | 'child';
  pattern: string;
  /** The rule does not apply when the clause of the match also matches this. */
  unless?: string;
  /** Each of these must also match somewhere in the clause of the match (in any order). */
  with?: string[];
  /** `with` and `unless` look at the whole line instead of the clause. */
  scope?: 'clause' | 'line';
  /** `unless` alone looks at the whole line (the pattern's own clause has the act, another one says a grown-up does it). */
  unlessScope?: 'line';
  /** Matched against the text view only (Latin words that are not pinyin). */
  latin?: boolean;
}

export const R = (id: string, category: SafetyCategory, pattern: string, more: Partial<SafetyRule> = {}): SafetyRule => ({ id, category, pattern, ...more });
/** Not preceded (closely) by a negation. */
export const NOT = '(?<!({NEG}|别(?!人|的|墅|针)).{0,2})(?<!不)';
/** 别 as "don't" (not 别人, 别的). */
export const BIE = '别(?!人|的|墅|针|扭|致|处|样)';
/** Telling the child not to do it (不能放进嘴里; not 不要告诉妈妈, which is secrecy). */
export const DONT = `(不能(?!告诉)|不要(?!告诉|怕)|不可以|千万别|千万不要|${BIE}(碰|摸|玩|伸|去|拿|放|塞|套|靠|吃|喝|探|用|在)|不许|不准|很危险|不去(?!告诉)|不自己)`;
