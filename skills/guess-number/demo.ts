/**
 * 猜数字's scripted "model" for tests, e2e and the demo mode (演示脚本，无模型). Deterministic; it
 * reads only the request (state snapshot, the user's words, this turn's tool results), never the secret.
 */
import type { ScriptPolicy } from '../../src/core/llm/types.ts';
import { call, errorOf, lastOf, readTurn, reply, wantsHint, wantsStop } from '../../src/core/games/demo-kit.ts';
import { numbersIn } from './numbers.ts';

interface Verdict {
  result?: string;
  number?: number;
  tries_left?: number;
  tries_used?: number;
  game_over?: boolean;
  answer?: number;
  earlier?: string;
}

function goodbye(result: unknown): string {
  const answer = (result as { answer?: number | null } | undefined)?.answer;
  return typeof answer === 'number' ? `好的，这局先玩到这里。答案是 ${answer}，下次再来玩吧！` : '好的，下次再来玩猜数字吧！';
}

function sayVerdict(v: Verdict): string {
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

export const policy: ScriptPolicy = (req) => {
  const v = readTurn(req);
  const range = (v.state.range as number[] | undefined) ?? [1, 100];

  if (v.event === 'end' || (v.event === 'message' && wantsStop(v.userText))) {
    const ended = lastOf(v, 'end_game');
    return ended ? reply(goodbye(ended.result)) : call('end_game');
  }

  if (v.event === 'start' || (v.state.phase !== 'playing' && !lastOf(v, 'start_game'))) {
    const started = lastOf(v, 'start_game');
    if (!started) return call('start_game');
    const r = started.result as { range: number[]; tries_left: number };
    return reply(`我想好了一个 ${r.range[0]} 到 ${r.range[1]} 的数字，你有 ${r.tries_left} 次机会，猜猜看吧！`);
  }

  if (wantsHint(v.userText)) {
    const hinted = lastOf(v, 'get_hint');
    if (!hinted) return call('get_hint');
    const h = hinted.result as { hint: string | null; still_possible?: string };
    return reply(h.hint ? `好，给你一个提示！${h.hint}` : `提示用完啦！它${h.still_possible ?? ''}，加油！`);
  }

  const guessed = lastOf(v, 'submit_guess');
  if (guessed) {
    const error = errorOf(guessed.result);
    if (error) return reply(/不在/.test(error) ? `要猜 ${range[0]} 到 ${range[1]} 之间的数字哦，再说一个吧。` : '我没听清你猜的数字，再说一遍好吗？');
    return reply(sayVerdict(guessed.result as Verdict));
  }
  const said = numbersIn(v.userText);
  if (said.length > 0) return call('submit_guess', { number: said[said.length - 1] });
  return reply(`说一个 ${range[0]} 到 ${range[1]} 之间的数字吧，比如“我猜五十”。`);
};
