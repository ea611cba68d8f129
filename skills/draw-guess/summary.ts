/**
 * 你画我猜 in a parent's words, for 记录: one line per tool call of the game (what the rules and the
 * answer judge decided), e.g. 「猜的是「猫」，不对，还能猜 1 次」, 「答对了！答案揭晓：熊猫」.
 * Pure; found by src/trace/game-summaries.ts.
 */
import type { ToolSummary } from '../../src/core/trace/reading.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export const summarize: ToolSummary = ({ name, result: r }) => {
  const reveal = str(r.answer) ? `答案揭晓：${str(r.answer)}` : '';
  const after = r.game_over ? `，游戏结束，得了 ${r.score} 分（共 ${r.total} 题）` : '';
  switch (name) {
    case 'start_game':
      return `${r.restarted ? '重新开了一局' : '开了一局'}：一共 ${r.total} 题`;
    case 'next_question':
      return `进入第 ${r.question} 题`;
    case 'show_drawing':
      return r.device_completed ? `画了第 ${r.question} 题${r.redrawn ? '（卡住后重画了一次）' : ''}` : `第 ${r.question} 题没画出来（机器人的屏幕出了问题）`;
    case 'submit_answer':
      if (r.verdict === 'correct') return `答对了！${reveal}${after}`;
      if (r.verdict === 'wrong') {
        const said = str(r.heard) ? `猜的是「${str(r.heard)}」，不对` : '猜得不对';
        return r.question_over ? `${said}，${reveal}${after}` : `${said}，还能猜 ${r.attempts_left} 次`;
      }
      return '没听出说的是哪种动物，不算';
    case 'get_hint':
      return typeof r.hint === 'string' ? `给了提示：${r.hint}` : '提示用完了';
    case 'skip_question':
      return `跳过这一题，${reveal}${after}`;
    case 'end_game':
      return r.unanswered ? `不玩了，答案揭晓：${r.unanswered}，得了 ${r.score} 分` : `不玩了，得了 ${r.score ?? 0} 分`;
    default:
      return undefined;
  }
};
