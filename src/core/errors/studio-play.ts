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
} satisfies ErrorTable;
