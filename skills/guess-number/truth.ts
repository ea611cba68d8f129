/**
 * 猜数字's truth rules (src/core/games/truth.ts): which outcomes a sentence may claim, as a pure
 * function of this turn's tool results and the game (the runtime's state, the secret included):
 * - 猜对了 only when `submit_guess` returned `correct` in this turn; 不对 only after a wrong guess of this turn;
 * - 大了 / 小一点 only as `submit_guess` judged the number of THIS turn (never an earlier verdict
 *   for a new guess); 50 大了 only as 50 was judged — and for the number the child said this turn,
 *   only as this turn judged it;
 * - 重新开始 only when this turn started a game; 结束 only when it ended; no 下一题 (no questions);
 * - 还剩 N 次 only with the tries really left; 用了 N 次 only with the guesses made;
 * - 答案是 N, or the secret number at all, only once the answer is revealed (or the child said it);
 * - 比 N 大 / 在 a 到 b 之间 / 单数 only when earlier answers or the hints given say so.
 * The lines built from tool results are here too: the engine says them when the model cannot get
 * a reply right, and the demo brain says them as its replies.
 */
import { isQuestion, NUMBER, numberValue, TIMES_LEFT, verdictClaims, type Claim, type TruthFn, type TurnResult } from '../../src/core/games/truth.ts';
import { declaredRules, type ClaimClass, type TurnFacts } from '../../src/core/games/claim-kinds.ts';
import { numeralMentions } from '../../src/core/speech/numbers.ts';
import { isNumber, numbersIn } from './numbers.ts';
import type { GuessNumberGame } from './rules.ts';

interface Verdict {
  result?: string;
  number?: number;
  tries_left?: number;
  tries_used?: number;
  game_over?: boolean;
  answer?: number;
  earlier?: string;
}

// ── lines built from tool results ─────────────────────────────────────────────────────

export function startLine(r: { range: number[]; tries_left: number }): string {
  return `我想好了一个 ${r.range[0]} 到 ${r.range[1]} 的数字，你有 ${r.tries_left} 次机会，猜猜看吧！`;
}

export function verdictLine(v: Verdict): string {
  const n = v.number;
  switch (v.result) {
    case 'correct':
      return `太棒啦！就是 ${n}！你用了 ${v.tries_used} 次就猜对了！`;
    case 'already_guessed':
      return `${n} 你已经猜过啦！它${v.earlier === 'too_big' ? '大了' : '小了'}，换一个数字吧。还有 ${v.tries_left} 次机会。`;
    case 'too_big':
    case 'too_small': {
      const dir = v.result === 'too_big' ? '大了' : '小了';
      if (v.game_over) return `${n} ${dir}。次数用完啦，答案是 ${v.answer}。没关系，下次一定能猜中！`;
      return `${n} ${dir}！再${v.result === 'too_big' ? '小' : '大'}一点哦，还有 ${v.tries_left} 次机会。`;
    }
    default:
      return '我们再猜一次吧！';
  }
}

export function hintLine(h: { hint: string | null; still_possible?: string }): string {
  return h.hint ? `好，给你一个提示！${h.hint}` : `提示用完啦！它${h.still_possible ?? ''}，加油！`;
}

export function goodbyeLine(result: unknown): string {
  const answer = (result as { answer?: number | null } | undefined)?.answer;
  return typeof answer === 'number' ? `好的，这局先玩到这里。答案是 ${answer}，下次再来玩吧！` : '好的，下次再来玩猜数字吧！';
}

/** The true line of this turn's tool results (the fallback, the rules' first words), or null. */
export function fallbackLine(results: readonly TurnResult[]): string | null {
  const lines = results.map(lineFor).filter((l): l is string => !!l);
  return lines.length ? lines.join('') : null;
}

function lineFor(r: TurnResult): string | null {
  const res = r.result as Record<string, unknown> | undefined;
  if (!res || typeof res !== 'object' || 'error' in res) return null;
  switch (r.name) {
    case 'start_game':
      return startLine(res as { range: number[]; tries_left: number });
    case 'submit_guess':
      return verdictLine(res as Verdict);
    case 'get_hint':
      return hintLine(res as { hint: string | null; still_possible?: string });
    case 'end_game':
      return goodbyeLine(res);
    default:
      return null;
  }
}

// ── claims ────────────────────────────────────────────────────────────────────────────


type Pattern = [kind: string, re: RegExp, value?: (m: RegExpMatchArray) => number];

const PATTERNS: Pattern[] = [
  ['guess_too_big', new RegExp(`${NUMBER}\\s*(?:猜)?(?:有点|还是|偏|太)?(?:大了|大啦|太大|偏大)`, 'g'), (m) => numberValue(m[1])],
  ['guess_too_small', new RegExp(`${NUMBER}\\s*(?:猜)?(?:有点|还是|偏|太)?(?:小了|小啦|太小|偏小)`, 'g'), (m) => numberValue(m[1])],
  ['too_big', /(猜大了|大了|大啦|太大了|偏大|小一点|小一些|小点|往小|再小)/g],
  ['too_small', /(猜小了|小了|小啦|太小了|偏小|大一点|大一些|大点|往大|再大)/g],
  ['above', new RegExp(`比\\s*${NUMBER}\\s*大`, 'g'), (m) => numberValue(m[1])],
  ['below', new RegExp(`比\\s*${NUMBER}\\s*小`, 'g'), (m) => numberValue(m[1])],
  ['tries_left', TIMES_LEFT, (m) => numberValue(m[1])],
  ['tries_left', /最后一次/g, () => 1],
  ['tries_left', /(次数|机会)(已经)?(用完|没有了|没了)/g, () => 0],
  ['tries_used', new RegExp(`用了\\s*${NUMBER}\\s*次`, 'g'), (m) => numberValue(m[1])],
  ['answer', new RegExp(`(?:(?:答案|谜底|我想的数字|我想的|这个数字|数字)(?:就)?是|就是)\\s*${NUMBER}(?![位次个\\d])(?!\\s*(?:到|至))`, 'g'), (m) => numberValue(m[1])],
  ['between', new RegExp(`${NUMBER}\\s*(?:到|至|~|-)\\s*${NUMBER}`, 'g')],
  ['parity', /(单数|双数|奇数|偶数)/g],
];

function claimsIn(text: string): Claim[] {
  const sentence = text.normalize('NFKC');
  const out: Claim[] = verdictClaims(sentence);
  const taken: Array<[number, number]> = [];
  const inside = (at: number) => taken.some(([a, b]) => at >= a && at < b);
  // A question claims no outcome; it may still name a number (checked below).
  for (const [kind, re, value] of isQuestion(sentence) ? [] : PATTERNS) {
    for (const m of sentence.matchAll(re)) {
      const at = m.index ?? 0;
      // "50 大了" is one claim (about 50), not also a bare "大了".
      if (inside(at)) continue;
      taken.push([at, at + m[0].length]);
      if (kind === 'between') out.push({ kind, value: `${numberValue(m[1])}-${numberValue(m[2])}`, words: m[0] });
      else out.push({ kind, words: m[0], ...(value ? { value: value(m) } : kind === 'parity' ? { value: m[1] } : {}) });
    }
  }
  // Any other number said: checked only so that the secret is never named before it is revealed.
  for (const m of numeralMentions(sentence)) if (!inside(m.index) && isNumber(m)) out.push({ kind: 'number', value: m.value, words: m.raw });
  return out;
}

// ── the rules ─────────────────────────────────────────────────────────────────────────

/** What the game knows for sure about the secret: from every judged guess and every hint given. */
function knownBounds(game: GuessNumberGame): { low: number; high: number } {
  let { low, high } = game.known;
  for (const h of game.hints) {
    for (const m of h.matchAll(new RegExp(`比\\s*${NUMBER}\\s*大`, 'g'))) low = Math.max(low, numberValue(m[1]) + 1);
    for (const m of h.matchAll(new RegExp(`比\\s*${NUMBER}\\s*小`, 'g'))) high = Math.min(high, numberValue(m[1]) - 1);
  }
  return { low, high };
}

const PARITY: Record<string, string> = { 单数: '单数', 奇数: '单数', 双数: '双数', 偶数: '双数' };
const dirWord = (r: string | undefined) => (r === 'too_big' ? '大了' : r === 'too_small' ? '小了' : '猜对了');

export const truth: TruthFn<GuessNumberGame> = ({ results, state: game, heard }) => {
  const guesses = results.filter((r) => r.name === 'submit_guess').map((r) => r.result as Verdict);
  const judged = guesses.at(-1);
  /** The verdict a bare "大了" speaks of: this turn's guess only (an earlier verdict is not about the new number). */
  const lastVerdict = judged ? (judged.result === 'already_guessed' ? judged.earlier : judged.result) : undefined;
  /** This turn's verdict of each number it judged. */
  const judgedNow = new Map<number, string | undefined>(guesses.filter((g) => typeof g.number === 'number').map((g) => [g.number!, g.result === 'already_guessed' ? g.earlier : g.result]));
  const saidNow = new Set(numbersIn(heard));
  const secret = game.peekSecret();
  const { min, max } = game.config;
  /** Numbers the robot may say before the answer is revealed: said by the child, guessed, in the rules or a tool's result. */
  const spoken = new Set<number>([...numbersIn(heard), ...game.guesses.map((g) => g.number), min, max, game.config.maxTries, game.triesLeft, ...game.hints.flatMap(numbersIn), ...results.flatMap((r) => numbersIn(JSON.stringify(r.result ?? '')))]);

  const rules = {
    claims: claimsIn,
    judge(c: Claim): true | string {
      const v = c.value as number;
      switch (c.kind) {
        case 'correct':
          return guesses.some((g) => g.result === 'correct') || 'submit_guess 这一轮没有返回 correct，不能说猜对了';
        case 'wrong':
          if (!guesses.some((g) => g.result && g.result !== 'correct')) return '这一轮 submit_guess 没有判定一个猜错的数字，不能说不对';
          return (!guesses.some((g) => g.result === 'correct') && game.phase !== 'won') || '这一轮 submit_guess 返回的是 correct';
        case 'guess_too_big':
        case 'guess_too_small': {
          const want = c.kind === 'guess_too_big' ? 'too_big' : 'too_small';
          // The number the child said this turn: only this turn's verdict of it speaks for it.
          if (saidNow.has(v) && !judgedNow.has(v)) return `${v} 这一轮还没有判定`;
          const result = judgedNow.has(v) ? judgedNow.get(v) : game.guesses.find((x) => x.number === v)?.result;
          if (!result) return `${v} 还没有判定过`;
          return result === want || `${v} 判定的是${dirWord(result)}`;
        }
        case 'too_big':
        case 'too_small':
          if (!lastVerdict) return '这一轮还没有判定数字，不能说大了或小了';
          return lastVerdict === c.kind || `这一轮判定的是${dirWord(lastVerdict)}`;
        case 'above':
          return v < knownBounds(game).low || `没有判定说明答案比 ${v} 大`;
        case 'below':
          return v > knownBounds(game).high || `没有判定说明答案比 ${v} 小`;
        case 'between': {
          const [a, b] = String(c.value).split('-').map(Number);
          if (a === min && b === max) return true;
          const k = knownBounds(game);
          return (a <= k.low && b >= k.high) || `没有判定说明答案在 ${a} 到 ${b} 之间`;
        }
        case 'tries_left':
          return v === game.triesLeft || `现在还剩 ${game.triesLeft} 次机会，不是 ${v} 次`;
        case 'tries_used':
          return v === game.guesses.length || `一共猜了 ${game.guesses.length} 次，不是 ${v} 次`;
        case 'answer':
          if (!game.revealed) return '答案还没有揭晓，不能说出答案';
          return v === secret || `答案是 ${String(secret)}，不是 ${v}`;
        case 'parity': {
          const told = game.hints.map((h) => Object.keys(PARITY).find((w) => h.includes(w))).find(Boolean);
          if (!told) return '没有给过单双数的提示';
          return PARITY[String(c.value)] === PARITY[told] || `提示说的是${PARITY[told]}`;
        }
        case 'number':
          // Whatever the secret is, the same rule (a refusal never tells the model which number is the answer).
          return game.revealed || spoken.has(v) || '只能说小朋友说过的数字、猜过的数字和工具返回的数字';
        default:
          return true;
      }
    },
    fallback: () => fallbackLine(results),
  };
  return declaredRules(rules, { who: '猜数字', can: CLAIMS, facts: factsOf(results, game) });
};

/** The kinds of result 猜数字 can claim (no questions, so no 下一题). */
export const CLAIMS: readonly ClaimClass[] = ['direction', 'verdict', 'answer', 'over', 'restart', 'continue'];

/** What this turn did to the session: started it, ended it (won, out of tries, ended), or left it running. */
function factsOf(results: readonly TurnResult[], game: GuessNumberGame): TurnFacts {
  const ok = results.filter((r) => r.result && typeof r.result === 'object' && !('error' in (r.result as object)));
  const over = ok.some((r) => r.name === 'end_game' || (r.result as Verdict).game_over === true || (r.result as Verdict).result === 'correct') || (ok.length > 0 && game.revealed);
  return { restarted: ok.some((r) => r.name === 'start_game'), over, continues: game.phase === 'playing' && !over };
}
