/**
 * Reading an utterance: the mentions found in it are given a polarity from the cues around them,
 * clause by clause (a clause ends at any punctuation).
 *
 *   不是猫 / not a cat          → 猫 ruled out; the scope of 不是 runs over 和/也/或 to the next
 *                                 是/就是/boundary (不是猫也不是狗: both out; 不是猫是狗: 狗 proposed)
 *   不是猫吗 / 难道不是猫       → rhetorical: 猫 proposed
 *   是不是猫 / 是猫吗           → a question that proposes 猫
 *   不是猫就是狗                → both proposed, undecided (hedge)
 *   猫，不对，是狗 / 是猫吗？不是，是狗 → correction: only what follows the last correction counts
 *   猫还是狗吧 (还是 X 吧/好了/算了) → a choice: counts as a correction
 */
import { BOUNDARY, isLatin } from './normalize.ts';
import { CUES, PARTICLES, type Cue } from './cues.ts';
import type { Mention } from './mentions.ts';

export interface ReadMention extends Mention {
  proposed: boolean;
  clause: number;
  /** Said before the last correction: withdrawn. */
  withdrawn: boolean;
}

interface ClauseInfo {
  hedge: boolean;
  list: boolean;
}

interface Reading {
  mentions: ReadMention[];
  clauses: ClauseInfo[];
}

function cueAt(s: string, i: number): Cue | null {
  for (const cue of CUES) {
    if (!s.startsWith(cue.word, i)) continue;
    if (isLatin(cue.word[0]) && (isLatin(s[i - 1]) || isLatin(s[i + cue.word.length]))) continue;
    return cue;
  }
  return null;
}

/** True when only sentence particles lie between `i` and the clause end. */
function clauseEndsAfter(s: string, i: number): boolean {
  for (let k = i; k < s.length && s[k] !== BOUNDARY; k++) if (!PARTICLES.has(s[k])) return false;
  return true;
}

const CHOICE_TAIL = ['吧', '好了', '算了', '吧吧'];

interface Scope {
  word: string;
  rhetorical: boolean;
  members: ReadMention[];
  tagQuestion: boolean;
}

/** What one left-to-right reading of an utterance has gathered so far. */
interface ReadState {
  readonly s: string;
  readonly mentions: Mention[];
  readonly out: ReadMention[];
  readonly clauses: ClauseInfo[];
  clause: number;
  scope: Scope | null;
  rhetoricalPending: boolean;
  /** Index in `out` before which everything is withdrawn. */
  lastCorrection: number;
  /** The next mention to reach. */
  mi: number;
}

export function read(s: string, mentions: Mention[]): Reading {
  const st: ReadState = { s, mentions, out: [], clauses: [{ hedge: false, list: false }], clause: 0, scope: null, rhetoricalPending: false, lastCorrection: -1, mi: 0 };
  let i = 0;
  while (i < s.length) {
    const m = mentions[st.mi];
    if (m && m.start === i) {
      reachMention(st, m);
      i = m.end;
      continue;
    }
    if (s[i] === BOUNDARY) {
      close(st);
      st.rhetoricalPending = false;
      st.clause++;
      st.clauses.push({ hedge: false, list: false });
      i++;
      continue;
    }
    const cue = cueAt(s, i);
    if (!cue) {
      i++;
      continue;
    }
    applyCue(st, cue, i);
    i += cue.word.length;
  }
  close(st);
  st.out.forEach((r, k) => (r.withdrawn = k < st.lastCorrection));
  return { mentions: st.out, clauses: st.clauses };
}

/** Everything said so far is withdrawn. */
function correction(st: ReadState): void {
  st.lastCorrection = st.out.length;
}

/** Ends a negation scope; an empty "不是," (nothing ruled out) works as a correction. */
function close(st: ReadState): void {
  const scope = st.scope;
  if (scope && scope.members.length === 0 && !scope.tagQuestion && (scope.word === '不是' || scope.word === 'not')) correction(st);
  st.scope = null;
}

/** A mention: proposed, unless a negation's scope holds it (then as that scope says). */
function reachMention(st: ReadState, m: Mention): void {
  const rm: ReadMention = { ...m, proposed: true, clause: st.clause, withdrawn: false };
  if (st.scope) {
    rm.proposed = st.scope.rhetorical;
    st.scope.members.push(rm);
  }
  st.out.push(rm);
  st.mi++;
}

/** A cue word at `i`: what it does to the scope, the clause and the mentions before it. */
function applyCue(st: ReadState, cue: Cue, i: number): void {
  const { s, mentions, out } = st;
  const info = st.clauses[st.clause];
  switch (cue.kind) {
    case 'negate':
      close(st);
      st.scope = { word: cue.word, rhetorical: st.rhetoricalPending, members: [], tagQuestion: false };
      st.rhetoricalPending = false;
      break;
    case 'rhetorical':
      st.rhetoricalPending = true;
      break;
    case 'affirm':
      close(st);
      break;
    case 'assert':
      if (st.scope && st.scope.members.length > 0 && cue.word === '就是' && st.scope.word === '不是') {
        // 不是 X 就是 Y: either X or Y.
        for (const r of st.scope.members) r.proposed = true;
        info.hedge = true;
      }
      close(st);
      break;
    case 'correct':
      // 不对吗 / 不是吗 at a clause end is a tag question ("right?"), not a correction.
      if (s.startsWith('吗', i + cue.word.length) && clauseEndsAfter(s, i + cue.word.length + 1)) break;
      close(st);
      correction(st);
      break;
    case 'hedge': {
      const next = mentions[st.mi];
      const after = next ? s.slice(next.end) : '';
      if (cue.word === '还是' && next && out.length > 0 && CHOICE_TAIL.some((t) => after.startsWith(t)) && clauseEndsAfter(s, next.end + 1)) {
        close(st);
        correction(st);
      } else {
        info.hedge = true;
      }
      break;
    }
    case 'list':
      info.list = true;
      break;
    case 'question':
      if (clauseEndsAfter(s, i + cue.word.length)) {
        if (st.scope && st.scope.members.length === 0) st.scope.tagQuestion = true;
        // 不是猫吗: the negation was rhetorical.
        for (const r of out) if (r.clause === st.clause && !r.proposed) r.proposed = true;
      }
      break;
  }
}
