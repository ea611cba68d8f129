import type { ArcadeGame } from '../core/arcade/types.ts';
import { describe, registerErrors, type ErrorTable } from '../core/errors/catalogue.ts';

/** Errors and fixed sentences of the main agent (what the child hears / what the parent reads). */
export const mainAgentErrors: ErrorTable = {
  main_model_failed: {
    child: '哎呀，我的脑袋卡住了一下，你能再说一遍吗？',
    parent: 'The main agent model step failed (see the trace for the model error).',
  },
  main_no_decision: {
    child: '我没太明白，你可以换个说法吗？',
    parent: 'The main agent took too many steps without a final reply.',
  },
  main_game_unavailable: {
    child: '这个游戏现在还不能玩。',
    parent: 'The chosen game needs a device capability that is not connected.',
  },
  // Fallbacks for the A2A failure codes in case the transport's table is not loaded.
  main_game_request_failed: {
    child: '游戏那边出了点问题，我们等一下再试试吧。',
    parent: 'The game request failed (worker error or failed task).',
  },
};

registerErrors(mainAgentErrors);

/** Fixed sentences of the main agent (not errors). */
export const SAY = {
  wait: '请稍等，游戏还在想上一句呢。',
  stopped: '好的，我不说了。',
  nothingToRepeat: '我刚才还没说话呢。',
  noGameToEnd: '现在没有在玩游戏哦。',
  thinking: '嗯，让我想想。',
  /** Voice commands, spoken at the new setting. */
  voice: {
    louder: '好的，我大声一点。',
    quieter: '好的，我小声一点。',
    slower: '好的，我说慢一点。',
    faster: '好的，我说快一点。',
  },
  /** The same command at the limit. */
  voiceLimit: {
    louder: '已经最大声啦。',
    quieter: '已经最小声啦。',
    slower: '已经最慢啦。',
    faster: '已经最快啦。',
  },
} as const;

/** What "现在还不能玩" says of a game that cannot be played now (e.g. the robot cannot draw). */
export function unavailableText(game: ArcadeGame): string {
  return `${game.declaration.title}现在还不能玩：${game.reason ?? describe('main_game_unavailable').child}`;
}

/** 「只玩游戏」: what the main agent says to anything that is not about a game. */
export function gamesOnlyText(games: readonly ArcadeGame[]): string {
  const titles = games.filter((g) => g.available).map((g) => g.declaration.title);
  return titles.length ? `现在是玩游戏的时间哦。我们可以玩${titles.join('、')}，你想玩哪个？` : '现在是玩游戏的时间哦，可是还没有能玩的游戏，请大人帮忙看看。';
}
