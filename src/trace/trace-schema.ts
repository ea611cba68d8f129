/**
 * The trace database's schema and its migrations, one step per version, from the first one on.
 * Opening with an older version number builds exactly that version (the migration tests use it).
 *
 * v1: `rounds` {id, startedAt, text}; `events` (key `seq`, auto) indexed by `roundId`. Game-side
 *     records whose request was not known when they were written had no round, for ever.
 * v2: `requests` {requestId → roundId} so a game record arriving late, out of order or after a
 *     reload is filed under the round that sent the request; `events` indexed by `requestId`;
 *     rounds carry `lastAt` and `bytes` (for the size bound) and are indexed by `startedAt`.
 *     Migration: builds `requests` from v1's `a2a_request` events, files v1's orphans, sizes rounds.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { eventBytes, eventEnd, type StoredTraceEvent } from '../core/trace/rounds.ts';

export const TRACE_DB_NAME = 'agentcade-trace';
export const TRACE_DB_VERSION = 2;

export interface RoundRow {
  id: string;
  startedAt: number;
  text: string;
  /** v2: end of the round's last event. */
  lastAt: number;
  /** v2: approximate stored size of the round's events. */
  bytes: number;
}

interface RequestRow {
  requestId: string;
  roundId: string;
  at: number;
}

export interface TraceDB extends DBSchema {
  rounds: { key: string; value: RoundRow; indexes: { startedAt: number } };
  events: { key: number; value: StoredTraceEvent; indexes: { roundId: string; requestId: string } };
  requests: { key: string; value: RequestRow; indexes: { roundId: string } };
}

type UpgradeTx = IDBPTransaction<TraceDB, StoreNames<TraceDB>[], 'versionchange'>;

/** Applies every migration step between `oldVersion` and `newVersion`. */
export async function upgradeTraceDb(db: IDBPDatabase<TraceDB>, oldVersion: number, newVersion: number, tx: UpgradeTx): Promise<void> {
  if (oldVersion < 1 && newVersion >= 1) createV1(db);
  if (oldVersion < 2 && newVersion >= 2) await migrateV1toV2(db, tx);
}

function createV1(db: IDBPDatabase<TraceDB>): void {
  db.createObjectStore('rounds', { keyPath: 'id' });
  const events = db.createObjectStore('events', { keyPath: 'seq', autoIncrement: true });
  events.createIndex('roundId', 'roundId');
}

async function migrateV1toV2(db: IDBPDatabase<TraceDB>, tx: UpgradeTx): Promise<void> {
  const requests = db.createObjectStore('requests', { keyPath: 'requestId' });
  requests.createIndex('roundId', 'roundId');
  const events = tx.objectStore('events');
  events.createIndex('requestId', 'requestId');
  const rounds = tx.objectStore('rounds');
  rounds.createIndex('startedAt', 'startedAt');

  const all = await events.getAll();
  const reqs = new Map<string, string>();
  for (const e of all) {
    if (e.kind === 'a2a_request' && e.requestId && e.roundId && !reqs.has(e.requestId)) {
      reqs.set(e.requestId, e.roundId);
      await requests.put({ requestId: e.requestId, roundId: e.roundId, at: e.at });
    }
  }
  const sizes = new Map<string, { bytes: number; lastAt: number }>();
  for (const e of all) {
    let roundId = e.roundId;
    if (!roundId && e.requestId && reqs.has(e.requestId)) {
      roundId = reqs.get(e.requestId)!;
      await events.put({ ...e, roundId });
    }
    if (!roundId) continue;
    const s = sizes.get(roundId) ?? { bytes: 0, lastAt: 0 };
    s.bytes += eventBytes(e);
    s.lastAt = Math.max(s.lastAt, eventEnd(e));
    sizes.set(roundId, s);
  }
  for (const row of await rounds.getAll()) {
    const s = sizes.get(row.id);
    await rounds.put({ ...row, bytes: s?.bytes ?? 0, lastAt: Math.max(row.startedAt, s?.lastAt ?? 0) });
  }
}

export function openTraceDb(name = TRACE_DB_NAME, version = TRACE_DB_VERSION): Promise<IDBPDatabase<TraceDB>> {
  return openDB<TraceDB>(name, version, {
    upgrade(db, oldVersion, newVersion, tx) {
      // The versionchange transaction stays open while migration requests chain (only IDB
      // requests are awaited inside). A failed step aborts it: the old data stays as it was.
      upgradeTraceDb(db, oldVersion, newVersion ?? version, tx).catch((err) => {
        console.error('trace database migration failed', err);
        tx.abort();
      });
    },
  });
}
