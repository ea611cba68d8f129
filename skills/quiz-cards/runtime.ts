/**
 * Runtime code of 问答卡牌's `executor: code` run skills. The answer stays here, in code:
 * `judge-answer` compares the child's words with the current card through the JEV judge and
 * reveals the answer only when the card is over; `keep-score` applies the accepted rules.
 */
import { judge as jevJudge, type JevTarget } from '../../src/game/jev/index.ts';
import type { CodeExecutor } from '../../src/studio/phase-runtime.ts';

interface Card { id: string; answer: string; aliases?: string[]; hints?: string[] }
interface Progress { 第几张?: number; 已用?: string[]; 本卡猜?: number; 本卡提示?: number }
interface Rules { 轮数?: number; 答对得分?: number; 提示后答对得分?: number; 每张最多提示?: number; 每张最多猜?: number }
interface Verdict { 结果: '对' | '错' | '不知道'; 答案?: string }

const GIVE_UP = /不知道|不会|猜不到|想不出|告诉我|放弃/;

export function createCodeExecutors(judge: typeof jevJudge = jevJudge): Record<string, CodeExecutor> {
  return {
    'judge-answer': (r) => {
      const deck = (r['设计.卡牌'] ?? []) as Card[];
      const cur = r['运行.当前卡'] as { id?: string } | undefined;
      const p = (r['运行.进度'] ?? {}) as Progress;
      const rules = (r['设计.规则'] ?? {}) as Rules;
      const text = String(r['运行.玩家输入'] ?? '');
      const card = deck.find((c) => c.id === cur?.id);
      if (!card) return { '运行.判定': { 结果: '不知道' }, '运行.进度': p };
      const vocabulary: JevTarget[] = deck.map((c) => ({ name: c.answer, aliases: c.aliases ?? [] }));
      const v = judge(text, { name: card.answer, aliases: card.aliases ?? [] }, vocabulary);
      const tries = (p.本卡猜 ?? 0) + 1;
      const result: Verdict['结果'] = v.verdict === 'correct' ? '对' : v.verdict === 'wrong' ? '错' : GIVE_UP.test(text) ? '不知道' : '错';
      const hintsLeft = (p.本卡提示 ?? 0) < Math.min(rules.每张最多提示 ?? 2, card.hints?.length ?? 0);
      const over = result !== '对' && (tries >= (rules.每张最多猜 ?? 3) || !hintsLeft);
      const verdict: Verdict = over ? { 结果: result, 答案: card.answer } : { 结果: result };
      return { '运行.判定': verdict, '运行.进度': { ...p, 本卡猜: tries } };
    },
    'keep-score': (r) => {
      const v = (r['运行.判定'] ?? { 结果: '不知道' }) as Verdict;
      const s = (r['运行.得分'] ?? { 得分: 0, 答对: 0 }) as { 得分: number; 答对: number };
      const rules = (r['设计.规则'] ?? {}) as Rules;
      const p = (r['运行.进度'] ?? {}) as Progress;
      const right = v.结果 === '对';
      const gained = right ? ((p.本卡提示 ?? 0) > 0 ? (rules.提示后答对得分 ?? 1) : (rules.答对得分 ?? 2)) : 0;
      const played = p.已用?.length ?? 0;
      const cardOver = right || v.答案 !== undefined;
      return {
        '运行.得分': { 得分: s.得分 + gained, 答对: s.答对 + (right ? 1 : 0), 已出: played, 轮数: rules.轮数 ?? 5, 结束: cardOver && played >= (rules.轮数 ?? 5) },
      };
    },
  };
}
