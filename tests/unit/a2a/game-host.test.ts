/**
 * The main thread's GameClient over a fake Worker (an EventTarget that serves the game on the
 * transferred MessagePort in-process): lazy start, replies, cancel, and crash / hang detection with
 * a fresh worker afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { describe as errorSentence } from '../../../src/core/errors/catalogue.ts';
import { createGameClient, type GameClientOptions, type GameWorkerInit } from '../../../src/a2a/game-host.ts';
import { createEchoGame, ECHO_GAME } from '../../support/a2a/echo-game.ts';
import { GameRequestError, type GameClient, type GameRequest, type ReplyEvent } from '../../../src/a2a/types.ts';
import { hostGameAgent } from '../../../src/a2a/worker-entry.ts';
import { gameInput, gameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';
import { deferred } from './harness.ts';

/** A Worker stand-in: runs the real worker entry (hostGameAgent) on its own side of the ports. */
class FakeWorker extends EventTarget {
  terminated = false;
  frozen = false;
  a2a: MessagePort | undefined;
  private readonly inside = new EventTarget();

  constructor(makeHandler: () => GameHandler, initError?: string) {
    super();
    hostGameAgent(
      {
        addEventListener: (type, l) => this.inside.addEventListener(type, l as EventListener),
        postMessage: (m) => queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data: m }))),
      },
      async ({ gameId }) => {
        if (initError) throw new Error(initError);
        return { card: agentCardFor({ ...ECHO_GAME, id: gameId }), handler: makeHandler() };
      },
    );
  }

  postMessage(msg: GameWorkerInit): void {
    this.a2a = msg.ports.a2a;
    queueMicrotask(() => this.inside.dispatchEvent(new MessageEvent('message', { data: msg })));
  }

  terminate(): void {
    this.terminated = true;
    this.a2a?.close();
  }

  /** An uncaught error in the worker. */
  crash(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message }));
  }

  /** A blocked event loop: the worker stops reading its port (pings go unanswered). */
  freeze(): void {
    this.frozen = true;
    if (this.a2a) this.a2a.onmessage = () => undefined;
  }
}

const clients: GameClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.stopAll();
});

function setup(makeHandler: () => GameHandler = () => createEchoGame({ slowMs: 60_000 }), extra: Partial<GameClientOptions> & { initError?: string } = {}) {
  const workers: FakeWorker[] = [];
  const client = createGameClient({
    spawn: () => {
      const w = new FakeWorker(makeHandler, extra.initError);
      workers.push(w);
      return w as unknown as Worker;
    },
    cards: (id) => (id === 'echo' ? agentCardFor(ECHO_GAME) : undefined),
    engineOf: () => 'skill',
    seed: () => 1,
    ...extra,
  });
  clients.push(client);
  return { client, workers };
}

async function all(req: GameRequest): Promise<ReplyEvent[]> {
  const out: ReplyEvent[] = [];
  for await (const ev of req.replies) out.push(ev);
  return out;
}

async function failure(req: GameRequest): Promise<GameRequestError> {
  try {
    await all(req);
  } catch (e) {
    if (e instanceof GameRequestError) return e;
    throw e;
  }
  throw new Error('the request did not fail');
}

describe('GameClient (main thread)', () => {
  it('starts the worker lazily and plays start / message / end through the SDK client', async () => {
    const { client, workers } = setup();
    expect(workers).toHaveLength(0);
    const start = client.request('echo', 's1', gameInput('start', '开始玩学说话'), { requestId: 'req-1' });
    expect(start.requestId).toBe('req-1');
    expect(workers).toHaveLength(1);
    expect(await all(start)).toEqual([{ reply: gameReply('开始啦！你说一句，我学一句。'), final: true }]);

    const msg = await all(client.request('echo', 's1', gameInput('message', '小猫')));
    expect(msg).toEqual([
      { reply: gameReply('收到第1条消息。'), final: false },
      { reply: gameReply('你说：小猫'), final: true },
    ]);
    const end = await all(client.request('echo', 's1', gameInput('end', '不玩了')));
    expect(end).toEqual([{ reply: gameReply('本局结束，一共收到1条消息。', 'ended'), final: true }]);
    expect(workers).toHaveLength(1);
  });

  it('fails a request whose task fails with game_failed, keeping the session', async () => {
    const { client } = setup();
    await all(client.request('echo', 's', gameInput('start', '开始')));
    const req = client.request('echo', 's', gameInput('message', '出错吧'));
    const seen: ReplyEvent[] = [];
    const err = await (async () => {
      try {
        for await (const ev of req.replies) seen.push(ev);
      } catch (e) {
        return e as GameRequestError;
      }
    })();
    expect(seen.map((e) => e.reply.text)).toEqual(['收到一条会出错的消息。']);
    expect(err).toBeInstanceOf(GameRequestError);
    expect(err!.code).toBe('game_failed');
    expect(err!.message).toContain('the echo game was asked to fail');
    // A failed message keeps the session: the child hears the catalogue's sentence and plays on.
    expect(err!.sessionLost).toBeFalsy();
    expect(errorSentence(err!.code).child).toBe('游戏那边出了点小问题，我们再试一次吧。');
    expect((await all(client.request('echo', 's', gameInput('message', '还在吗'))))[1].reply.text).toBe('你说：还在吗');
  });

  it('cancel() ends a running request with game_cancelled and aborts the turn', async () => {
    const aborted = deferred<boolean>();
    const { client } = setup(() => ({
      handle: (_i, { say, signal }) =>
        new Promise((_r, rej) => {
          say('想一想');
          signal.addEventListener('abort', () => {
            aborted.resolve(true);
            rej(signal.reason);
          });
        }),
    }));
    const req = client.request('echo', 's', gameInput('message', '慢'));
    const it = req.replies[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ reply: gameReply('想一想'), final: false });
    await req.cancel();
    await expect(it.next()).rejects.toMatchObject({ code: 'game_cancelled' });
    expect(await aborted.promise).toBe(true);
  });

  it('detects a crashed worker: open requests fail with game_crashed, the next start gets a fresh worker', async () => {
    const { client, workers } = setup();
    await all(client.request('echo', 's', gameInput('start', '开始')));
    const slow = client.request('echo', 's', gameInput('message', '慢慢说'));
    const it = slow.replies[Symbol.asyncIterator]();
    expect((await it.next()).value.reply.text).toBe('收到第1条消息。');
    workers[0].crash('boom');
    const err = await it.next().catch((e: unknown) => e as GameRequestError);
    expect(err).toMatchObject({ code: 'game_crashed', sessionLost: true });
    expect((err as GameRequestError).message).toContain('boom');
    expect(workers[0].terminated).toBe(true);
    // The line is true: nothing restarts by itself, the session is over.
    expect(errorSentence((err as GameRequestError).code).child).toBe('游戏突然停下来了，这局只好先玩到这里。想玩的话，再跟我说一次吧。');

    const again = await all(client.request('echo', 's2', gameInput('start', '再来')));
    expect(again.at(-1)!.reply.text).toBe('开始啦！你说一句，我学一句。');
    expect(workers).toHaveLength(2);
  });

  it('detects a hung worker (no event, no pong): game_timeout_lost, worker dropped, fresh worker next time', async () => {
    const { client, workers } = setup(undefined, { hangTimeoutMs: 80, pingTimeoutMs: 40 });
    await all(client.request('echo', 's', gameInput('start', '开始')));
    workers[0].freeze();
    const err = await failure(client.request('echo', 's', gameInput('message', '你好')));
    expect(err).toMatchObject({ code: 'game_timeout_lost', sessionLost: true });
    expect(err.message).toContain('stopped answering');
    expect(workers[0].terminated).toBe(true);
    const fresh = await all(client.request('echo', 's', gameInput('start', '重新开始')));
    expect(fresh.at(-1)!.reply.session).toBe('active');
    expect(workers).toHaveLength(2);
  });

  it('times out a silent turn of a live worker: the task is cancelled, the worker and its game stay', async () => {
    const aborted = deferred<boolean>();
    let calls = 0;
    const { client, workers } = setup(
      () => ({
        handle: (input, { signal }) => {
          calls++;
          if (input.text !== '卡住') return Promise.resolve(gameReply(`好：${input.text}`));
          signal.addEventListener('abort', () => aborted.resolve(true));
          return new Promise(() => undefined);
        },
      }),
      { hangTimeoutMs: 80, pingTimeoutMs: 1000 },
    );
    const err = await failure(client.request('echo', 's', gameInput('message', '卡住')));
    expect(err).toMatchObject({ code: 'game_timeout', sessionLost: false });
    expect(await aborted.promise).toBe(true);
    expect(workers[0].terminated).toBe(false);
    expect((await all(client.request('echo', 's', gameInput('message', '然后'))))[0].reply.text).toBe('好：然后');
    expect(workers).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('fails a request for a game with no Agent Card with game_not_found, starting nothing', async () => {
    const { client, workers } = setup();
    const err = await failure(client.request('nope', 's', gameInput('start', '玩点别的')));
    expect(err.code).toBe('game_not_found');
    expect(workers).toHaveLength(0);
    expect(errorSentence(err.code).child).toBe('我还不会这个游戏呢，我们换一个玩吧。');
  });

  it('fails requests with game_failed when the game cannot be built in its worker', async () => {
    const { client, workers } = setup(undefined, { initError: 'unknown game "echo"' });
    const err = await failure(client.request('echo', 's', gameInput('start', '开始')));
    expect(err.code).toBe('game_failed');
    expect(err.message).toContain('unknown game');
    expect(workers[0].terminated).toBe(true);
  });

  it('calls onStop once for every worker it terminates (crash, hang, stop, stopAll), before the next starts', async () => {
    const log: string[] = [];
    const { client, workers } = setup(undefined, {
      hangTimeoutMs: 80,
      pingTimeoutMs: 40,
      ports: (id) => (log.push(`ports:${id}`), {}),
      onStop: (id) => log.push(`stop:${id}`),
    });
    await all(client.request('echo', 's', gameInput('start', '开始')));
    expect(log).toEqual(['ports:echo']);
    workers[0].crash('boom');
    expect(log).toEqual(['ports:echo', 'stop:echo']);

    await all(client.request('echo', 's', gameInput('start', '开始')));
    workers[1].freeze();
    await failure(client.request('echo', 's', gameInput('message', '你好')));
    expect(workers[1].terminated).toBe(true);
    expect(log).toEqual(['ports:echo', 'stop:echo', 'ports:echo', 'stop:echo']);

    await all(client.request('echo', 's', gameInput('start', '开始')));
    client.stop('echo');
    client.stop('echo'); // nothing running: no second call
    await all(client.request('echo', 's', gameInput('start', '开始')));
    client.stopAll();
    expect(log).toEqual(['ports:echo', 'stop:echo', 'ports:echo', 'stop:echo', 'ports:echo', 'stop:echo', 'ports:echo', 'stop:echo']);
    expect(workers.map((w) => w.terminated)).toEqual([true, true, true, true]);
  });

  it('stop() ends open requests with game_cancelled; the next request starts a fresh worker', async () => {
    const { client, workers } = setup();
    await all(client.request('echo', 's', gameInput('start', '开始')));
    const slow = client.request('echo', 's', gameInput('message', '慢'));
    client.stop('echo');
    expect((await failure(slow)).code).toBe('game_cancelled');
    await all(client.request('echo', 's', gameInput('start', '开始')));
    expect(workers).toHaveLength(2);
  });
});

describe('the turn budget travels with a request', () => {
  it('in the A2A message metadata, and back out for the game', async () => {
    const { gameInputMessage, budgetOf } = await import('../../../src/a2a/game-parts.ts');
    const { gameInput } = await import('../../../src/core/protocol/game-protocol.ts');
    const msg = gameInputMessage(gameInput('message', '我猜50'), 'ctx', 'req', 6543.2);
    expect(budgetOf(msg)).toBe(6543);
    expect(budgetOf(gameInputMessage(gameInput('message', '我猜50'), 'ctx', 'req'))).toBeUndefined();
  });

  it('through the host, the worker and its executor, the game handler sees the budget and the colour window the main agent gave', async () => {
    const seen: Array<number | undefined> = [];
    const colours: Array<number | undefined> = [];
    const echo = createEchoGame();
    const handler: GameHandler = {
      ...echo,
      handle: (input, ctx) => {
        seen.push(ctx.budgetMs);
        colours.push(ctx.colourMs);
        return echo.handle(input, ctx);
      },
    };
    const { client } = setup(() => handler);
    await all(client.request('echo', 's', gameInput('start', '开始'), { budgetMs: 7000, colourMs: 9000 }));
    await all(client.request('echo', 's', gameInput('message', '小猫')));
    expect(seen).toEqual([7000, undefined]);
    expect(colours).toEqual([9000, undefined]);
  });
});
