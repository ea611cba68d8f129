import type { ToolSpec } from '../../../src/core/llm/types.ts';

/** A real game's tool set (猜数字), plus the runtime's `say` and the final `reply`. */
export const guessNumberTools: ToolSpec[] = [
  { name: 'start_game', description: '开始新的一局', parameters: { type: 'object', properties: {} } },
  { name: 'get_hint', description: '给出提示', parameters: { type: 'object', properties: {} } },
  {
    name: 'submit_guess',
    description: '提交孩子猜的数',
    parameters: {
      type: 'object',
      properties: { number: { type: 'integer', minimum: 1, maximum: 100 } },
      required: ['number'],
    },
  },
  { name: 'end_game', description: '结束本局', parameters: { type: 'object', properties: {} } },
  {
    name: 'say',
    description: '先说一句话',
    parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 60 } }, required: ['text'] },
  },
  {
    name: 'reply',
    description: '最终回复',
    parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 120 } }, required: ['text'] },
  },
];

/** The main agent's start tool: the game id is a dynamic enum of the installed games. */
export function startGameTool(gameIds: string[]): ToolSpec {
  return {
    name: 'start_game',
    description: '开始一个游戏',
    parameters: {
      type: 'object',
      properties: { game_id: { type: 'string', enum: gameIds } },
      required: ['game_id'],
    },
  };
}
