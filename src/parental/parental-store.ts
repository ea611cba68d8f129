/**
 * Where the grown-up's controls are kept: IndexedDB (`agentcade-parental`, via idb) — the hashed
 * PIN and recovery code, the wrong-PIN counter, the settings (play time, 「只玩游戏」) and today's
 * play time, so a reload changes nothing.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Attempts } from '../core/safety/grown-up.ts';
import type { PlayHistory, PlaySettings, PlayState } from '../core/safety/play-time.ts';
import type { HashedSecret } from './secret.ts';

export interface StoredPin {
  pin: HashedSecret;
  recovery: HashedSecret;
  setAt: number;
}

export interface ParentalSettings {
  play: PlaySettings;
  /** 「只玩游戏」: the main agent does not chat. */
  gamesOnly: boolean;
}

interface Records {
  pin: StoredPin;
  attempts: Attempts;
  /** Wrong recovery codes: their own count and wait. */
  recoveryAttempts: Attempts;
  settings: ParentalSettings;
  play: PlayState;
  /** Play time by day and game, the last few days (for 记录). */
  history: PlayHistory;
}

interface Schema extends DBSchema {
  kv: { key: string; value: unknown };
}

const PARENTAL_DB = 'agentcade-parental';

export interface ParentalStore {
  get<K extends keyof Records>(key: K): Promise<Records[K] | undefined>;
  put<K extends keyof Records>(key: K, value: Records[K]): Promise<void>;
}

export function openParentalStore(name = PARENTAL_DB): ParentalStore {
  let db: Promise<IDBPDatabase<Schema>> | null = null;
  const open = () =>
    (db ??= openDB<Schema>(name, 1, {
      upgrade(d) {
        d.createObjectStore('kv');
      },
    }).catch((e: unknown) => {
      db = null;
      throw e;
    }));
  return {
    async get(key) {
      return (await (await open()).get('kv', key)) as never;
    },
    async put(key, value) {
      await (await open()).put('kv', value, key);
    },
  };
}
