/**
 * The remote GameClient (src/a2a/remote-host.ts) against the reference remote game agent
 * (examples/remote-game) on loopback, through the SDK's HTTP transports: a whole game, both bindings,
 * and what each failure of a server elsewhere ends a request with (seed 000 §出错处理).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRemoteGameClient, remoteAgentCard, type RemoteGame, type RemoteGameClientOptions } from '../../../src/a2a/remote-host.ts';
import { GameRequestError, type GameRequest, type ReplyEvent } from '../../../src/a2a/types.ts';
import { checkGameCard } from '../../../src/core/protocol/remote-card.ts';
import { gameInput, type GameInputKind } from '../../../src/core/protocol/game-protocol.ts';
import { seeded } from '../../../examples/remote-game/game.ts';
import { animalSoundsLogic, startRemoteGameServer, type GameLogic, type RunningServer } from '../../../examples/remote-game/server.ts';
import { deferred } from './harness.ts';
import { fetchGameCard } from '../../../src/a2a/remote-card-fetch.ts';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(game?: GameLogic): Promise<RunningServer> {
  const s = await startRemoteGameServer({ port: 0, game: game ?? animalSoundsLogic(seeded(7)) });
  servers.push(s);
  return s;
}

/** The RemoteGame of a running server, as the shelf builds it (optionally one binding only). */
function remoteGame(server: RunningServer, binding?: 'JSONRPC' | 'HTTP+JSON'): RemoteGame {
  const raw = JSON.parse(JSON.stringify(server.card));
  if (binding) raw.supportedInterfaces = raw.supportedInterfaces.filter((i: { protocolBinding: string }) => i.protocolBinding === binding);
  const checked = checkGameCard(raw, { address: new URL(server.url) });
  if (!checked.ok) throw new Error(checked.refusal.detail);
  return { id: checked.value.id, host: new URL(server.url).host, card: remoteAgentCard(raw, checked.value) };
}

function client(game: RemoteGame, opts: Partial<RemoteGameClientOptions> = {}) {
  const reach: Array<[boolean, string]> = [];
  const c = createRemoteGameClient({ game: (id) => (id === game.id ? game : undefined), onReach: (_id, ok, d) => reach.push([ok, d]), ...opts });
  return { c, reach };
}

async function replies(req: GameRequest): Promise<ReplyEvent[]> {
  const out: ReplyEvent[] = [];
  for await (const ev of req.replies) out.push(ev);
  return out;
}

async function failure(req: GameRequest): Promise<GameRequestError> {
  try {
    await replies(req);
  } catch (e) {
    if (e instanceof GameRequestError) return e;
    throw e;
  }
  throw new Error('the request did not fail');
}

function send(c: ReturnType<typeof client>['c'], ctx: string, kind: GameInputKind, text: string): GameRequest {
  return c.request('animal-sounds', ctx, gameInput(kind, text));
}

describe('a remote game that speaks A2A 0.3 (message/stream)', () => {
  it('is read and played through the SDK\'s compatibility layer: its card is accepted and a whole turn streams', async () => {
    const server = await startRemoteGameServer({ port: 0, game: animalSoundsLogic(seeded(7)), protocol: '0.3' });
    servers.push(server);
    const read = await fetchGameCard({ address: new URL(server.url) });
    if (!read.ok) throw new Error(read.refusal.detail);
    expect(read.checked.interfaces).toEqual([{ url: `${server.url}/a2a/jsonrpc`, binding: 'JSONRPC', tenant: '', protocolVersion: '0.3.0' }]);
    const game: RemoteGame = { id: read.checked.id, host: new URL(server.url).host, card: remoteAgentCard(read.raw, read.checked) };
    const { c, reach } = client(game);
    const start = await replies(send(c, 'ctx', 'start', '我们玩猜动物叫声吧'));
    expect(start).toHaveLength(1);
    expect(start[0]).toMatchObject({ final: true, reply: { session: 'active' } });
    expect(start[0].reply.text).toMatch(/^我们来玩猜动物叫声！一共3题。第1题，听好啦：/);
    const { ANIMALS } = await import('../../../examples/remote-game/game.ts');
    const animal = ANIMALS.find((a) => start[0].reply.text.includes(a.sound))!;
    const r = await replies(send(c, 'ctx', 'message', `是${animal.names[0]}`));
    expect(r.map((e) => e.final)).toEqual([false, true]);
    expect(r[0].reply.text).toBe(`答对啦！就是${animal.name}。`);
    expect(reach.every(([ok]) => ok)).toBe(true);
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('a remote game over %s', (binding) => {
  it('plays a whole game: streamed intermediate and final replies, session ended at the end', async () => {
    const server = await serve();
    const { c, reach } = client(remoteGame(server, binding));
    const start = await replies(send(c, 'ctx', 'start', '我们玩猜动物叫声吧'));
    expect(start).toHaveLength(1);
    expect(start[0]).toMatchObject({ final: true, reply: { session: 'active' } });
    expect(start[0].reply.text).toMatch(/^我们来玩猜动物叫声！一共3题。第1题，听好啦：/);
    // The seeded order: answer each question right (the reference game's data says which animal).
    const { ANIMALS } = await import('../../../examples/remote-game/game.ts');
    let last = start[0].reply.text;
    for (let q = 0; q < 3; q++) {
      const animal = ANIMALS.find((a) => last.includes(a.sound))!;
      const r = await replies(send(c, 'ctx', 'message', `是${animal.names[0]}`));
      expect(r.map((e) => e.final)).toEqual([false, true]);
      expect(r[0].reply).toEqual({ protocol: 'desktop-game/5', text: `答对啦！就是${animal.name}。`, session: 'active' });
      last = r[1].reply.text;
      if (q === 2) expect(r[1].reply).toMatchObject({ text: '三题都做完啦！你答对了3题。下次再来玩！', session: 'ended' });
    }
    expect(reach.every(([ok]) => ok)).toBe(true);
  });

  it('the turn budget travels with the request, as it does to a game in a worker', async () => {
    const budgets: Array<number | undefined> = [];
    const sounds = animalSoundsLogic(seeded(7));
    const server = await serve({ play: (turn) => (budgets.push(turn.budgetMs), sounds.play(turn)) });
    const { c } = client(remoteGame(server, binding));
    await replies(c.request('animal-sounds', 'ctx', gameInput('start', '开始'), { budgetMs: 6543 }));
    await replies(c.request('animal-sounds', 'ctx', gameInput('end', '不玩了')));
    expect(budgets).toEqual([6543, undefined]);
  });
});

describe('when a remote game fails', () => {
  it('a server that is down: game_unreachable, the session kept for a message, the game reported unreachable', async () => {
    const server = await serve();
    const game = remoteGame(server);
    await server.close();
    const { c, reach } = client(game);
    const err = await failure(send(c, 'ctx', 'message', '是小狗'));
    expect(err.code).toBe('game_unreachable');
    expect(err.sessionLost).toBe(false);
    expect(reach.at(-1)?.[0]).toBe(false);
  });

  it('a server killed mid-turn: game_unreachable with the session lost (nothing answers GetTask)', async () => {
    const server = await serve({
      play: (t) => (t.kind === 'start' ? { text: '开始啦', ended: false } : (t.say('让我想想……'), new Promise(() => undefined))),
    });
    const { c, reach } = client(remoteGame(server));
    await replies(send(c, 'ctx', 'start', '开始'));
    const it = send(c, 'ctx', 'message', '慢慢想').replies[Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ final: false, reply: { text: '让我想想……' } });
    await server.close();
    const err = await it.next().then(
      () => undefined,
      (e: unknown) => e as GameRequestError,
    );
    expect(err?.code).toBe('game_unreachable');
    expect(err?.sessionLost, err?.message).toBe(true);
    expect(reach.at(-1)?.[0]).toBe(false);
  });

  it('a server that stalls: game_timeout after the wait, and the turn is cancelled on the server', async () => {
    const aborted = deferred<string>();
    const server = await serve({
      play: (t) =>
        t.kind === 'start'
          ? { text: '开始啦', ended: false }
          : new Promise((_r, rej) => t.signal.addEventListener('abort', () => (aborted.resolve(String(t.signal.reason)), rej(t.signal.reason)))),
    });
    const { c } = client(remoteGame(server), { stallTimeoutMs: () => 200 });
    await replies(send(c, 'ctx', 'start', '开始'));
    const err = await failure(send(c, 'ctx', 'message', '我想想'));
    expect(err.code).toBe('game_timeout');
    expect(err.sessionLost).toBe(false);
    expect(await aborted.promise).toContain('CancelTask');
  });

  it('a failed turn on the server: game_failed with its detail', async () => {
    const server = await serve({
      play: () => {
        throw new Error('the dice fell off the table');
      },
    });
    const { c } = client(remoteGame(server));
    const err = await failure(send(c, 'ctx', 'start', '开始'));
    expect(err.code).toBe('game_failed');
    expect(err.message).toContain('the dice fell off the table');
  });

  it('a reply outside the protocol (empty text): game_protocol', async () => {
    const server = await serve({ play: () => ({ text: '', ended: false }) });
    const { c } = client(remoteGame(server));
    const err = await failure(send(c, 'ctx', 'start', '开始'));
    expect(err.code).toBe('game_protocol');
    expect(err.message).toMatch(/1\.\.500 characters/);
  });

  it('a stream that breaks while the server lives: a completed turn still gives its final reply (GetTask)', async () => {
    const server = await serve({ play: (t) => ({ text: `好的：${t.text}`, ended: false }) });
    const { c } = client(remoteGame(server), { fetchImpl: cutStreamsAfterFirstEvent('server-end') });
    const r = await replies(send(c, 'ctx', 'start', '开始'));
    expect(r).toEqual([{ final: true, reply: { protocol: 'desktop-game/5', text: '好的：开始', session: 'active' } }]);
  });

  it('a stream that breaks while the turn still runs: the task is cancelled, the session kept', async () => {
    const aborted = deferred();
    const running = deferred();
    const server = await serve({
      play: (t) => new Promise((_r, rej) => (running.resolve(), t.signal.addEventListener('abort', () => (aborted.resolve(), rej(t.signal.reason))))),
    });
    const { c } = client(remoteGame(server), { fetchImpl: cutStreamsAfterFirstEvent(running.promise) });
    const err = await failure(send(c, 'ctx', 'message', '你好'));
    expect(err.code).toBe('game_unreachable');
    expect(err.sessionLost).toBe(false);
    await aborted.promise;
  });

  it('cancel() cancels the running turn: game_cancelled', async () => {
    const running = deferred();
    const server = await serve({ play: (t) => new Promise((_r, rej) => (running.resolve(), t.signal.addEventListener('abort', () => rej(t.signal.reason)))) });
    const { c } = client(remoteGame(server));
    const req = send(c, 'ctx', 'message', '你好');
    const failed = failure(req);
    await running.promise;
    await req.cancel();
    expect((await failed).code).toBe('game_cancelled');
  });

  it('an unknown game id: game_not_found', async () => {
    const server = await serve();
    const { c } = client(remoteGame(server));
    expect((await failure(c.request('nope', 'ctx', gameInput('start', '开始')))).code).toBe('game_not_found');
  });
});

/**
 * A fetch whose SSE bodies break (a network error) after their first event: the server lives on,
 * the client's stream is cut. It breaks once the server's own stream has ended (`'server-end'`: the
 * task is finished and stored), or once `when` resolves.
 */
function cutStreamsAfterFirstEvent(when: Promise<unknown> | 'server-end'): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const body = new ReadableStream<Uint8Array>({
      async start(ctl) {
        let text = '';
        let ended = false;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            ended = true;
            break;
          }
          text += decoder.decode(value, { stream: true });
          const end = text.indexOf('\n\n');
          if (end >= 0) {
            ctl.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
            break;
          }
        }
        if (when === 'server-end') while (!ended) ended = (await reader.read()).done;
        else {
          await when;
          void reader.cancel().catch(() => undefined);
        }
        ctl.error(new TypeError('network error'));
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}
