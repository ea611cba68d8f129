/**
 * The errors a request to a game agent can end with (seed 000 §出错处理: every request gets a reply
 * that can be spoken, errors included).
 */
import type { ErrorTable } from './types.ts';

export const a2aErrors = {
  game_failed: {
    child: '游戏那边出了点小问题，我们再试一次吧。',
    also: ['游戏那边有点小问题，我们再试一次好吗？'],
    parent: 'The game agent ended the request with a failed task (TASK_STATE_FAILED); the detail says why.',
  },
  game_crashed: {
    child: '游戏突然停下来了，这局只好先玩到这里。想玩的话，再跟我说一次吧。',
    also: ['游戏出了问题停下来了，这局先玩到这里，想玩就再叫我开始吧。'],
    parent: 'The game worker crashed (an uncaught error or an unreadable message); it is restarted fresh on the next request.',
  },
  game_timeout: {
    child: '游戏那边好像卡住了，我们接着玩，刚才说到哪啦？',
    also: ['游戏那边好像卡住了，我们接着玩，你再说一遍好吗？'],
    parent: 'The game agent sent nothing for too long while a request was open; the turn was cancelled and the game goes on from where it was.',
  },
  game_timeout_lost: {
    child: '游戏那边好像卡住了，这局只好先玩到这里。想玩的话，再跟我说一次吧。',
    also: ['游戏卡住不动了，这局先玩到这里，想玩就再叫我开始吧。'],
    parent: 'The game worker stopped answering (no pong to a ping): it was restarted and the session is lost.',
  },
  game_cancelled: {
    child: '好的，这一步先不玩了。',
    parent: 'The request was cancelled (CancelTask, an end of the session, or the game was stopped).',
  },
  game_protocol: {
    child: '游戏那边说的话我没听明白，我们再试一次吧。',
    also: ['游戏那边的话我没听懂，我们再试一次好吗？'],
    parent: 'The game agent answered outside the desktop-game/5 protocol (a missing or invalid GameReply, or a stream without a final reply).',
  },
  game_unreachable: {
    child: '游戏那边连不上了，可能是放游戏的电脑关掉了。我们等一会儿再玩吧。',
    parent: 'A remote game agent (an A2A server added by its address) could not be reached, or its connection broke during a request. Its card is greyed until it answers again.',
  },
  game_not_found: {
    child: '我还不会这个游戏呢，我们换一个玩吧。',
    parent: 'No game with this id is installed (no Agent Card).',
  },
} satisfies ErrorTable;
