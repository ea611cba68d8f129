import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../../../src/trace/recorder.ts';
import { TraceStore } from '../../../src/trace/trace-store.ts';
import { openTraceDb, TRACE_DB_VERSION, upgradeTraceDb, type TraceDB } from '../../../src/trace/trace-schema.ts';
import { REDACTED_KEY } from '../../../src/core/trace/redact.ts';
import { clock, ev, ids } from './fixtures.ts';

let dbn = 0;
const freshName = () => `trace-test-${++dbn}-${Math.random().toString(36).slice(2)}`;

describe('TraceRecorder + TraceStore', () => {
  it('files late and out-of-order game records under the round that sent the request, across a reload', async () => {
    const name = freshName();
    const c = clock();
    const store = await TraceStore.open({ name });
    const rec = new TraceRecorder(store, { now: c.now, newId: ids() });

    const r1 = rec.startRound('我们玩猜数字');
    c.advance(10);
    rec.record({ kind: 'main_tool', at: c.now(), source: 'main', name: 'start_game', data: { args: { text: '我们玩猜数字' } } });
    // out of order: the game's record reaches the recorder before the main side registers the request
    rec.record({ kind: 'game_tool', at: c.now() + 5, source: 'game:guess-number', requestId: 'm1', name: 'pick_number' });
    await rec.flush();
    rec.registerRequest('m1');
    rec.record({ kind: 'a2a_request', at: c.now(), source: 'main', requestId: 'm1', data: { gameId: 'guess-number', kind: 'start' } });
    c.advance(1000);
    const r2 = rec.startRound('五十');
    rec.record({ kind: 'a2a_request', at: c.now(), source: 'main', requestId: 'm2' });
    // late: the second reply to m1 after round 2 began
    rec.record({ kind: 'reply', at: c.now() + 20, source: 'game:guess-number', requestId: 'm1', data: { text: '你先猜吧', session: 'active' } });
    await rec.flush();
    store.close();

    // a reload: a new store and recorder; a very late record of m1 still goes to round 1
    const store2 = await TraceStore.open({ name });
    const rec2 = new TraceRecorder(store2, { now: c.now, newId: ids('s') });
    rec2.record({ kind: 'device', at: c.now() + 30, source: 'game:guess-number', requestId: 'm1', name: 'react' });
    await rec2.flush();

    const { rounds, orphans } = await store2.load();
    expect(orphans).toEqual([]);
    expect(rounds.map((r) => [r.id, r.text])).toEqual([
      [r1, '我们玩猜数字'],
      [r2, '五十'],
    ]);
    expect(rounds[0].events.map((e) => e.kind)).toEqual(['user_input', 'main_tool', 'a2a_request', 'game_tool', 'reply', 'device']);
    expect(rounds[1].events.map((e) => e.kind)).toEqual(['user_input', 'a2a_request']);
    store2.close();
  });

  it('never stores an API key', async () => {
    const store = await TraceStore.open({ name: freshName() });
    const rec = new TraceRecorder(store);
    rec.startRound('你好');
    rec.record({ kind: 'model_step', at: Date.now(), source: 'main', data: { provider: { baseUrl: 'https://api.example.com', apiKey: 'sk-abcdefghijklmnop' }, headers: { Authorization: 'Bearer abcdefghijkl' }, note: 'key sk-zyxwvutsrqponm leaked' } });
    await rec.flush();
    const json = JSON.stringify(await store.load());
    expect(json).not.toContain('sk-abcdefghijklmnop');
    expect(json).not.toContain('abcdefghijkl');
    expect(json).not.toContain('sk-zyxwvutsrqponm');
    expect(json).toContain(REDACTED_KEY);
    expect(json).toContain('https://api.example.com');
    store.close();
  });

  it('prunes the oldest rounds past the size the user set, keeping the newest', async () => {
    let maxBytes = 1_000_000;
    const store = await TraceStore.open({ name: freshName(), maxBytes: () => maxBytes });
    const c = clock();
    const rec = new TraceRecorder(store, { now: c.now, newId: ids() });
    for (let i = 1; i <= 10; i++) {
      rec.startRound(`第${i}轮`);
      rec.record({ kind: 'a2a_request', at: c.now(), source: 'main', requestId: `m${i}` });
      rec.record({ kind: 'reply', at: c.now() + 1, source: 'game:x', requestId: `m${i}`, data: { text: 'x'.repeat(400) } });
      c.advance(1000);
    }
    await rec.flush();
    const all = await store.roundSizes();
    expect(all).toHaveLength(10);
    const per = all[0].bytes;
    expect(per).toBeGreaterThan(400);

    maxBytes = per * 2.5; // the user lowers the bound (round 11 is small: only the input)
    rec.startRound('第11轮');
    await rec.flush();
    const { rounds, orphans } = await store.load();
    expect(rounds.map((r) => r.text)).toEqual(['第9轮', '第10轮', '第11轮']);
    expect(orphans).toEqual([]);
    expect(await store.totalBytes()).toBeLessThanOrEqual(maxBytes);
    // a late record of a pruned round's request is not resurrected into another round
    rec.record({ kind: 'reply', at: c.now(), source: 'game:x', requestId: 'm1', data: { text: 'late' } });
    await rec.flush();
    const after = await store.load();
    expect(after.rounds.flatMap((r) => r.events).some((e) => e.requestId === 'm1')).toBe(false);
    expect(after.orphans).toEqual([]);
    store.close();
  });

  it('deletes rounds older than the days the parent chose, with their records', async () => {
    const store = await TraceStore.open({ name: freshName() });
    const c = clock();
    const rec = new TraceRecorder(store, { now: c.now, newId: ids() });
    const DAY = 24 * 3600_000;
    for (const text of ['一', '二', '三']) {
      rec.startRound(text);
      rec.record({ kind: 'a2a_request', at: c.now(), source: 'main', requestId: `r${text}` });
      rec.record({ kind: 'speech', at: c.now() + 1, source: 'main', name: 'spoken', data: { text } });
      c.advance(DAY);
    }
    await rec.flush();
    const since = c.now() - 2 * DAY; // keep the last two days: round 一 is older
    expect(await store.deleteOlderThan(since)).toHaveLength(1);
    const { rounds, orphans } = await store.load();
    expect(rounds.map((r) => r.text)).toEqual(['二', '三']);
    expect(orphans).toEqual([]);
    expect(await store.deleteOlderThan(since)).toEqual([]);
    store.close();
  });

  it('clears everything', async () => {
    const store = await TraceStore.open({ name: freshName() });
    const rec = new TraceRecorder(store);
    rec.startRound('你好');
    await rec.flush();
    expect((await store.load()).rounds).toHaveLength(1);
    await store.clear();
    expect(await store.load()).toEqual({ rounds: [], designs: [], orphans: [] });
    store.close();
  });
});

describe('schema migration', () => {
  it('opens a v1 database with data as v2: requests registered, orphans filed, rounds sized', async () => {
    const name = freshName();
    // Build exactly version 1 and fill it the way v1 stored things.
    const v1 = await openDB<TraceDB>(name, 1, {
      upgrade: (db, o, n, tx) => void upgradeTraceDb(db, o, n ?? 1, tx),
    });
    expect([...v1.objectStoreNames].sort()).toEqual(['events', 'rounds']);
    await v1.put('rounds', { id: 'r1', startedAt: 100, text: '玩猜数字' } as never);
    await v1.put('rounds', { id: 'r2', startedAt: 900, text: '三十' } as never);
    for (const e of [
      ev({ kind: 'user_input', at: 100, roundId: 'r1', source: 'user', data: { text: '玩猜数字' } }),
      ev({ kind: 'a2a_request', at: 120, roundId: 'r1', requestId: 'm1' }),
      ev({ kind: 'user_input', at: 900, roundId: 'r2', source: 'user', data: { text: '三十' } }),
      // v1 could not file this one: it arrived after round 2 began with only a request id
      ev({ kind: 'reply', at: 950, source: 'game:guess-number', requestId: 'm1', data: { text: '我想好了' }, durationMs: 50 }),
    ]) await v1.add('events', e as never);
    v1.close();

    const db = await openTraceDb(name);
    expect(db.version).toBe(TRACE_DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['events', 'requests', 'rounds']);
    expect(await db.get('requests', 'm1')).toEqual({ requestId: 'm1', roundId: 'r1', at: 120 });
    const r1 = await db.get('rounds', 'r1');
    expect(r1!.bytes).toBeGreaterThan(0);
    expect(r1!.lastAt).toBe(1000);
    expect((await db.getAllFromIndex('events', 'requestId', 'm1')).map((e) => e.roundId)).toEqual(['r1', 'r1']);
    db.close();

    const store = await TraceStore.open({ name });
    const { rounds, orphans } = await store.load();
    expect(orphans).toEqual([]);
    expect(rounds[0].events.map((e) => e.kind)).toEqual(['user_input', 'a2a_request', 'reply']);
    // and it keeps working as v2: a new late record of m1 is filed under round 1
    await store.append([ev({ kind: 'speech', at: 1100, source: 'speech', requestId: 'm1', data: { text: '我想好了' } })]);
    expect((await store.load()).rounds[0].events.at(-1)!.kind).toBe('speech');
    store.close();
  });
});
