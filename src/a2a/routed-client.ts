/**
 * One GameClient over several: each game id goes to the client that hosts it (worker games, remote
 * games). The main agent sees one GameClient, so every rule of seed 000 holds for every route.
 */
import type { GameClient } from './types.ts';

export function routeGameClients(routes: { remote: GameClient; local: GameClient; isRemote(gameId: string): boolean }): GameClient {
  const pick = (gameId: string) => (routes.isRemote(gameId) ? routes.remote : routes.local);
  return {
    request: (gameId, contextId, input, opts) => pick(gameId).request(gameId, contextId, input, opts),
    stop: (gameId) => pick(gameId).stop(gameId),
    warm: (gameId) => pick(gameId).warm?.(gameId),
    stopAll() {
      routes.local.stopAll();
      routes.remote.stopAll();
    },
  };
}
