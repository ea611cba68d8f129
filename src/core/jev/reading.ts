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

export function read(s: string, mentions: Mention[]): Reading {
  const out: ReadMention[] = [];
  const clauses: ClauseInfo[] = [{ hedge: false, list: false }];
  let clause = 0;
  let scope: Scope | null = null;
  let rhetoricalPending = false;
  let lastCorrection = -1; // index in `out` before which everything is withdrawn

  const correction = () => {
    lastCorrection = out.length;
  };
  /** Ends a negation scope; an empty "不是," (nothing ruled out) works as a correction. */
  const close = () => {
    if (scope && scope.members.length === 0 && !scope.tagQuestion && (scope.word === '不是' || scope.word === 'not')) correction();
    scope = null;
  };

  let mi = 0;
  let i = 0;
  while (i < s.length) {
    const m = mentions[mi];
    if (m && m.start === i) {
      const rm: ReadMention = { ...m, proposed: true, clause, withdrawn: false };
      if (scope) {
        rm.proposed = scope.rhetorical;
        scope.members.push(rm);
      }
      out.push(rm);
      mi++;
      i = m.end;
      continue;
    }
    if (s[i] === BOUNDARY) {
      close();
      rhetoricalPending = false;
      clause++;
      clauses.push({ hedge: false, list: false });
      i++;
      continue;
    }
    const cue = cueAt(s, i);
    if (!cue) {
      i++;
      continue;
    }
    const info = clauses[clause];
    switch (cue.kind) {
      case 'negate':
        close();
        scope = { word: cue.word, rhetorical: rhetoricalPending, members: [], tagQuestion: false };
        rhetoricalPending = false;
        break;
      case 'rhetorical':
        rhetoricalPending = true;
        break;
      case 'affirm':
        close();
        break;
      case 'assert':
        if (scope && scope.members.length > 0 && cue.word === '就是' && scope.word === '不是') {
          // 不是 X 就是 Y: either X or Y.
          for (const r of scope.members) r.proposed = true;
          info.hedge = true;
        }
        close();
        break;
      case 'correct':
        // 不对吗 / 不是吗 at a clause end is a tag question ("right?"), not a correction.
        if (s.startsWith('吗', i + cue.word.length) && clauseEndsAfter(s, i + cue.word.length + 1)) break;
        close();
        correction();
        break;
      case 'hedge': {
        const next = mentions[mi];
        const after = next ? s.slice(next.end) : '';
        if (cue.word === '还是' && next && out.length > 0 && CHOICE_TAIL.some((t) => after.startsWith(t)) && clauseEndsAfter(s, next.end + 1)) {
          close();
          correction();
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
          if (scope && scope.members.length === 0) scope.tagQuestion = true;
          // 不是猫吗: the negation was rhetorical.
          for (const r of out) if (r.clause === clause && !r.proposed) r.proposed = true;
        }
        break;
    }
    i += cue.word.length;
  }
  close();
  out.forEach((r, k) => (r.withdrawn = k < lastCorrection));
  return { mentions: out, clauses };
}
