/**
 * 你画我猜's scripted "model" for tests, e2e and the demo mode (演示脚本，无模型). Deterministic; it
 * reads only the request (state snapshot, the user's words, this turn's tool results). It cannot
 * know the animal: it learns a name only when a tool reveals it.
 */
import type { ScriptPolicy, Step } from '../../src/core/llm/types.ts';
import { call, errorOf, lastOf, readTurn, reply, wantsHint, wantsSkip, wantsStop, type TurnView } from '../../src/core/games/demo-kit.ts';

interface Resolution {
  verdict?: string;
  heard?: string;
  attempts_left?: number;
  question_over?: boolean;
  game_over?: boolean;
  answer?: string;
  score?: number;
  total?: number;
}

function summary(score: number, total: number): string {
  return score === total
    ? `游戏结束啦！${total} 题你全都答对了，太厉害了！`
    : `游戏结束啦！你答对了 ${score} 题，一共 ${total} 题，真棒！下次再来玩吧。`;
}

/**
 * Draw the (next) picture: say → show_progress → show_drawing → ask. The progress card goes first:
 * the robot has one picture area, so the drawing must be the last thing shown while the child guesses.
 */
function drawAndAsk(v: TurnView, opening: string): Step {
  const said = lastOf(v, 'say');
  if (!said) return call('say', { text: opening });
  if (!lastOf(v, 'show_progress')) return call('show_progress');
  const drawn = lastOf(v, 'show_drawing');
  if (!drawn) return call('show_drawing');
  const p = lastOf(v, 'show_progress')!.result as { question: number; total: number };
  if ((drawn.result as { device_completed?: boolean }).device_completed === false) {
    // The picture is not there: never "画好啦". A hint instead, so the child can still guess.
    const h = lastOf(v, 'get_hint');
    if (!h) return call('get_hint');
    const hint = (h.result as { hint?: string | null }).hint;
    return reply(`机器人今天画不出这幅画。第 ${p.question} 题，我说给你听：${hint ?? '它是一种小动物。'}你猜是什么动物？`);
  }
  return reply(`画好啦！第 ${p.question} 题，这是什么动物呀？`);
}

/**
 * After a question is over: the game's end, or on to the next question — the verdict said first
 * (`say` before `next_question`), so the child hears it while the next picture is prepared.
 */
function afterQuestion(v: TurnView, r: Resolution, praise: string): Step {
  if (r.game_over) return reply(`${praise}${summary(r.score ?? 0, r.total ?? 0)}`);
  if (!lastOf(v, 'say')) return call('say', { text: `${praise}下一题来咯，看我画！` });
  if (!lastOf(v, 'next_question')) return call('next_question');
  if (!lastOf(v, 'show_progress')) return call('show_progress');
  if (!lastOf(v, 'show_drawing')) return call('show_drawing');
  const p = lastOf(v, 'show_progress')!.result as { question: number; total: number };
  return reply(`画好啦！第 ${p.question} 题，这是什么动物呀？`);
}

export const policy: ScriptPolicy = (req) => {
  const v = readTurn(req);

  if (v.event === 'end' || (v.event === 'message' && wantsStop(v.userText))) {
    const ended = lastOf(v, 'end_game');
    if (!ended) return call('end_game');
    const r = ended.result as { score?: number; total?: number; unanswered?: string };
    const reveal = r.unanswered ? `这一题是${r.unanswered}。` : '';
    return reply(`${reveal}好的，这局就玩到这里，你答对了 ${r.score ?? 0} 题。下次再来玩吧！`);
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
    const r = h.result as { hint: string | null };
    return reply(r.hint ? `好，给你一个提示！${r.hint}` : '提示都用完啦！再猜猜看，或者说“跳过”。');
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
      return reply(`${r.heard ? `不是${r.heard}哦` : '不对哦'}！再猜猜看，还有 ${r.attempts_left} 次机会。`);
    default:
      return reply('我没听出你猜的是什么动物，再说一遍好吗？');
  }
};
