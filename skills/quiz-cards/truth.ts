/**
 * 问答卡牌's truth rules (src/core/games/truth.ts), from its `运行.*` tags: what the play manager's
 * own words may claim in a turn, as a pure function of what the run skills decided in it
 * (`运行.判定`, `运行.得分`, the cards) —
 * - 答对了 only when `运行.判定` said 对 in this turn; 不对 only when it said 错;
 * - 得了 N 分 / 答对了 N 张 only with the score on the board;
 * - a card's answer only once that card is over (judged right, or its answer revealed) or when the
 *   child said it — the same rule whatever the cards are, so a refusal tells nothing.
 * - no 大了 / 小了, no 游戏结束 and no 重新开始 in the manager's own words (the run skills say the
 *   ending); 下一张 only when this turn presented a new card.
 * The line built from the tags is here too (the runtime says it when the manager cannot get it right).
 */
import { numberValue, POINTS, rightCount, verdictClaims, type Claim, type TruthFn } from '../../src/core/games/truth.ts';
import { declaredRules, type ClaimClass } from '../../src/core/games/claim-kinds.ts';
import { squash } from '../../src/core/jev/normalize.ts';
import { answerNamedIn, type PlayTruthState } from '../../src/core/studio/device-effects.ts';

const PATTERNS: Array<[kind: string, re: RegExp]> = [
  ['score', POINTS],
  ['correct_count', rightCount('张|题|道')],
];

export const truth: TruthFn<PlayTruthState> = ({ state: { changes, cards, used, current }, heard }) => {
  const verdict = changes.verdict;
  // Cards whose answer may be said: every card left behind, and the one just judged if it is over.
  const over = new Set(used.filter((id) => id !== current?.cardId));
  if (verdict && changes.judgedCard && (verdict.result === '对' || verdict.revealed)) over.add(changes.judgedCard.cardId);
  const said = squash(heard);

  const rules = {
    claims(sentence: string): Claim[] {
      const s = sentence.normalize('NFKC');
      const out = verdictClaims(s);
      for (const [kind, re] of PATTERNS) for (const m of s.matchAll(re)) out.push({ kind, value: numberValue(m[1]), words: m[0] });
      for (const c of cards) {
        const n = answerNamedIn(s, c);
        if (n) out.push({ kind: 'answer', value: c.cardId, words: n });
      }
      return out;
    },
    judge(c: Claim): true | string {
      switch (c.kind) {
        case 'correct':
          return verdict?.result === '对' || '运行.判定 这一轮没有判定为“对”，不能说答对了';
        case 'wrong':
          return verdict?.result === '错' || '运行.判定 这一轮没有判定为“错”';
        case 'score':
          return c.value === changes.score.score || `现在的得分是 ${changes.score.score} 分`;
        case 'correct_count':
          return c.value === changes.score.correct || `现在答对了 ${changes.score.correct} 张`;
        case 'answer':
          return over.has(String(c.value)) || said.includes(c.words) || '只能说孩子说过的答案，或者已经揭晓的答案';
        default:
          return true;
      }
    },
    fallback(): string | null {
      if (!verdict) return null;
      const head = verdict.result === '对' ? '答对了！' : verdict.revealed ? `答案是「${verdict.revealed}」。` : verdict.result === '错' ? '不对哦，再想一想。' : '没关系，我们再想想。';
      return `${head}你现在得了 ${changes.score.score} 分。`;
    },
  };
  return declaredRules(rules, { who: '这个游戏', can: CLAIMS, facts: { next: !!changes.newCard, continues: true } });
};

/** The kinds of result the play manager's own words can claim (the run skills' lines say the rest). */
export const CLAIMS: readonly ClaimClass[] = ['verdict', 'score', 'answer', 'next', 'continue'];
