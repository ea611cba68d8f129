/**
 * Errors of the Studio play runtime. The fallback sentences of seed 000 §出错处理 are the
 * game runtime's (`game_model_failed*`, `game_session_ended` in ./games.ts): a studio game
 * speaks the same protocol, so the child hears the same words.
 */
import type { ErrorTable } from './types.ts';

export const studioPlayErrors = {
  studio_game_missing: {
    child: '这个游戏找不到了，可能被大人删掉了。我们玩别的吧。',
    parent: 'A studio game was asked for, but its project is no longer in the Book at the play stage (deleted, or its design reopened).',
  },
  studio_deck_unsayable: {
    child: '这个游戏的题目要请大人先改一改，现在还不能玩。我们先玩别的吧！',
    parent: '这个游戏的卡片都没有通过安全检查，游戏没能开始。卡片都还保存着，一张也没丢：请到「设计室」打开这个游戏，改一改这些卡片（哪几张、为什么，在「记录」的「安全提醒」里）。',
  },
} satisfies ErrorTable;
