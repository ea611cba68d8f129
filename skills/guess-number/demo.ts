/**
 * 猜数字's scripted "model" for tests, e2e and the demo mode (演示脚本，无模型). Deterministic; it
 * reads only the request (state snapshot, the user's words, this turn's tool results), never the secret.
 */
import type { ScriptPolicy } from '../../src/core/llm/types.ts';
import { call, errorOf, lastOf, readTurn, reply, wantsHint, wantsStop } from '../../src/core/games/demo-kit.ts';
import { guessIn } from './numbers.ts';
import { goodbyeLine, hintLine, startLine, verdictLine } from './truth.ts';

export const policy: ScriptPolicy = (req) => {
  const v = readTurn(req);
  const range = (v.state.range as number[] | undefined) ?? [1, 100];

  if (v.event === 'end' || (v.event === 'message' && wantsStop(v.userText))) {
    const ended = lastOf(v, 'end_game');
    return ended ? reply(goodbyeLine(ended.result)) : call('end_game');
  }

  if (v.event === 'start' || (v.state.phase !== 'playing' && !lastOf(v, 'start_game'))) {
    const started = lastOf(v, 'start_game');
    if (!started) return call('start_game');
    return reply(startLine(started.result as { range: number[]; tries_left: number }));
  }

  if (wantsHint(v.userText)) {
    const hinted = lastOf(v, 'get_hint');
    if (!hinted) return call('get_hint');
    return reply(hintLine(hinted.result as { hint: string | null; still_possible?: string }));
  }

  const guessed = lastOf(v, 'submit_guess');
  if (guessed) {
    const error = errorOf(guessed.result);
    if (error) return reply(/不在/.test(error) ? `要猜 ${range[0]} 到 ${range[1]} 之间的数字哦，再说一个吧。` : '我没听清你猜的数字，再说一遍好吗？');
    return reply(verdictLine(guessed.result as Parameters<typeof verdictLine>[0]));
  }
  const guess = guessIn(v.userText);
  if (guess.kind === 'number') return call('submit_guess', { number: guess.number });
  if (guess.kind === 'ask') return reply(guess.why === 'several' ? '一次只能猜一个数字哦，你猜哪一个？' : '要说一个确切的数字哦，你猜几？');
  return reply(`说一个 ${range[0]} 到 ${range[1]} 之间的数字吧，说“我猜”再加上你想的数字就行。`);
};
