/**
 * 问答 and 猜谜语: `judge-answer` compares the child's words with the current card through the JEV
 * judge and reveals the answer only when the card is over; `keep-score` counts (2 points, 1 after
 * a hint); `present-card`, `give-hint` and `wrap-up` pick the next card / hint and say it with the
 * parent-accepted prompt, hints and host lines. The wrap-up is honest: a game left early says how
 * many were right and "下次接着玩", never praise for nothing.
 */
import { judge as jevJudge, type JevTarget } from '../../src/core/jev/index.ts';
import type { CodeExecutor } from '../../src/core/studio/types.ts';
import { closing, first, opening, roundsOf, type Persona, type Score } from './shared.ts';
import { GIVE_UP } from './reader.ts';

interface Card { id: string; prompt?: string; answer: string; aliases?: string[]; hints?: string[]; difficulty?: number }
interface Progress { 第几张?: number; 已用?: string[]; 本卡猜?: number; 本卡提示?: number }
/** `卡`: the card judged, so a later skill knows whether the verdict is about the card still on the table. */
interface Verdict { 结果: '对' | '错' | '不知道'; 答案?: string; 卡?: string }

/** Kid-friendly fixed rules: tries and hints per card, points right away / after a hint. */
export const QUIZ_RULES = { 每张最多猜: 3, 每张最多提示: 2, 答对得分: 2, 提示后答对得分: 1 } as const;



/** What to say first about the card just judged, if it is over (right or revealed) and still current. */
function verdictWords(v: Verdict | undefined, currentId: string | undefined, right: string): string {
  if (!v || v.卡 === undefined || v.卡 !== currentId) return '';
  if (v.结果 === '对') return right;
  return v.答案 ? `${v.结果 === '错' ? '不对哦，' : ''}答案是「${v.答案}」。` : '';
}

/** A card is over once it was answered right or its answer was told. */
const cardIsOver = (v: Verdict): boolean => v.结果 === '对' || v.答案 !== undefined;

/** The tally of a whole game, praise in proportion; "一张也没猜中" gets comfort, not praise. */
function tally(s: Partial<Score>): string {
  const right = s.答对 ?? 0;
  const played = s.已出 ?? 0;
  if (right > 0 && right >= played) return `你答对了 ${right} 张，一张不落，得了 ${s.得分 ?? 0} 分，真了不起！`;
  if (right > 0) return `你答对了 ${right} 张（一共 ${played} 张），得了 ${s.得分 ?? 0} 分，真棒！`;
  return '这次一张也没猜中，没关系，多玩几次就会啦！';
}

/** `judge-answer`: the child's words against the current card (JEV), its tries counted; a card is judged until it is over. */
function judgeAnswer(judge: typeof jevJudge): CodeExecutor {
  return (r) => {
    const deck = (r['设计.卡牌'] ?? []) as Card[];
    const cur = r['运行.当前卡'] as { id?: string } | undefined;
    const p = (r['运行.进度'] ?? {}) as Progress;
    const text = String(r['运行.玩家输入'] ?? '');
    const card = deck.find((c) => c.id === cur?.id);
    if (!card) return { '运行.判定': { 结果: '不知道' }, '运行.进度': p };
    // A card is judged until it is over: words after a right answer or a revealed answer, with the
    // same card still on the table, get the verdict it already has and count no try.
    const before = r['运行.判定'] as Verdict | undefined;
    if (before?.卡 === card.id && cardIsOver(before)) return { '运行.判定': before, '运行.进度': p };
    const vocabulary: JevTarget[] = deck.map((c) => ({ name: c.answer, aliases: c.aliases ?? [] }));
    const v = judge(text, { name: card.answer, aliases: card.aliases ?? [] }, vocabulary);
    const tries = (p.本卡猜 ?? 0) + 1;
    const result: Verdict['结果'] = v.verdict === 'correct' ? '对' : v.verdict === 'wrong' ? '错' : GIVE_UP.test(text) ? '不知道' : '错';
    // Every card gets its tries, with a hint or without one (a card with no hint: 「不对」 and another try).
    const over = result !== '对' && tries >= QUIZ_RULES.每张最多猜;
    const verdict: Verdict = over ? { 结果: result, 答案: card.answer, 卡: card.id } : { 结果: result, 卡: card.id };
    return { '运行.判定': verdict, '运行.进度': { ...p, 本卡猜: tries } };
  };
}

export function quizExecutors(judge: typeof jevJudge = jevJudge): Record<string, CodeExecutor> {
  return {
    'judge-answer': judgeAnswer(judge),
    'keep-score': (r) => {
      const v = (r['运行.判定'] ?? { 结果: '不知道' }) as Verdict;
      const s = (r['运行.得分'] ?? { 得分: 0, 答对: 0 }) as Score;
      const p = (r['运行.进度'] ?? {}) as Progress;
      // Never more rounds than cards: a deck of 3 is a game of 3.
      const rounds = Math.min(roundsOf(r['设计.交互范式']), Math.max(1, ((r['设计.卡牌'] ?? []) as Card[]).length));
      // A card scores once: `计分卡` is the card last counted, so a verdict repeated for it adds nothing.
      const counted = v.卡 !== undefined && v.卡 === s.计分卡;
      const right = v.结果 === '对' && !counted;
      const gained = right ? ((p.本卡提示 ?? 0) > 0 ? QUIZ_RULES.提示后答对得分 : QUIZ_RULES.答对得分) : 0;
      const played = p.已用?.length ?? 0;
      const cardOver = cardIsOver(v);
      const scored = cardOver ? v.卡 : s.计分卡;
      return { '运行.得分': { 得分: s.得分 + gained, 答对: s.答对 + (right ? 1 : 0), 已出: played, 轮数: rounds, 结束: cardOver && played >= rounds, ...(scored === undefined ? {} : { 计分卡: scored }) } };
    },
    'present-card': (r) => {
      const deck = (r['设计.卡牌'] ?? []) as Card[];
      if (deck.length === 0) throw new Error('设计.卡牌 是空的');
      const p = (r['运行.进度'] ?? {}) as Progress;
      const role = (r['设计.角色'] ?? {}) as Persona;
      const cur = r['运行.当前卡'] as { id?: string } | undefined;
      const used = p.已用 ?? [];
      // Easy cards first (stable: deck order among equals); when every card was used, start over.
      const byDifficulty = deck.map((c, i) => ({ c, i })).sort((a, b) => (a.c.difficulty ?? 2) - (b.c.difficulty ?? 2) || a.i - b.i).map((x) => x.c);
      const card = byDifficulty.find((c) => !used.includes(c.id)) ?? byDifficulty[used.length % byDifficulty.length];
      const n = used.length + 1;
      const before = verdictWords(r['运行.判定'] as Verdict | undefined, cur?.id, '答对了！');
      const hello = used.length === 0 ? opening(role) : '';
      return {
        '运行.当前卡': { id: card.id },
        '运行.进度': { 第几张: n, 已用: [...used, card.id], 本卡猜: 0, 本卡提示: 0 },
        '运行.回复': `${before}${hello}第${n}题：${card.prompt ?? ''}`,
      };
    },
    'give-hint': (r) => {
      const deck = (r['设计.卡牌'] ?? []) as Card[];
      const cur = r['运行.当前卡'] as { id?: string } | undefined;
      const p = (r['运行.进度'] ?? {}) as Progress;
      const role = (r['设计.角色'] ?? {}) as Persona;
      const card = deck.find((c) => c.id === cur?.id);
      const hints = card?.hints ?? [];
      const k = p.本卡提示 ?? 0;
      // A hint while the card has one left (at most 每张最多提示); after that, or with none, another try.
      const left = k < Math.min(QUIZ_RULES.每张最多提示, hints.length);
      const hint = left ? `提示：${hints[k]}。` : '再想一想。';
      const wrong = (r['运行.判定'] as Verdict | undefined)?.结果 === '错' ? '不对哦。' : '';
      return { '运行.进度': { ...p, 本卡提示: left ? k + 1 : k }, '运行.回复': `${wrong}${first(role.安慰语, '没关系，')}${hint}再猜猜看！` };
    },
    'wrap-up': (r) => {
      const s = (r['运行.得分'] ?? {}) as Partial<Score>;
      const role = (r['设计.角色'] ?? {}) as Persona;
      const cur = r['运行.当前卡'] as { id?: string } | undefined;
      const before = verdictWords(r['运行.判定'] as Verdict | undefined, cur?.id, first(role.鼓励语, '太棒了！'));
      if (s.结束) return { '运行.回复': `${before}${tally(s)}${closing(role, '下次再玩！')}` };
      // Left before the last round: how it went, honestly, and an invitation.
      const right = s.答对 ?? 0;
      return { '运行.回复': `${before}${right > 0 ? `今天答对了 ${right} 张，` : '好的，今天就玩到这里，'}下次接着玩！` };
    },
  };
}
