/**
 * The error catalogue is data: every area's table merged once, a code belongs to one area, and a
 * code that is not in it does not compile.
 */
import { describe, expect, it } from 'vitest';
import { AgentcadeError, catalogueEntries, childLines, describe as entryOf, describeAny, ERROR_TABLES, isErrorCode, type ErrorCode } from '../../../src/core/errors/catalogue.ts';
import { ModelError } from '../../../src/core/llm/types.ts';

describe('the error catalogue', () => {
  it('holds every area table, and no code is in two areas', () => {
    const seen = new Map<string, string>();
    for (const [area, table] of Object.entries(ERROR_TABLES)) {
      for (const code of Object.keys(table)) {
        expect(seen.get(code), `${code} is in ${seen.get(code)} and ${area}`).toBeUndefined();
        seen.set(code, area);
      }
    }
    expect(catalogueEntries().map(([code]) => code).sort()).toEqual([...seen.keys()].sort());
  });

  it('is complete without importing any area first: the game, model, robot and Studio codes are there', () => {
    for (const code of ['game_model_failed', 'game_timeout', 'main_model_failed', 'model_no_webgpu', 'robot_unplugged', 'studio_runtime', 'studio_game_missing'] as const) {
      expect(isErrorCode(code)).toBe(true);
      expect(entryOf(code).child).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(new AgentcadeError('game_unknown').child).toBe('这个游戏我还不会玩呢。');
    expect(new AgentcadeError('game_unknown').message).toBe('No built-in game with this id (no skills/<id>/SKILL.md and game.ts).');
  });

  it('a code read from elsewhere that is not in it falls back to the unknown entry', () => {
    expect(isErrorCode('game_modle_failed')).toBe(false);
    expect(describeAny('game_modle_failed')).toBe(entryOf('unknown'));
    expect(childLines('game_modle_failed')).toEqual([]);
    expect(childLines('game_session_ended')[0]).toBe('这局游戏已经结束啦。想再玩的话，跟我说“开始游戏”吧。');
  });

  it('a misspelt code does not compile (tsc checks the lines marked @ts-expect-error: each must be an error)', () => {
    const misspelt = () => {
      // @ts-expect-error 'game_modle_failed' is not a code of the catalogue
      new AgentcadeError('game_modle_failed');
      // @ts-expect-error nor is a model code with a typo
      new ModelError('model_no_webgpuu', 'x');
      // @ts-expect-error describe takes only catalogued codes
      entryOf('studio_runtim');
      const code: ErrorCode = 'robot_unplugged';
      return code;
    };
    expect(misspelt).toBeTypeOf('function');
  });
});
