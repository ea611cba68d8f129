/**
 * The main agent's errors (what the child hears when a turn of the arcade goes wrong).
 */
import type { ErrorTable } from './types.ts';

export const mainAgentErrors = {
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
} satisfies ErrorTable;
