/** The main agent's demo policy routes to a studio game by its title and aliases, like a built-in game. */
import { describe, expect, it } from 'vitest';
import { builtinGames } from '../../../src/games/catalog.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { buildMessages, mainTools } from '../../../src/core/arcade/prompt.ts';
import type { ArcadeGame } from '../../../src/core/arcade/types.ts';
import { arcadeDeclaration } from '../../../src/studio/play/declaration.ts';
import { designedGame } from './helpers.ts';

describe('"我们玩恐龙问答吧" starts the studio game', () => {
  it('by title or by an alias; a built-in game is still found by its own name', async () => {
    const { game } = await designedGame();
    const games: ArcadeGame[] = [...builtinGames(), arcadeDeclaration(game.declaration)].map((declaration) => ({ declaration, available: true }));
    const route = (words: string) => mainDemoPolicy({ agent: 'main', messages: buildMessages(games, [], null, false, words), tools: mainTools(games, false) });
    expect(await route('我们玩恐龙问答吧')).toEqual({ action: 'start_game', args: { game_id: game.declaration.id } });
    expect(await route('我想玩猜恐龙')).toEqual({ action: 'start_game', args: { game_id: game.declaration.id } });
    expect(await route('我们玩猜数字吧')).toEqual({ action: 'start_game', args: { game_id: 'guess-number' } });
  });
});
