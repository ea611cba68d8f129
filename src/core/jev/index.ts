/**
 * JEV — the answer judge (seed 000, 游戏 Agent: "动物答案由 JEV 判定").
 *
 * Pure: given what the player said (raw ASR text or typing), the current card and the vocabulary
 * of every thing the player might name, it decides
 *   correct — the player's one answer is the target;
 *   wrong   — the player's one answer is another known thing;
 *   unclear — no known thing was proposed, or several were and none was chosen.
 * Generic: the cards (animals, fruit, vehicles …) bring their own names and aliases.
 * Rules and their reasons: docs/notes/jev.md.
 */
import { entryKey, lexiconFor, buildLexicon, type Lexicon } from './lexicon.ts';
import { findMentions } from './mentions.ts';
import { normalize } from './normalize.ts';
import { numeralForm } from './numerals.ts';
import { read, type ReadMention } from './reading.ts';
import type { JevResult, JevTarget } from './types.ts';

export type { JevResult, JevTarget } from './types.ts';
export { normalize } from './normalize.ts';

const withTarget = new WeakMap<readonly JevTarget[], Map<string, Lexicon>>();

/** The vocabulary's lexicon, with the target added when the vocabulary lacks it. */
function lexiconWith(vocabulary: readonly JevTarget[], target: JevTarget): { lex: Lexicon; index: number } {
  const key = entryKey(target);
  let lex = lexiconFor(vocabulary);
  let index = lex.keys.indexOf(key);
  if (index < 0) {
    let byTarget = withTarget.get(vocabulary);
    if (!byTarget) withTarget.set(vocabulary, (byTarget = new Map()));
    lex = byTarget.get(key) ?? buildLexicon([target, ...vocabulary]);
    byTarget.set(key, lex);
    index = lex.keys.indexOf(key);
  }
  return { lex, index };
}

function quote(names: string[]): string {
  return names.map((n) => `「${n}」`).join('');
}

function heard(m: ReadMention, lex: Lexicon): string {
  const name = lex.entries[m.entry].name;
  if (m.by === 'sound') return `「${m.said}」（听着像「${m.term}」，算作「${name}」）`;
  return m.said === normalize(name) ? `「${name}」` : `「${m.said}」（即「${name}」）`;
}

export function judge(text: string, target: JevTarget, vocabulary: JevTarget[]): JevResult {
  if (typeof text !== 'string' || !target || typeof target.name !== 'string' || entryKey(target) === '') {
    return { verdict: 'unclear', mentioned: [], reason: '判定参数不完整' };
  }
  const { lex, index: targetIndex } = lexiconWith(vocabulary ?? [], target);
  // Numbers in one form, as the lexicon also holds every name (3年级 = 三年级, 2只 = 两只).
  const s = numeralForm(normalize(text));
  if (s.replace(/[|\s]/g, '') === '') return { verdict: 'unclear', mentioned: [], reason: '没有听到内容' };

  const reading = read(s, findMentions(s, lex, targetIndex));
  const mentioned = [...new Set(reading.mentions.map((m) => lex.entries[m.entry].name))];
  const live = reading.mentions.filter((m) => m.proposed && !m.withdrawn);
  let chosen = [...new Set(live.map((m) => m.entry))];

  // Undecided first, then one choice in the last clause (猫还是狗？狗吧 / 是猫还是狗？是狗).
  if (chosen.length > 1) {
    const clausesWith = [...new Set(live.map((m) => m.clause))];
    const last = clausesWith[clausesWith.length - 1];
    const lastEntries = [...new Set(live.filter((m) => m.clause === last).map((m) => m.entry))];
    const earlierUndecided = clausesWith.slice(0, -1).every((c) => reading.clauses[c].hedge);
    if (clausesWith.length > 1 && lastEntries.length === 1 && earlierUndecided) chosen = lastEntries;
  }

  if (chosen.length === 0) {
    const ruledOut = [...new Set(reading.mentions.filter((m) => !m.proposed).map((m) => lex.entries[m.entry].name))];
    if (ruledOut.length > 0) return { verdict: 'unclear', mentioned, reason: `只说了不是${quote(ruledOut)}，没有说是什么` };
    if (mentioned.length > 0) return { verdict: 'unclear', mentioned, reason: `说过${quote(mentioned)}，又改口了，没有新的答案` };
    return { verdict: 'unclear', mentioned, reason: '没有听到认识的名字' };
  }
  if (chosen.length > 1) {
    const names = chosen.map((e) => lex.entries[e].name);
    const hedged = live.some((m) => reading.clauses[m.clause].hedge);
    return {
      verdict: 'unclear',
      mentioned,
      reason: hedged ? `在${quote(names)}之间拿不准，要选一个` : `一次说了好几个：${quote(names)}，要选一个`,
    };
  }
  const entry = chosen[0];
  const m = [...live].reverse().find((x) => x.entry === entry)!;
  const name = lex.entries[entry].name;
  if (entry === targetIndex) {
    return { verdict: 'correct', matched: name, mentioned, reason: `听到${heard(m, lex)}，答对了` };
  }
  return { verdict: 'wrong', matched: name, mentioned, reason: `听到${heard(m, lex)}，不是这一题的答案` };
}
