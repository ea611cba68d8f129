/** The pieces the child-safety rules (./rules.ts, ./sentence-rules.ts) are written with. */
import type { SafetyCategory, SafetyRule } from './rules.ts';

export const R = (id: string, category: SafetyCategory, pattern: string, more: Partial<SafetyRule> = {}): SafetyRule => ({ id, category, pattern, ...more });
/** Not preceded (closely) by a negation. */
export const NOT = '(?<!({NEG}|别(?!人|的|墅|针)).{0,2})(?<!不)';
/** 别 as "don't" (not 别人, 别的). */
export const BIE = '别(?!人|的|墅|针|扭|致|处|样)';
/** Telling the child not to do it (不能放进嘴里; not 不要告诉妈妈, which is secrecy). */
export const DONT = `(不能(?!告诉)|不要(?!告诉|怕)|不可以|千万别|千万不要|${BIE}(碰|摸|玩|伸|去|拿|放|塞|套|靠|吃|喝|探|用|在)|不许|不准|很危险|不去(?!告诉)|不自己)`;
