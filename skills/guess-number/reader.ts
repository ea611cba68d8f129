/**
 * 猜数字's reader (src/core/games/reader.ts): what the rules read in a turn without doubt.
 * - `start` (or no game yet) → `start_game`; `end`, or words that stop the game → `end_game`;
 * - exactly one number said as a number, in range → `submit_guess` (numbers.ts reads the words:
 *   「一个」「一下」「两个数」「六十多」 are never a guess); a hint asked for, no number → `get_hint`;
 * - anything else (several numbers, about a number, out of range, chat) → nothing: the model asks.
 * The end after the last try needs no call: `submit_guess` ends the game and its line tells the answer.
 * The rules brain is this reader with the lines of truth.ts (demo.ts).
 */
import { call, errorOf, lastOf, wantsHint, wantsStop, type TurnView } from '../../src/core/games/demo-kit.ts';
import type { GameReader, GameRules } from '../../src/core/games/reader.ts';
import { guessIn } from './numbers.ts';
import { fallbackLine } from './truth.ts';

function rangeOf(v: TurnView): [number, number] {
  const r = v.state.range as number[] | undefined;
  return Array.isArray(r) && r.length === 2 ? [r[0], r[1]] : [1, 100];
}

const stopping = (v: TurnView) => v.event === 'end' || (v.event === 'message' && wantsStop(v.userText));
const starting = (v: TurnView) => v.event === 'start' || v.state.phase !== 'playing';

export const read: GameReader = (v) => {
  if (stopping(v)) return lastOf(v, 'end_game') ? null : call('end_game');
  if (starting(v)) return lastOf(v, 'start_game') ? null : call('start_game');
  // Each input is judged at most once.
  if (lastOf(v, 'submit_guess') || lastOf(v, 'get_hint')) return null;
  const guess = guessIn(v.userText);
  if (guess.kind === 'number') {
    const [min, max] = rangeOf(v);
    return guess.number >= min && guess.number <= max ? call('submit_guess', { number: guess.number }) : null;
  }
  if (guess.kind === 'none' && wantsHint(v.userText)) return call('get_hint');
  return null;
};

/** What the rules say last: the next prompt after a true line, or what to ask when nothing was decided. */
export function nextPrompt(v: TurnView): string {
  const [min, max] = rangeOf(v);
  const ended = lastOf(v, 'end_game');
  const guessed = lastOf(v, 'submit_guess');
  const verdict = guessed?.result as { result?: string; game_over?: boolean } | undefined;
  if (ended) return '拜拜！';
  if (verdict?.result === 'correct' || verdict?.game_over) return '下次再一起玩吧！';
  if (lastOf(v, 'start_game')) return '说“我猜”再加上一个数字就行。';
  if (guessed) {
    const error = errorOf(guessed.result);
    if (!error) return '再猜一个吧！';
    return /不在/.test(error) ? `要猜 ${min} 到 ${max} 之间的数字哦，再说一个吧。` : '我没听清你猜的数字，再说一遍好吗？';
  }
  if (lastOf(v, 'get_hint')) return '再猜一个吧！';
  if (starting(v)) return '说“开始”就能玩猜数字。';
  const guess = guessIn(v.userText);
  if (guess.kind === 'number') return `要猜 ${min} 到 ${max} 之间的数字哦，再说一个吧。`;
  if (guess.kind === 'ask') return guess.why === 'several' ? '一次只能猜一个数字哦，你猜哪一个？' : '要说一个确切的数字哦，你猜几？';
  return `说一个 ${min} 到 ${max} 之间的数字吧，说“我猜”再加上你想的数字就行。`;
}

export const rules: GameRules = { read, line: fallbackLine, nextPrompt };
