/**
 * 你画我猜's reader (src/core/games/reader.ts): what the rules read in a turn without doubt.
 * - `start` (or no game yet) → `start_game` (it shows the progress), then the card: `show_drawing`;
 * - `end`, or words that stop the game → `end_game`;
 * - during a question: a hint asked for → `get_hint`; 换一个 / 跳过 → `skip_question`; any other
 *   words → `submit_answer` with the child's words (JEV judges them, once);
 * - the continuation after a result: a right answer, the last try used, a skip (or a question the
 *   model had left over) → `next_question` (it shows the progress), `show_drawing`, so a slow model never
 *   leaves the child without the next picture; a picture the robot could not draw → `get_hint`.
 * The rules brain is this reader with the lines of truth.ts (demo.ts).
 */
import { call, errorOf, lastOf, wantsHint, wantsSkip, wantsStop, type TurnView } from '../../src/core/games/demo-kit.ts';
import type { GameReader, GameRules } from '../../src/core/games/reader.ts';
import type { Step } from '../../src/core/llm/types.ts';
import { fallbackLine, type Resolution } from './truth.ts';

const stopping = (v: TurnView) => v.event === 'end' || (v.event === 'message' && wantsStop(v.userText));

/** The card's drawing on the robot (start_game and next_question put its progress there first: one picture area, the drawing last). */
function draw(v: TurnView): Step | null {
  const drawn = lastOf(v, 'show_drawing');
  if (!drawn) return call('show_drawing');
  // Never "画好啦" over a picture the child cannot see: a hint instead, so they can still guess.
  if ((drawn.result as Resolution | undefined)?.device_completed === false && !lastOf(v, 'get_hint')) return call('get_hint');
  return null;
}

/** This turn's result that closed the question, if any. */
function closing(v: TurnView): Resolution | undefined {
  for (const name of ['submit_answer', 'skip_question']) {
    const r = lastOf(v, name)?.result as Resolution | undefined;
    if (r && !errorOf(r) && (r.question_over || r.game_over || r.verdict === 'correct' || name === 'skip_question')) return r;
  }
  return undefined;
}

export const read: GameReader = (v) => {
  if (stopping(v)) return lastOf(v, 'end_game') ? null : call('end_game');
  if (v.event === 'start' || v.state.phase === 'ready' || lastOf(v, 'start_game')) return lastOf(v, 'start_game') ? draw(v) : call('start_game');
  const over = closing(v);
  const current = v.state.current as { status?: string } | undefined;
  if (over || (current?.status && current.status !== 'open')) {
    if (over?.game_over) return null;
    return lastOf(v, 'next_question') ? draw(v) : call('next_question');
  }
  // Each input is judged at most once.
  if (lastOf(v, 'submit_answer') || lastOf(v, 'get_hint')) return null;
  if (wantsHint(v.userText)) return call('get_hint');
  if (wantsSkip(v.userText)) return call('skip_question');
  if (!v.userText.trim()) return null;
  return call('submit_answer', { text: v.userText });
};

/** What the rules say last: the next prompt after a true line, or what to ask when nothing was decided. */
export function nextPrompt(v: TurnView): string {
  if (lastOf(v, 'end_game')) return '拜拜！';
  if (closing(v)?.game_over) return '谢谢你陪我玩！';
  const judged = lastOf(v, 'submit_answer');
  if (judged && errorOf(judged.result)) return '我没听清楚，你再说一遍好吗？';
  const drawn = lastOf(v, 'show_drawing')?.result as Resolution | undefined;
  if (drawn) return drawn.device_completed ? '说出它的名字就行！' : '你猜是什么动物？';
  if (lastOf(v, 'get_hint')) return '再想想看！';
  return '你猜是什么动物？';
}

export const rules: GameRules = { read, line: fallbackLine, nextPrompt };
