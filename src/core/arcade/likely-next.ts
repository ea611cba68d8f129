/**
 * The game a child most likely starts next, whose worker the app starts while the arcade is idle
 * (so a tapped card or a said name does not wait for the worker and its rules to load): the game
 * played last when it is still installed and playable here, else the first playable card. Never a
 * remote game (it has no worker). Pure.
 */
import type { ArcadeGame } from './types.ts';

export function likelyNextGame(games: readonly ArcadeGame[], lastPlayed: string | null): string | null {
  const local = games.filter((g) => g.available && g.declaration.engine !== 'remote');
  return (local.find((g) => g.declaration.id === lastPlayed) ?? local[0])?.declaration.id ?? null;
}
