/**
 * 猜数字 in a parent's words, for 记录: one line per tool call of the game (what the rules decided),
 * e.g. 「猜了 50，偏小，还剩 6 次」. Pure; found by src/trace/game-summaries.ts.
 */
import type { ToolSummary } from '../../src/core/trace/reading.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export const summarize: ToolSummary = ({ name, result: r }) => {
  switch (name) {
    case 'start_game': {
      const range = Array.isArray(r.range) ? r.range : [];
      return `${r.restarted ? '重新开了一局' : '开了一局'}：想好了 ${range[0] ?? 1} 到 ${range[1] ?? 100} 之间的一个数，有 ${num(r.tries_left) ?? '?'} 次机会`;
    }
    case 'submit_guess': {
      const n = num(r.number);
      if (r.result === 'already_guessed') return `又猜了 ${n}（以前猜过，不算次数），还剩 ${num(r.tries_left)} 次`;
      if (r.result === 'correct') return `猜了 ${n}，猜对了！用了 ${num(r.tries_used) ?? '?'} 次`;
      const dir = r.result === 'too_big' ? '偏大' : '偏小';
      return r.game_over ? `猜了 ${n}，${dir}，次数用完了，答案揭晓：${num(r.answer)}` : `猜了 ${n}，${dir}，还剩 ${num(r.tries_left)} 次`;
    }
    case 'get_hint':
      return typeof r.hint === 'string' ? `给了提示：${r.hint}` : '提示用完了';
    case 'end_game':
      return num(r.answer) !== undefined ? `不玩了，答案揭晓：${num(r.answer)}` : '不玩了';
    default:
      return undefined;
  }
};
