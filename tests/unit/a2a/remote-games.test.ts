/**
 * The remote games shelf (src/a2a/remote-games.ts) with IndexedDB (fake-indexeddb) and the reference
 * remote game agent on loopback: add by address, kept across reloads, greyed with the reason when the
 * server is down, the tablet offline or the card refused now, and back by itself.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteGames, type Connectivity } from '../../../src/a2a/remote-games.ts';
import { openRemoteStore } from '../../../src/a2a/remote-store.ts';
import { startRemoteGameServer, type RunningServer, type RemoteGameServerOptions } from '../../../examples/remote-game/server.ts';
import { eventually } from './harness.ts';

const servers: RunningServer[] = [];
const shelves: RemoteGames[] = [];
let dbCount = 0;

afterEach(async () => {
  for (const s of shelves.splice(0)) s.dispose();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(opts: RemoteGameServerOptions = {}): Promise<RunningServer> {
  const s = await startRemoteGameServer({ port: 0, seed: 1, ...opts });
  servers.push(s);
  return s;
}

function switchableNetwork(): Connectivity & { set(online: boolean): void } {
  let online = true;
  const fns = new Set<() => void>();
  return {
    online: () => online,
    subscribe: (fn) => (fns.add(fn), () => fns.delete(fn)),
    set(v) {
      online = v;
      for (const fn of fns) fn();
    },
  };
}

function shelf(opts: { db?: string; installed?: string[]; connectivity?: Connectivity } = {}) {
  const s: RemoteGames = new RemoteGames({
    store: openRemoteStore(opts.db ?? `remote-test-${++dbCount}`),
    installedIds: (): Set<string> => new Set([...(opts.installed ?? []), ...s.list().map((d) => d.id)]),
    connectivity: opts.connectivity,
    retryMs: [20],
    recheckMs: 0,
  });
  shelves.push(s);
  return s;
}

describe('remote games on the shelf', () => {
  it('adds a game by its address: listed as a remote declaration with its origin, available', async () => {
    const server = await serve();
    const games = shelf();
    const r = await games.add(server.url);
    expect(r.ok).toBe(true);
    const host = new URL(server.url).host;
    expect(games.list()).toEqual([
      {
        id: 'animal-sounds',
        title: '猜动物叫声',
        description: expect.stringContaining('猜动物叫声：'),
        aliases: ['听声音猜动物', '动物叫声', '猜叫声'],
        capabilities: [],
        engine: 'remote',
        origin: { address: server.url, host },
      },
    ]);
    expect(games.availability('animal-sounds')).toEqual({ available: true });
    expect(games.isRemote('animal-sounds')).toBe(true);
    expect(games.game('animal-sounds')?.card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON']);
  });

  it('keeps added games across a reload, and forgets a removed one', async () => {
    const server = await serve();
    const db = `remote-keep-${++dbCount}`;
    const first = shelf({ db });
    expect((await first.add(server.url)).ok).toBe(true);
    const second = shelf({ db });
    await second.start();
    expect(second.list().map((d) => d.id)).toEqual(['animal-sounds']);
    await second.remove('animal-sounds');
    const third = shelf({ db });
    await third.start();
    expect(third.list()).toEqual([]);
  });

  it('refuses the same address twice, a game id already installed, and says why', async () => {
    const server = await serve();
    const games = shelf({ installed: ['guess-number'] });
    expect((await games.add(server.url)).ok).toBe(true);
    const again = await games.add(`${server.url}/`);
    expect(!again.ok && again.refusal.reason).toContain('已经添加过了');
    const clash = shelf({ installed: ['animal-sounds'] });
    const r = await clash.add(server.url);
    expect(!r.ok && r.refusal.reason).toContain('已经有一个编号是「animal-sounds」');
  });

  it('refuses an address that does not answer, or has no card there, with the reason', async () => {
    const server = await serve();
    const url = server.url;
    const games = shelf();
    const missing = await games.add(`${url}/somewhere-else/animal-sounds`);
    expect(!missing.ok && missing.refusal.reason).toContain('没有找到游戏名片');
    await server.close();
    const down = await games.add(url);
    expect(!down.ok && down.refusal.reason).toContain('连不上');
    expect(!down.ok && down.refusal.reason).toContain('CORS');
    expect(games.list()).toEqual([]);
  });

  it('greys a game whose server went away (reported by a request), and brings it back by itself', async () => {
    const server = await serve();
    const port = Number(new URL(server.url).port);
    const games = shelf();
    await games.add(server.url);
    let changes = 0;
    games.onChange(() => changes++);
    await server.close();
    games.reach('animal-sounds', false, 'fetch failed');
    const greyed = games.availability('animal-sounds');
    expect(greyed.available).toBe(false);
    expect(!greyed.available && greyed.reason).toBe(`连不上放这个游戏的电脑（127.0.0.1:${port}），它可能关机了。它开了以后，这个游戏会自己回来。`);
    expect(changes).toBeGreaterThan(0);
    await serve({ port });
    await eventually(() => expect(games.availability('animal-sounds')).toEqual({ available: true }), 400);
  });

  it('greys a game on another computer while the tablet is offline, and checks it when it comes back', async () => {
    const server = await serve();
    const net = switchableNetwork();
    // A game on this device (loopback) plays offline too.
    const near = shelf({ connectivity: net });
    await near.add(server.url);
    net.set(false);
    expect(near.availability('animal-sounds')).toEqual({ available: true });

    // A game stored with an address on another computer; its card reads go to a fake fetch (no traffic leaves this machine).
    const db = `remote-far-${++dbCount}`;
    const card = JSON.parse(JSON.stringify(server.card));
    card.supportedInterfaces = card.supportedInterfaces.map((i: any) => ({ ...i, url: i.url.replace(new URL(server.url).origin, 'https://games.example.org') }));
    await openRemoteStore(db).put({ id: 'animal-sounds', address: 'https://games.example.org', card, addedAt: 1 });
    const reads: string[] = [];
    const far = new RemoteGames({
      store: openRemoteStore(db),
      installedIds: () => new Set(),
      connectivity: net,
      fetch: { fetchImpl: async (u) => (reads.push(String(u)), Response.json(card)) },
      retryMs: [20],
      recheckMs: 0,
    });
    shelves.push(far);
    await far.start();
    const off = far.availability('animal-sounds');
    expect(!off.available && off.reason).toBe('平板现在没有连网，这个游戏在别的电脑上。连上网以后，它会自己回来。');
    expect(reads).toEqual([]); // offline: not even tried
    net.set(true);
    await eventually(() => expect(reads).toEqual(['https://games.example.org/.well-known/agent-card.json']));
    await eventually(() => expect(far.views()[0].health.state).toBe('ok'));
    expect(far.availability('animal-sounds')).toEqual({ available: true });
  });

  it('greys a game whose card changed to another game, with the reason', async () => {
    const server = await serve();
    const port = Number(new URL(server.url).port);
    const games = shelf();
    await games.add(server.url);
    await server.close();
    const skill = { name: 'fox-sounds', description: '', title: '猜狐狸', aliases: [], capabilities: ['voice'] };
    await serve({ port, skill });
    await games.check('animal-sounds');
    const a = games.availability('animal-sounds');
    expect(!a.available && a.reason).toContain('另一个游戏');
  });

  it('greys a game that needs the robot drawing, with the reason', async () => {
    const skill = { name: 'draw-remote', description: '远程画画', title: '远程画画', aliases: [], capabilities: ['draw', 'face'] };
    const server = await serve({ skill });
    const games = shelf();
    expect((await games.add(server.url)).ok).toBe(true);
    const a = games.availability('draw-remote');
    expect(!a.available && a.reason).toContain('画画');
  });
});
