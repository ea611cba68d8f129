/**
 * Where the remote games a grown-up added are kept: IndexedDB (`agentcade-remote-games`, via idb),
 * one record per game with the address it was added by and the last card read from it, so the
 * arcade lists them at once after a reload, before any server has answered.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface StoredRemoteGame {
  /** The game id (the card's desktop-game/5 skill id). */
  id: string;
  /** The base address, as checked (`checkAddress`). */
  address: string;
  /** The Agent Card JSON last accepted from it. */
  card: unknown;
  addedAt: number;
}

export interface RemoteGameStore {
  all(): Promise<StoredRemoteGame[]>;
  put(game: StoredRemoteGame): Promise<void>;
  delete(id: string): Promise<void>;
}

interface Schema extends DBSchema {
  games: { key: string; value: StoredRemoteGame };
}

export const REMOTE_DB = 'agentcade-remote-games';

export function openRemoteStore(name = REMOTE_DB): RemoteGameStore {
  let db: Promise<IDBPDatabase<Schema>> | null = null;
  const open = () =>
    (db ??= openDB<Schema>(name, 1, {
      upgrade(d) {
        d.createObjectStore('games', { keyPath: 'id' });
      },
    }).catch((e: unknown) => {
      db = null;
      throw e;
    }));
  return {
    async all() {
      const games = await (await open()).getAll('games');
      return games.sort((a, b) => a.addedAt - b.addedAt);
    },
    async put(game) {
      await (await open()).put('games', game);
    },
    async delete(id) {
      await (await open()).delete('games', id);
    },
  };
}
