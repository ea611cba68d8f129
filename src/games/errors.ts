/**
 * Errors of the game-agent runtime (seed 000 §出错处理). Every request gets a sentence that can be
 * spoken, even when the game agent's model fails: these are the fallback sentences.
 */
import { describe, registerErrors, type ErrorTable } from '../core/errors/catalogue.ts';

export const gameErrors: ErrorTable = {
  game_model_failed: {
    child: '哎呀，我刚才走神了，你能再说一遍吗？',
    parent: "The game agent's model failed or gave no final reply; this round was not written to memory.",
  },
  game_model_failed_start: {
    child: '哎呀，游戏没能开始，我们等一会儿再来玩吧。',
    parent: "The game agent's model failed while starting the game; the session was ended.",
  },
  game_model_failed_end: {
    child: '好的，这局就玩到这里，下次再来玩吧！',
    parent: "The game agent's model failed while ending the game; the session was ended anyway.",
  },
  game_session_ended: {
    child: '这局游戏已经结束啦。想再玩的话，跟我说“开始游戏”吧。',
    parent: 'A message or end arrived for a game session that no longer exists (ended or replaced).',
  },
  game_unknown: {
    child: '这个游戏我还不会玩呢。',
    parent: 'No built-in game with this id (no skills/<id>/SKILL.md and game.ts).',
  },
};

registerErrors(gameErrors);

/** The Chinese sentence for a game error code. */
export function childText(code: keyof typeof gameErrors): string {
  return describe(code).child;
}
