/**
 * The trace in IndexedDB (`agentcade-trace`): rounds, events and request registrations, bounded
 * by size (oldest rounds pruned first), surviving reloads. Grouping itself is pure (rounds.ts).
 */
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { eventBytes, eventEnd, groupRounds, roundsToPrune, userText, type GroupedTrace, type RoundSize, type StoredTraceEvent } from '../core/trace/rounds.ts';
import { openTraceDb, TRACE_DB_NAME, type RoundRow, type TraceDB } from './trace-schema.ts';
import type { TraceEvent } from '../core/trace/types.ts';

type WriteTx = IDBPTransaction<TraceDB, ('rounds' | 'events' | 'requests')[], 'readwrite'>;

interface TraceStoreOptions {
  /** Database name (tests use their own). */
  name?: string;
  /** Size bound in bytes, read at each write (a setting the user can change). */
  maxBytes?: () => number;
}

const DEFAULT_TRACE_MAX_BYTES = 16 * 1024 * 1024;

export class TraceStore {
  private constructor(
    private readonly db: IDBPDatabase<TraceDB>,
    private readonly maxBytes: () => number,
  ) {}

  static async open(opts: TraceStoreOptions = {}): Promise<TraceStore> {
    const db = await openTraceDb(opts.name ?? TRACE_DB_NAME);
    return new TraceStore(db, opts.maxBytes ?? (() => DEFAULT_TRACE_MAX_BYTES));
  }

  /**
   * Stores events in arrival order. A `user_input` with a roundId opens that round; an
   * `a2a_request` registers its request id; other events are filed by roundId or request id
   * (or kept unfiled until their request is registered). Then prunes to the size bound.
   */
  async append(events: readonly TraceEvent[]): Promise<void> {
    if (events.length === 0) return;
    const tx = this.db.transaction(['rounds', 'events', 'requests'], 'readwrite');
    const rounds = tx.objectStore('rounds');
    const evs = tx.objectStore('events');
    const reqs = tx.objectStore('requests');
    const touched = new Map<string, RoundRow>();
    const row = async (id: string) => touched.get(id) ?? (await rounds.get(id));

    for (const raw of events) {
      const { seq: _seq, ...e } = raw as StoredTraceEvent;
      if (e.kind === 'user_input' && e.roundId && !(await row(e.roundId))) {
        touched.set(e.roundId, { id: e.roundId, startedAt: e.at, text: userText(e), lastAt: e.at, bytes: 0 });
      }
      let roundId = e.roundId;
      if (!roundId && e.requestId) roundId = (await reqs.get(e.requestId))?.roundId;
      if (e.kind === 'a2a_request' && e.requestId && roundId) {
        await this.register(tx, touched, e.requestId, roundId, e.at);
      }
      const r = roundId ? await row(roundId) : undefined;
      // A record of a round that no longer exists (pruned or cleared) is dropped.
      if (roundId && !r) continue;
      const stored: StoredTraceEvent = roundId ? { ...e, roundId } : e;
      await evs.add(stored);
      if (r) touched.set(r.id, { ...r, bytes: r.bytes + eventBytes(stored), lastAt: Math.max(r.lastAt, eventEnd(stored)) });
    }
    for (const r of touched.values()) await rounds.put(r);
    await tx.done;
    await this.prune(this.maxBytes());
  }

  /** Files `requestId` (and every record already received for it) under `roundId`. */
  async registerRequest(requestId: string, roundId: string, at = Date.now()): Promise<void> {
    const tx = this.db.transaction(['rounds', 'events', 'requests'], 'readwrite');
    const touched = new Map<string, RoundRow>();
    await this.register(tx, touched, requestId, roundId, at);
    for (const r of touched.values()) await tx.objectStore('rounds').put(r);
    await tx.done;
  }

  private async register(tx: WriteTx, touched: Map<string, RoundRow>, requestId: string, roundId: string, at: number): Promise<void> {
    const reqs = tx.objectStore('requests');
    const evs = tx.objectStore('events');
    const rounds = tx.objectStore('rounds');
    if (await reqs.get(requestId)) return;
    await reqs.put({ requestId, roundId, at });
    // Records that arrived before the request was registered (out of order).
    let r = touched.get(roundId) ?? (await rounds.get(roundId));
    let cursor = await evs.index('requestId').openCursor(requestId);
    while (cursor) {
      const e = cursor.value;
      if (!e.roundId) {
        await cursor.update({ ...e, roundId });
        if (r) r = { ...r, bytes: r.bytes + eventBytes(e), lastAt: Math.max(r.lastAt, eventEnd(e)) };
      }
      cursor = await cursor.continue();
    }
    if (r) touched.set(roundId, r);
  }

  /** Every round with its events, plus records not filed under any round. */
  async load(): Promise<GroupedTrace> {
    const tx = this.db.transaction(['events', 'requests'], 'readonly');
    const [events, requests] = await Promise.all([tx.objectStore('events').getAll(), tx.objectStore('requests').getAll()]);
    await tx.done;
    return groupRounds(events, new Map(requests.map((r) => [r.requestId, r.roundId])));
  }

  async roundSizes(): Promise<RoundSize[]> {
    return (await this.db.getAll('rounds')).map(({ id, startedAt, bytes }) => ({ id, startedAt, bytes }));
  }

  async totalBytes(): Promise<number> {
    return (await this.roundSizes()).reduce((n, r) => n + r.bytes, 0);
  }

  /** Deletes the oldest rounds until the total is within `maxBytes`; returns their ids. */
  async prune(maxBytes: number): Promise<string[]> {
    const sizes = await this.roundSizes();
    const victims = roundsToPrune(sizes, maxBytes);
    if (victims.length === 0) return victims;
    const keep = sizes.filter((r) => !victims.includes(r.id));
    const oldestKept = Math.min(...keep.map((r) => r.startedAt));
    const tx = this.db.transaction(['rounds', 'events', 'requests'], 'readwrite');
    await deleteRounds(tx, victims, oldestKept);
    await tx.done;
    return victims;
  }

  /** Deletes every round that started before `since` (the age bound); returns their ids. */
  async deleteOlderThan(since: number): Promise<string[]> {
    const victims = (await this.db.getAllKeysFromIndex('rounds', 'startedAt', IDBKeyRange.upperBound(since, true))) as string[];
    const tx = this.db.transaction(['rounds', 'events', 'requests'], 'readwrite');
    await deleteRounds(tx, victims, since);
    await tx.done;
    return victims;
  }

  async clear(): Promise<void> {
    const tx = this.db.transaction(['rounds', 'events', 'requests'], 'readwrite');
    await Promise.all([tx.objectStore('rounds').clear(), tx.objectStore('events').clear(), tx.objectStore('requests').clear(), tx.done]);
  }

  close(): void {
    this.db.close();
  }
}

/** Deletes rounds with their events and request registrations, and unfiled records older than `unfiledBefore`. */
async function deleteRounds(tx: WriteTx, ids: readonly string[], unfiledBefore: number): Promise<void> {
  for (const id of ids) {
    await tx.objectStore('rounds').delete(id);
    for (const key of await tx.objectStore('events').index('roundId').getAllKeys(id)) await tx.objectStore('events').delete(key);
    for (const key of await tx.objectStore('requests').index('roundId').getAllKeys(id)) await tx.objectStore('requests').delete(key);
  }
  if (!Number.isFinite(unfiledBefore)) return;
  // Records never filed under a round do not outlive the rounds around them.
  let cursor = await tx.objectStore('events').openCursor();
  while (cursor) {
    if (!cursor.value.roundId && cursor.value.at < unfiledBefore) await cursor.delete();
    cursor = await cursor.continue();
  }
}
