/**
 * 你画我猜's scripted "model" for tests, e2e and the demo mode (演示脚本，无模型). Deterministic; it
 * reads only the request (state snapshot, the user's words, this turn's tool results). It cannot
 * know the animal: it learns a name only when a tool reveals it.
 */
import type { ScriptPolicy, Step } from '../../src/core/llm/types.ts';
import { call, errorOf, lastOf, readTurn, reply, wantsHint, wantsSkip, wantsStop, type TurnView } from '../../src/core/games/demo-kit.ts';
import { askLine, endLine, hintLine, summaryLine, UNCLEAR_LINE, wrongLine, type Resolution } from './truth.ts';

/** Once drawn: ask about the picture — or, when the robot could not draw it, never "画好啦" but a hint, so the child can still guess. */
function askAboutDrawing(v: TurnView): Step {
  const drawn = lastOf(v, 'show_drawing')!;
  const p = lastOf(v, 'show_progress')!.result as { question: number };
  if ((drawn.result as { device_completed?: boolean }).device_completed === false) {
    const h = lastOf(v, 'get_hint');
    if (!h) return call('get_hint');
    const hint = (h.result as { hint?: string | null }).hint;
    return reply(`机器人今天画不出这幅画。第 ${p.question} 题，我说给你听：${hint ?? '它是一种小动物。'}你猜是什么动物？`);
  }
  return reply(askLine(p.question));
}

/**
 * Draw the (next) picture: say → show_progress → show_drawing → ask. The progress card goes first:
 * the robot has one picture area, so the drawing must be the last thing shown while the child guesses.
 */
function drawAndAsk(v: TurnView, opening: string): Step {
  const said = lastOf(v, 'say');
  if (!said) return call('say', { text: opening });
  if (!lastOf(v, 'show_progress')) return call('show_progress');
  if (!lastOf(v, 'show_drawing')) return call('show_drawing');
  return askAboutDrawing(v);
}

/**
 * After a question is over: the game's end, or on to the next question — the verdict said first
 * (`say` before `next_question`), so the child hears it while the next picture is prepared.
 */
function afterQuestion(v: TurnView, r: Resolution, praise: string): Step {
  if (r.game_over) return reply(`${praise}${summaryLine(r.score ?? 0, r.total ?? 0)}`);
  if (!lastOf(v, 'say')) return call('say', { text: `${praise}下一题来咯，看我画！` });
  if (!lastOf(v, 'next_question')) return call('next_question');
  if (!lastOf(v, 'show_progress')) return call('show_progress');
  if (!lastOf(v, 'show_drawing')) return call('show_drawing');
  return askAboutDrawing(v);
}

export const policy: ScriptPolicy = (req) => {
  const v = readTurn(req);

  if (v.event === 'end' || (v.event === 'message' && wantsStop(v.userText))) {
    const ended = lastOf(v, 'end_game');
    if (!ended) return call('end_game');
    return reply(endLine(ended.result as { score?: number; unanswered?: string }));
  }

  if (v.event === 'start' || v.state.phase === 'ready' || lastOf(v, 'start_game')) {
    if (!lastOf(v, 'start_game')) return call('start_game');
    return drawAndAsk(v, '我来画一个小动物，你猜猜是什么！');
  }

  const current = v.state.current as { status?: string; answer?: string } | undefined;
  // The previous question is over (the model had not moved on yet): move on now.
  if (current?.status && current.status !== 'open') {
    return afterQuestion(v, {}, '');
  }

  if (wantsHint(v.userText)) {
    const h = lastOf(v, 'get_hint');
    if (!h) return call('get_hint');
    return reply(hintLine((h.result as { hint: string | null }).hint));
  }

  if (wantsSkip(v.userText)) {
    const s = lastOf(v, 'skip_question');
    if (!s) return call('skip_question');
    const r = s.result as Resolution;
    return afterQuestion(v, r, `这一题是${r.answer}。`);
  }

  const judged = lastOf(v, 'submit_answer');
  if (!judged) return call('submit_answer', { text: v.userText });
  if (errorOf(judged.result)) return reply('我没听清楚，你再说一遍好吗？');
  const r = judged.result as Resolution;
  switch (r.verdict) {
    case 'correct':
      return afterQuestion(v, r, `答对啦！就是${r.answer}！`);
    case 'wrong':
      if (r.question_over) return afterQuestion(v, r, `答案是${r.answer}，没关系！`);
      return reply(wrongLine(r.heard, r.attempts_left ?? 0));
    default:
      return reply(UNCLEAR_LINE);
  }
};
