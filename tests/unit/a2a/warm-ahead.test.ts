/**
 * A game's worker started while the arcade is idle, so tapping its card or saying its name does not
 * wait for a worker to start and the game to load: the host starts one ahead only while no game
 * worker runs, a start of that game uses it, and a start of another game stops it unused (at most
 * one worker more, and only before the first game) and hands its seed on, so every played worker
 * gets the seed it would have had. The app's side picks the game (the last played, else the first
 * playable card) and remembers each start.
 */
import { describe, expect, it } from 'vitest';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { createGameClient, type GameWorkerInit } from '../../../src/a2a/game-host.ts';
import type { GameClient, GameRequest } from '../../../src/a2a/types.ts';
import { gameInput } from '../../../src/core/protocol/game-protocol.ts';
import { likelyNextGame } from '../../../src/core/arcade/likely-next.ts';
import type { ArcadeGame } from '../../../src/core/arcade/types.ts';
import { LAST_GAME_KEY, warmAhead } from '../../../src/ui/warm-ahead.ts';
import { ECHO_GAME } from '../../support/a2a/echo-game.ts';

/** A worker that records its init and answers nothing (the tests look at starts, not replies). */
class InertWorker extends EventTarget {
  init: GameWorkerInit | undefined;
  terminated = false;
  postMessage(msg: GameWorkerInit): void {
    this.init = msg;
  }
  terminate(): void {
    this.terminated = true;
  }
}

function host() {
  const workers: Array<{ gameId: string; worker: InertWorker }> = [];
  let seeds = 0;
  const stopped: string[] = [];
  const client = createGameClient({
    spawn: (gameId) => {
      const worker = new InertWorker();
      workers.push({ gameId, worker });
      return worker as unknown as Worker;
    },
    cards: (id) => (['guess-number', 'draw-guess'].includes(id) ? agentCardFor({ ...ECHO_GAME, id }) : undefined),
    engineOf: () => 'skill',
    seed: () => ++seeds,
    onStop: (id) => stopped.push(id),
  });
  return { client, workers, stopped };
}

const detach = (r: GameRequest) => void r.cancel().catch(() => undefined);

describe('the game host, a worker started ahead', () => {
  it("starts it before any request; that game's start uses it", () => {
    const h = host();
    h.client.warm!('guess-number');
    expect(h.workers.map((w) => w.gameId)).toEqual(['guess-number']);
    expect(h.workers[0].worker.init?.seed).toBe(1);
    detach(h.client.request('guess-number', 'c1', gameInput('start', '我们玩猜数字吧')));
    expect(h.workers).toHaveLength(1);
    expect(h.workers[0].worker.terminated).toBe(false);
  });

  it("another game's start stops it unused and gets its seed; no more workers run than without it", () => {
    const h = host();
    h.client.warm!('guess-number');
    detach(h.client.request('draw-guess', 'c1', gameInput('start', '玩你画我猜')));
    expect(h.workers.map((w) => [w.gameId, w.worker.terminated, w.worker.init?.seed])).toEqual([
      ['guess-number', true, 1],
      ['draw-guess', false, 1],
    ]);
    expect(h.stopped).toEqual(['guess-number']);
  });

  it('not while a game worker runs (each played game keeps its worker)', () => {
    const h = host();
    detach(h.client.request('draw-guess', 'c1', gameInput('start', '玩你画我猜')));
    h.client.warm!('guess-number');
    expect(h.workers.map((w) => w.gameId)).toEqual(['draw-guess']);
  });
});

const game = (id: string, extra: Partial<ArcadeGame['declaration']> = {}, available = true): ArcadeGame => ({ declaration: { ...ECHO_GAME, id, ...extra }, available });

describe('the likely next game', () => {
  const games = [game('draw-guess'), game('guess-number'), game('far', { engine: 'remote' }), game('needs-arms', {}, false)];
  it('the game played last, when it is still here and playable', () => {
    expect(likelyNextGame(games, 'guess-number')).toBe('guess-number');
  });
  it('else the first playable card; never a remote game or one this robot cannot play', () => {
    expect(likelyNextGame(games, null)).toBe('draw-guess');
    expect(likelyNextGame(games, 'far')).toBe('draw-guess');
    expect(likelyNextGame(games, 'needs-arms')).toBe('draw-guess');
    expect(likelyNextGame(games, 'uninstalled')).toBe('draw-guess');
    expect(likelyNextGame([game('far', { engine: 'remote' })], null)).toBeNull();
  });
});

describe('the app while idle', () => {
  function app(stored: string | null) {
    const warmed: string[] = [];
    const starts: string[] = [];
    const inner: GameClient = {
      request: (gameId) => (starts.push(gameId), { requestId: 'r', replies: { async *[Symbol.asyncIterator]() {} }, cancel: async () => undefined }),
      stop: () => undefined,
      stopAll: () => undefined,
      warm: (id) => void warmed.push(id),
    };
    const data = new Map<string, string>(stored ? [[LAST_GAME_KEY, stored]] : []);
    const store = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    const pending: Array<() => void> = [];
    const ahead = warmAhead(inner, () => [game('draw-guess'), game('guess-number')], { store, later: (fn) => pending.push(fn) });
    return { ahead, warmed, starts, data, runIdle: () => pending.splice(0).forEach((f) => f()) };
  }

  it('starts the last played game ahead in the next idle moment, and remembers every start', () => {
    const t = app('guess-number');
    t.ahead.idle();
    expect(t.warmed).toEqual([]);
    t.runIdle();
    expect(t.warmed).toEqual(['guess-number']);
    t.ahead.games.request('draw-guess', 'c', gameInput('start', '玩你画我猜'));
    t.ahead.games.request('draw-guess', 'c', gameInput('message', '鱼'));
    expect(t.starts).toEqual(['draw-guess', 'draw-guess']);
    expect(t.data.get(LAST_GAME_KEY)).toBe('draw-guess');
  });

  it('on a first visit, the first card', () => {
    const t = app(null);
    t.ahead.idle();
    t.runIdle();
    expect(t.warmed).toEqual(['draw-guess']);
  });
});
