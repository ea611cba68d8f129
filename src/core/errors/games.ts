/**
 * Errors of the game-agent runtime (seed 000 §出错处理). Every request gets a sentence that can be
 * spoken, even when the game agent's model fails: these are the fallback sentences, each with a few
 * ways of saying it (GameSessions takes turns among them). Each is true about what happens next:
 * after a failed `message` the game goes on (nothing restarts); after a failed `start` or `end`
 * the session is over.
 */
import type { ErrorTable } from './types.ts';

export const gameErrors = {
  game_model_failed: {
    child: '哎呀，我刚才走神了，你能再说一遍吗？',
    also: ['我们接着玩，刚才说到哪啦？', '刚才我没想好，游戏还在，你再说一次好吗？', '我有点卡壳了，我们接着玩，你再说一遍吧。'],
    parent: "The game agent's model failed or gave no final reply; this round was not written to memory.",
  },
  game_model_failed_start: {
    child: '哎呀，游戏没能开始，我们等一会儿再来玩吧。',
    also: ['游戏这次没有开起来，过一会儿再跟我说一次吧。', '糟糕，游戏没能开始，我们等一下再试试吧。'],
    parent: "The game agent's model failed while starting the game; the session was ended.",
  },
  game_model_failed_end: {
    child: '好的，这局就玩到这里，下次再来玩吧！',
    also: ['好的，这局结束啦，下次再玩！', '这局就先玩到这儿，下次见！'],
    parent: "The game agent's model failed while ending the game; the session was ended anyway.",
  },
  game_session_ended: {
    child: '这局游戏已经结束啦。想再玩的话，跟我说“开始游戏”吧。',
    also: ['这局已经玩完啦，想玩的话再跟我说一次吧。'],
    parent: 'A message or end arrived for a game session that no longer exists (ended or replaced).',
  },
  game_unknown: {
    child: '这个游戏我还不会玩呢。',
    parent: 'No built-in game with this id (no skills/<id>/SKILL.md and game.ts).',
  },
} satisfies ErrorTable;
