import type { ArcadeGame } from '../core/arcade/types.ts';
import { describe, registerErrors, type ErrorTable } from '../core/errors/catalogue.ts';

/** Errors and fixed sentences of the main agent (what the child hears / what the parent reads). */
export const mainAgentErrors: ErrorTable = {
  main_model_failed: {
    child: '哎呀，我的脑袋卡住了一下，你能再说一遍吗？',
    also: ['我刚才没想好，你再说一次好吗？', '哎呀，我走神了，你能再说一遍吗？'],
    parent: 'The main agent model step failed (see the trace for the model error).',
  },
  main_model_stuck: {
    child: '我有点卡住了，我们再试一次。',
    also: ['我刚才卡了一下，我们再试一次吧。', '哎呀，我卡住了，你再说一次好吗？'],
    parent: '这一轮大脑没有答上来（服务器出错、卡住或连接断了），但还没有连续好几轮；连续三轮答不上来时，机器人会请大人检查设置。',
  },
  main_no_decision: {
    child: '我没太明白，你可以换个说法吗？',
    also: ['我没听懂，你能换一种说法吗？'],
    parent: 'The main agent took too many steps without a final reply.',
  },
  main_game_unavailable: {
    child: '这个游戏现在还不能玩。',
    parent: 'The chosen game needs a device capability that is not connected.',
  },
  // Fallbacks for the A2A failure codes in case the transport's table is not loaded.
  main_game_request_failed: {
    child: '游戏那边出了点问题，我们等一下再试试吧。',
    also: ['游戏那边好像不太对，我们等一下再试试吧。'],
    parent: 'The game request failed (worker error or failed task).',
  },
  main_game_slow: {
    child: '游戏那边想得太久了，我们接着玩，刚才说到哪啦？',
    also: ['游戏还没想好，我们接着玩，你再说一遍好吗？', '游戏那边有点慢，我们接着玩，你再说一次吧。'],
    parent: 'The game sent no reply within the turn budget (T2); the request was cancelled and the game goes on from where it was.',
  },
  main_game_slow_start: {
    child: '游戏没能及时开始，我们等一下再试试吧。',
    also: ['游戏这次没开起来，过一会儿再跟我说一次吧。'],
    parent: 'A start sent no reply within the turn budget (T2); the request was cancelled and the session cleared.',
  },
  main_game_slow_end: {
    child: '好的，游戏结束啦，我们下次再玩吧！',
    also: ['好的，不玩啦，下次再见！'],
    parent: 'An end sent no reply within the turn budget (T2); the session is over anyway.',
  },
};

registerErrors(mainAgentErrors);

/** Fixed sentences of the main agent (not errors). */
export const SAY = {
  wait: '请稍等，游戏还在想上一句呢。',
  stopped: '好的，我不说了。',
  nothingToRepeat: '我刚才还没说话呢。',
  /** "不玩了" (or a game message) with no game running. */
  noGameToEnd: '现在没有在玩游戏哦。',
  /** Said once when nothing has been said T1 after the child's words (src/core/arcade/turn-budget.ts), in turn. */
  stillThinking: ['嗯，让我想想。', '我还在想哦，请等一下。', '稍等一下，我马上就好。', '让我再想一想。', '嗯……我在认真想呢。'],
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
