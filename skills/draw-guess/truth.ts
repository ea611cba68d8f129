/**
 * 你画我猜's truth rules (src/core/games/truth.ts): which outcomes a sentence may claim, as a pure
 * function of this turn's tool results and the game (the runtime's state: every card included):
 * - 答对了 only when `submit_answer` returned `correct` in this turn; 不对 / 不是猫 only after `wrong`;
 * - 还有 N 次 only with the attempts really left; 得了 N 分 / 答对了 N 题 only with the score;
 * - no 大了 / 小了 (this game judges no direction); 重新开始 / 下一题 / 结束 only when this turn
 *   started the game, moved on to a new question or ended it;
 * - an animal of this game is named only once its question is over (or when the child said it),
 *   and 答案是X only for an answer that was revealed.
 * The lines built from tool results are here too: the engine says them when the model cannot get
 * a reply right, and the demo brain says them as its replies.
 */
import { isQuestion, NUMBER, numberValue, POINTS, rightCount, TIMES_LEFT, verdictClaims, type Claim, type TruthFn, type TurnResult } from '../../src/core/games/truth.ts';
import { declaredRules, type ClaimClass, type TurnFacts } from '../../src/core/games/claim-kinds.ts';
import { findMentions } from '../../src/core/jev/mentions.ts';
import { lexiconFor } from '../../src/core/jev/lexicon.ts';
import { normalize } from '../../src/core/jev/normalize.ts';
import type { JevTarget } from '../../src/core/jev/types.ts';
import type { DrawGuessGame } from './rules.ts';

export interface DrawGuessTruthState {
  game: DrawGuessGame;
  /** Every animal the game knows (a name or alias said is a claim), as the judge's vocabulary. */
  animals: readonly JevTarget[];
}

// ── lines built from tool results ─────────────────────────────────────────────────────

export const summaryLine = (score: number, total: number): string =>
  score === total ? `游戏结束啦！${total} 题你全都答对了，太厉害了！` : `游戏结束啦！你答对了 ${score} 题，一共 ${total} 题，真棒！下次再来玩吧。`;

export const askLine = (question: number): string => `画好啦！第 ${question} 题，这是什么动物呀？`;

export const wrongLine = (heard: string | undefined, attemptsLeft: number): string =>
  `${heard ? `不是${heard}哦` : '不对哦'}！再猜猜看，还有 ${attemptsLeft} 次机会。`;

export const hintLine = (hint: string | null): string => (hint ? `好，给你一个提示！${hint}` : '提示都用完啦！再猜猜看，或者说“跳过”。');

export const endLine = (r: { score?: number; unanswered?: string }): string =>
  `${r.unanswered ? `这一题是${r.unanswered}。` : ''}好的，这局就玩到这里，你答对了 ${r.score ?? 0} 题。下次再来玩吧！`;

export const NEXT_LINE = '下一题来咯，看我画！';

export const NOT_DRAWN_LINE = '机器人今天画不出这幅画，我说给你听。';

export const UNCLEAR_LINE = '我没听出你猜的是什么动物，再说一遍好吗？';

/** What 你画我猜's tools return about a question (the fields the lines read). */
export interface Resolution {
  verdict?: string;
  heard?: string;
  attempts_left?: number;
  question_over?: boolean;
  game_over?: boolean;
  answer?: string;
  score?: number;
  total?: number;
  device_completed?: boolean;
  question?: number;
  hint?: string | null;
  unanswered?: string;
}

/** The true line of this turn's tool results (the fallback, the rules' first words), or null. */
export function fallbackLine(results: readonly TurnResult[]): string | null {
  const parts: string[] = [];
  let drawn: number | null = null;
  for (const { name, result } of results) {
    const r = (result ?? {}) as Resolution;
    // A drawing the robot could not finish comes back with the robot's error: it is still a result.
    if (typeof r !== 'object' || ('error' in r && !(name === 'show_drawing' && r.device_completed === false))) continue;
    switch (name) {
      case 'start_game':
        parts.push('我来画一个小动物，你猜猜是什么！');
        break;
      case 'submit_answer':
        if (r.verdict === 'correct') parts.push(`答对啦！就是${r.answer}！`);
        else if (r.verdict === 'wrong') parts.push(r.question_over ? `答案是${r.answer}，没关系！` : wrongLine(r.heard, r.attempts_left ?? 0));
        else parts.push(UNCLEAR_LINE);
        break;
      case 'skip_question':
        parts.push(`这一题是${r.answer}。`);
        break;
      case 'get_hint':
        parts.push(hintLine(r.hint ?? null));
        break;
      case 'show_drawing':
        if (r.device_completed) drawn = r.question ?? null;
        // Never "画好啦" over a picture the child cannot see: say so (a hint follows).
        else if (r.device_completed === false) parts.push(NOT_DRAWN_LINE);
        break;
      case 'end_game':
        parts.push(endLine(r));
        break;
    }
    if (r.game_over) parts.push(summaryLine(r.score ?? 0, r.total ?? 0));
    // The question is over and the game goes on: said before the next picture is prepared.
    else if ((r as { next?: string }).next === 'next_question') parts.push(NEXT_LINE);
  }
  if (drawn !== null) parts.push(askLine(drawn));
  return parts.length ? parts.join('') : null;
}

// ── claims ────────────────────────────────────────────────────────────────────────────

const NUMBER_PATTERNS: Array<[kind: string, re: RegExp]> = [
  ['attempts_left', TIMES_LEFT],
  ['score', POINTS],
  ['score', rightCount('题|道')],
  ['total', new RegExp(`(?:一共|总共|共)\\s*${NUMBER}\\s*(?:题|道)`, 'g')],
  ['question', new RegExp(`第\\s*${NUMBER}\\s*(?:题|道)`, 'g')],
];

/**
 * The animals named in a sentence, by card name, as JEV reads them (the longest name at each place:
 * 熊猫 is not 猫, and everyday words are stepped over: 马上 is not a horse). Written forms only.
 */
export function animalsIn(sentence: string, animals: readonly JevTarget[]): Array<{ animal: string; before: string }> {
  const s = normalize(sentence);
  const lex = lexiconFor(animals);
  return findMentions(s, lex, -1)
    .filter((m) => m.by === 'text')
    .map((m) => ({ animal: lex.entries[m.entry].name, before: s.slice(Math.max(0, m.start - 6), m.start) }));
}

/** Words that say "the answer is …" right before an animal. */
const ANSWER_FRAME = /(答案是|这一题是|这题是|这是|画的是|就是|它是)$/;

function claimsIn(text: string, animals: readonly JevTarget[]): Claim[] {
  const sentence = text.normalize('NFKC');
  const question = isQuestion(sentence);
  const out: Claim[] = verdictClaims(sentence);
  if (!question)
    for (const [kind, re] of NUMBER_PATTERNS)
      for (const m of sentence.matchAll(re)) out.push({ kind, value: numberValue(m[1]), words: m[0] });
  for (const { animal, before } of animalsIn(sentence, animals)) {
    const framing = ANSWER_FRAME.exec(before)?.[0];
    if (!question && /不是$/.test(before)) out.push({ kind: 'not', value: animal, words: `不是${animal}` });
    else if (!question && framing) out.push({ kind: 'answer', value: animal, words: `${framing}${animal}` });
    out.push({ kind: 'animal', value: animal, words: animal });
  }
  return out;
}

// ── the rules ─────────────────────────────────────────────────────────────────────────

export const truth: TruthFn<DrawGuessTruthState> = ({ results, state: { game, animals }, heard }) => {
  const verdicts = results.filter((r) => r.name === 'submit_answer').map((r) => (r.result as Resolution)?.verdict);
  const asked = game.asked;
  // Animals by card name (claims carry the card's name, whichever alias was said).
  const revealedNames = new Set(asked.filter((q) => q.status !== 'open').map((q) => q.card.name));
  const currentName = asked.at(-1)?.card.name;
  /** Animals the robot may name: revealed answers, what the child said, what a tool returned (the same rule whatever the cards are). */
  const sayable = new Set([...revealedNames, ...animalsIn(heard, animals).map((a) => a.animal), ...results.flatMap((r) => animalsIn(JSON.stringify(r.result ?? ''), animals).map((a) => a.animal))]);
  const NOT_SAYABLE = '只能说小朋友说过的动物，或者已经揭晓的答案';
  const attempts = new Set<number>(results.map((r) => (r.result as Resolution)?.attempts_left).filter((n): n is number => typeof n === 'number'));
  if (game.phase === 'playing') attempts.add(game.attemptsLeft);

  const rules = {
    claims: (sentence: string) => claimsIn(sentence, animals),
    judge(c: Claim): true | string {
      const v = c.value;
      switch (c.kind) {
        case 'correct':
          return verdicts.includes('correct') || 'submit_answer 这一轮没有返回 correct，不能说答对了';
        case 'wrong':
          return verdicts.includes('wrong') || 'submit_answer 这一轮没有返回 wrong，不能说答错了';
        case 'not':
          if (!verdicts.includes('wrong')) return 'submit_answer 这一轮没有返回 wrong';
          return (v !== currentName && sayable.has(String(v))) || NOT_SAYABLE;
        case 'attempts_left':
          return attempts.has(v as number) || `现在还剩 ${game.phase === 'playing' ? game.attemptsLeft : 0} 次机会，不是 ${String(v)} 次`;
        case 'score':
          return v === game.score || `现在答对了 ${game.score} 题，不是 ${String(v)} 题`;
        case 'total':
          return v === game.total || `一共 ${game.total} 题，不是 ${String(v)} 题`;
        case 'question':
          return ((v as number) >= 1 && (v as number) <= Math.max(1, asked.length)) || `现在是第 ${asked.length} 题`;
        case 'answer':
          return revealedNames.has(String(v)) || '只能说已经揭晓的答案';
        case 'animal':
          return sayable.has(String(v)) || NOT_SAYABLE;
        default:
          return true;
      }
    },
    fallback: () => fallbackLine(results),
  };
  return declaredRules(rules, { who: '你画我猜', can: CLAIMS, facts: factsOf(results, game) });
};

/** The kinds of result 你画我猜 can claim (it judges animals: no 大/小). */
export const CLAIMS: readonly ClaimClass[] = ['verdict', 'score', 'answer', 'over', 'restart', 'next', 'continue'];

/** What this turn did to the session: started it, ended it, or moved on to a new question. */
function factsOf(results: readonly TurnResult[], game: DrawGuessGame): TurnFacts {
  const ok = results.map((r) => ({ name: r.name, r: (r.result ?? {}) as Resolution })).filter(({ r }) => typeof r === 'object' && !('error' in r));
  const over = ok.some(({ name, r }) => name === 'end_game' || r.game_over === true);
  const next = !over && ok.some(({ name, r }) => name === 'skip_question' || r.question_over === true || (name === 'show_drawing' && (r.question ?? 0) > 1));
  return { restarted: ok.some(({ name }) => name === 'start_game'), over, next, continues: game.phase === 'playing' && !over };
}
