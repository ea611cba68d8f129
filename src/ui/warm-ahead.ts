/**
 * The likely next game's worker, started while the arcade is idle (the game played last, else the
 * first playable card: src/core/arcade/likely-next.ts), so that tapping its card or saying its name
 * does not wait for a worker to start and the game's rules and skill to load. Asked when a brain is
 * chosen (the arcade is ready to play), in the browser's next idle moment; the game host starts it
 * only while no game worker runs, and stops it unused once another game starts (src/a2a/game-host.ts).
 * The last game started is kept in localStorage for the next visit.
 */
import type { GameClient } from '../a2a/types.ts';
import { likelyNextGame } from '../core/arcade/likely-next.ts';
import type { ArcadeGame } from '../core/arcade/types.ts';

export const LAST_GAME_KEY = 'agentcade-last-game';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export interface WarmAhead {
  /** The game client that remembers each game started. */
  readonly games: GameClient;
  /** The arcade is idle and ready to play: start the likely next game's worker. */
  idle(): void;
}

export function warmAhead(games: GameClient, catalog: () => ArcadeGame[], opts: { store?: Store | null; later?: (fn: () => void) => void; enabled?: () => boolean } = {}): WarmAhead {
  const store = opts.store ?? null;
  const later = opts.later ?? ((fn) => setTimeout(fn, 0));
  const remembering: GameClient = {
    stop: (gameId) => games.stop(gameId),
    stopAll: () => games.stopAll(),
    warm: (gameId) => games.warm?.(gameId),
    request(gameId, contextId, input, ropts) {
      if (input.kind === 'start') {
        try {
          store?.setItem(LAST_GAME_KEY, gameId);
        } catch {
          // A full or blocked storage: the first card is the guess next time.
        }
      }
      return games.request(gameId, contextId, input, ropts);
    },
  };
  return {
    games: remembering,
    idle() {
      if (opts.enabled?.() === false) return;
      later(() => {
        const id = likelyNextGame(catalog(), lastGame(store));
        if (id) games.warm?.(id);
      });
    },
  };
}

function lastGame(store: Store | null): string | null {
  try {
    return store?.getItem(LAST_GAME_KEY) ?? null;
  } catch {
    return null; // blocked storage: the first card
  }
}

/** The browser's next idle moment (or a short timeout where requestIdleCallback is missing). */
export function whenIdle(fn: () => void): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  if (ric) ric(fn, { timeout: 2000 });
  else setTimeout(fn, 200);
}
