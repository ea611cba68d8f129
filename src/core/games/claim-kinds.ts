/**
 * The kinds of result a sentence can claim, for every speaker (the main agent, every game, the
 * Studio's games): a direction (大了 / 再小一点), a verdict (答对了 / 不对), a score (得了 3 分), the
 * answer (答案是…), the end of the game (游戏结束), a restart (重新开始一局) and the next question
 * (下一题 / 换一题), and a continuation (我们接着玩).
 *
 * Each speaker declares which kinds it can make (`can`): a claim of a kind it cannot make is
 * refused whatever the sentence's other words (你画我猜 decides no 大/小; the main agent decides no
 * game result at all). The kinds it can make are judged by its own truth rules, except the ones
 * about the session itself — over, restart, next, continue — which are judged here against what
 * this turn's tool results did (`TurnFacts`): a restart claim passes only when the game really
 * restarted in this turn, a continuation only while the game goes on.
 */
import { isQuestion, POINTS, rightCount, verdictClaims, type Claim, type TruthRules } from './truth.ts';

export type ClaimClass = 'direction' | 'verdict' | 'score' | 'answer' | 'over' | 'restart' | 'next' | 'continue';

/** What this turn did to the session, from its tool results (the speaker's rules know). */
export interface TurnFacts {
  /** A game (re)started in this turn. */
  restarted?: boolean;
  /** The game ended in this turn (won, out of tries, ended). */
  over?: boolean;
  /** A new question began in this turn (the last one is over). */
  next?: boolean;
  /** The game goes on after this turn. */
  continues?: boolean;
}

/** The session's own kinds: judged here from the turn's facts, for every speaker. */
const SESSION_CLASSES: readonly ClaimClass[] = ['over', 'restart', 'next', 'continue'];

/** Not about later (「下次接着玩」, 「明天再来一局」): an invitation for another day claims nothing about this session. */
const NOT_LATER = '(?<!(?:下次|下回|明天|改天|以后|过几天)(?:我们|咱们)?(?:再)?)';

/** Words of each kind, in any speaker's words (a question claims nothing). */

const PATTERNS: ReadonlyArray<[ClaimClass, RegExp]> = [
  // 大了 / 太小了 / 再大一点 / 往小猜 — not 长大了, 放大, 声音大一点, 大声.
  ['direction', /(?<![长变放声音胆伟强巨广])(?:猜)?(?:太|有点|偏)?(?:大了|小了|大啦|小啦|太大|太小|偏大|偏小)|(?<![声音])(?:再|往)?(?:大一点|小一点|大一些|小一些|大点儿?(?!声)|小点儿?(?!声))|(?:往大|往小|再大|再小)(?!声)/g],
  ['score', POINTS],
  ['score', rightCount('题|道|张|个')],
  ['answer', /(?:答案|谜底)(?:就)?是/g],
  ['over', /(?:游戏结束|这局结束|这一局结束|结束啦|结束了|(?:这局|这一局)?(?:就|先)玩到这里|(?:这局|这一局)?(?:就|先)玩到这儿)/g],
  ['restart', new RegExp(`${NOT_LATER}(?:重新开始|重新来|重来一局|再来一局|再玩一局|新的一局|从头开始|从头再来|重新玩)`, 'g')],
  ['next', /(?:下一题|下一道|下一张|换一题|换一道|换一张|下一个问题|新的一题)/g],
  ['continue', new RegExp(`${NOT_LATER}(?:接着玩|继续玩|接着来|我们继续|游戏还在|还在玩)`, 'g')],
];

/**
 * The result claims of one sentence by kind, clause by clause: a clause that asks claims nothing
 * ("再来一局好吗？"), but "我们接着玩，刚才说到哪啦？" claims 接着玩 before it asks.
 */
export function classClaims(sentence: string): Array<Claim & { kind: ClaimClass }> {
  const out: Array<Claim & { kind: ClaimClass }> = [];
  const clauses = sentence.normalize('NFKC').split(/(?<=[，,；;。！!？?…])/u);
  for (const clause of clauses) {
    if (isQuestion(clause)) continue;
    out.push(...verdictClaims(clause).map((c) => ({ ...c, kind: 'verdict' as const })));
    for (const [kind, re] of PATTERNS) for (const m of clause.matchAll(re)) out.push({ kind, words: m[0] });
  }
  return out;
}

/** A line that claims a restart (catalogue lines are checked with it before they are said). */
export function claimsRestart(sentence: string): boolean {
  return classClaims(sentence).some((c) => c.kind === 'restart');
}

/**
 * A fixed line (a catalogue sentence) fits what happens to the session: no 「接着玩」 when the game
 * is over, no 「重新开始」 when nothing restarts.
 */
export function lineFits(line: string, facts: Pick<TurnFacts, 'continues' | 'restarted'>): boolean {
  return classClaims(line).every((c) => (c.kind === 'continue' ? !!facts.continues : c.kind === 'restart' ? !!facts.restarted : true));
}

const NAMES: Record<ClaimClass, string> = {
  direction: '大了还是小了',
  verdict: '对还是错',
  score: '得分',
  answer: '答案',
  over: '游戏结束',
  restart: '重新开始',
  next: '下一题',
  continue: '接着玩',
};

function sessionReason(kind: ClaimClass, facts: TurnFacts): true | string {
  switch (kind) {
    case 'over':
      return !!facts.over || '这一轮游戏没有结束，不能说游戏结束';
    case 'restart':
      return !!facts.restarted || '这一轮游戏没有重新开始，不能说重新开始';
    case 'next':
      return !!facts.next || '这一轮没有换到下一题，不能说下一题';
    case 'continue':
      return !!facts.continues || '游戏没有在继续，不能说接着玩';
    default:
      return true;
  }
}

export interface Declaration {
  /** Who speaks (for the refusal's words): 「猜数字」, 「主助手」. */
  who: string;
  /** The kinds of result this speaker can claim. */
  can: readonly ClaimClass[];
  /** What this turn did to the session. */
  facts: TurnFacts;
  /** What to do instead, told to the model with a refusal of a kind it cannot make. */
  instead?: string;
}

const UNDECLARED = 'undeclared:';
const SESSION = 'session:';

/**
 * A speaker's rules with its declaration: every claim of a kind it cannot make is refused; claims
 * about the session (over / restart / next / continue) are judged by the turn's facts; the rest by
 * the speaker's own rules.
 */
export function declaredRules(rules: TruthRules, d: Declaration): TruthRules {
  const can = new Set(d.can);
  return {
    claims(sentence: string): Claim[] {
      const own = rules.claims(sentence);
      const extra: Claim[] = [];
      for (const c of classClaims(sentence)) {
        if (SESSION_CLASSES.includes(c.kind)) extra.push({ ...c, kind: SESSION + c.kind });
        else if (!can.has(c.kind)) extra.push({ ...c, kind: UNDECLARED + c.kind });
      }
      return [...extra, ...own];
    },
    judge(c: Claim): true | string {
      if (c.kind.startsWith(SESSION)) {
        const kind = c.kind.slice(SESSION.length) as ClaimClass;
        if (!can.has(kind)) return `${d.who}不能说${NAMES[kind]}${d.instead ? `；${d.instead}` : ''}`;
        return sessionReason(kind, d.facts);
      }
      if (c.kind.startsWith(UNDECLARED)) return `${d.who}不判定${NAMES[c.kind.slice(UNDECLARED.length) as ClaimClass]}${d.instead ? `；${d.instead}` : ''}`;
      return rules.judge(c);
    },
    fallback: () => rules.fallback(),
  };
}

/** No rules of its own (the main agent): only its declaration decides. */
export const NO_OWN_RULES: TruthRules = { claims: () => [], judge: () => true, fallback: () => null };
