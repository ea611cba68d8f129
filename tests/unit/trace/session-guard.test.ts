import { describe, expect, it } from 'vitest';
import type { GameClient, GameRequest, ReplyEvent } from '../../../src/a2a/types.ts';
import { gameReply, type GameInput } from '../../../src/core/protocol/game-protocol.ts';
import { createSessionGuard, INTERRUPTED_GAME_TEXT, RECOVERY_ROUND_TEXT, type GuardStorage } from '../../../src/trace/session-guard.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';

function memory(): GuardStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

function fakeClient(replies: () => AsyncIterable<ReplyEvent>) {
  const sent: { gameId: string; contextId: string; input: GameInput }[] = [];
  let cancelled = 0;
  const client: Pick<GameClient, 'request'> = {
    request(gameId, contextId, input): GameRequest {
      sent.push({ gameId, contextId, input });
      return { requestId: 'end-1', replies: replies(), cancel: async () => void cancelled++ };
    },
  };
  return { client, sent, cancelled: () => cancelled };
}

describe('session guard', () => {
  it('one `end` per session: after the page sent it as it went away, the reload tells the child and does not end it again', async () => {
    const storage = memory();
    const before = createSessionGuard(storage, () => 1000);
    before.remember('guess-number', 'ctx-1');
    before.endSent(); // pagehide: GameRequests.shutdown sent `end`
    const { client, sent } = fakeClient(async function* () {
      yield { reply: gameReply('好的', 'ended'), final: true };
    });
    const said: string[] = [];
    await createSessionGuard(storage, () => 2000).recover(client, { say: (x) => void said.push(x) });
    expect(sent).toEqual([]);
    expect(said).toEqual([INTERRUPTED_GAME_TEXT]);
    expect(createSessionGuard(storage).interrupted()).toBeNull();
  });

  it('after a reload, ends the interrupted session with an empty `end` and tells the child once', async () => {
    const storage = memory();
    let t = 1000;
    createSessionGuard(storage, () => t).remember('guess-number', 'ctx-1');
    t += 60_000;
    // reload: a new guard over the same storage
    const guard = createSessionGuard(storage, () => t);
    expect(guard.interrupted()).toMatchObject({ gameId: 'guess-number', contextId: 'ctx-1' });
    const { client, sent } = fakeClient(async function* () {
      yield { reply: gameReply('好的，下次再玩', 'ended'), final: true };
    });
    const said: string[] = [];
    const saidIn: Array<string | undefined> = [];
    const trace: TraceEvent[] = [];
    const rounds: string[] = [];
    const s = await guard.recover(client, {
      say: (x, roundId) => (said.push(x), saidIn.push(roundId)),
      trace: { record: (e) => trace.push(e) },
      startRound: (text) => (rounds.push(text), 'round-r'),
    });
    expect(s?.contextId).toBe('ctx-1');
    expect(sent).toEqual([{ gameId: 'guess-number', contextId: 'ctx-1', input: { protocol: 'desktop-game/5', kind: 'end', text: '' } }]);
    expect(said).toEqual([INTERRUPTED_GAME_TEXT]);
    // One round (opened by the app, not the child) holds the `end`, the game's reply and what the child heard.
    expect(rounds).toEqual([RECOVERY_ROUND_TEXT]);
    // The speech itself is recorded by the speaking path that `say` reaches.
    expect(trace.map((e) => e.kind)).toEqual(['a2a_request', 'reply', 'main_tool']);
    expect(trace.every((e) => e.roundId === 'round-r')).toBe(true);
    expect(trace[0]).toMatchObject({ requestId: 'end-1', contextId: 'ctx-1', data: { kind: 'end', text: '' } });
    expect(trace[1]).toMatchObject({ requestId: 'end-1', data: { text: '好的，下次再玩', session: 'ended', spoken: false } });
    expect(saidIn).toEqual(['round-r']);
    // nothing left to recover
    expect(guard.interrupted()).toBeNull();
    expect(await guard.recover(client, { say: (x) => said.push(x) })).toBeNull();
    expect(said).toHaveLength(1);
  });

  it('forgets a session that ended normally', async () => {
    const storage = memory();
    const guard = createSessionGuard(storage);
    guard.remember('draw-guess', 'c');
    guard.forget();
    expect(createSessionGuard(storage).interrupted()).toBeNull();
  });

  it('cancels an `end` the game never answers, and ends an old session silently', async () => {
    const storage = memory();
    createSessionGuard(storage, () => 0).remember('draw-guess', 'c');
    const { client, cancelled } = fakeClient(() => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<ReplyEvent>>(() => {}) }) }));
    const said: string[] = [];
    const trace: TraceEvent[] = [];
    await createSessionGuard(storage).recover(client, { say: (x) => said.push(x), timeoutMs: 20, now: () => 24 * 3600_000, trace: { record: (e) => trace.push(e) } });
    expect(cancelled()).toBe(1);
    expect(said).toEqual([]);
    expect(trace.at(-1)?.data).toMatchObject({ outcome: 'timeout' });
  });

  it('ignores garbage in storage', () => {
    const storage = memory();
    storage.setItem('agentcade.running-session', '{not json');
    expect(createSessionGuard(storage).interrupted()).toBeNull();
  });
});
