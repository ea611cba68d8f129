/** Fixed sentences of the main agent (its errors are in the catalogue: src/core/errors/arcade.ts). */
import type { ArcadeGame } from '../core/arcade/types.ts';
import { describe } from '../core/errors/catalogue.ts';

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
