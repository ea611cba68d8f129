/**
 * The main agent, unchanged, playing a remote game through the routed GameClient: seed 000's rules
 * (busy gating, a failed start / end clears the session, a failed message keeps it, `session: ended`
 * clears it) hold for a game on an A2A server reached over HTTP, and the trace records its requests
 * like any other game's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { SAY } from '../../../src/arcade/errors.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { createRemoteGameClient, remoteAgentCard, type RemoteGame } from '../../../src/a2a/remote-host.ts';
import { routeGameClients } from '../../../src/a2a/routed-client.ts';
import { describe as describeError, type ErrorCode } from '../../../src/core/errors/catalogue.ts';
import type { ArcadeGame } from '../../../src/core/arcade/types.ts';
import { checkGameCard } from '../../../src/core/protocol/remote-card.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { until } from '../arcade/fakes.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { seeded } from '../../../examples/remote-game/game.ts';
import { animalSoundsLogic, startRemoteGameServer, type GameLogic, type RunningServer } from '../../../examples/remote-game/server.ts';
import { FakeGameClient, FakeSpeaker, GAMES } from '../arcade/fakes.ts';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(game?: GameLogic) {
  const server = await startRemoteGameServer({ port: 0, game: game ?? animalSoundsLogic(seeded(5)) });
  servers.push(server);
  const raw = JSON.parse(JSON.stringify(server.card));
  const checked = checkGameCard(raw, { address: new URL(server.url) });
  if (!checked.ok) throw new Error(checked.refusal.detail);
  const remote: RemoteGame = { id: 'animal-sounds', host: new URL(server.url).host, card: remoteAgentCard(raw, checked.value) };
  const local = new FakeGameClient();
  const games = routeGameClients({
    local,
    remote: createRemoteGameClient({ game: (id) => (id === remote.id ? remote : undefined) }),
    isRemote: (id) => id === remote.id,
  });
  const catalog: ArcadeGame[] = [
    ...GAMES,
    {
      declaration: { id: 'animal-sounds', title: '猜动物叫声', description: '猜动物叫声', aliases: ['动物叫声'], capabilities: [], engine: 'remote', origin: { address: server.url, host: remote.host } },
      available: true,
    },
  ];
  const speaker = new FakeSpeaker();
  const trace: TraceEvent[] = [];
  let n = 0;
  const agent = new MainAgent({
    model: () => createScriptedModel({ main: mainDemoPolicy }),
    games,
    catalog: () => catalog,
    speaker,
    trace: { record: (e) => trace.push(e) },
    newId: () => `id-${++n}`,
  });
  return { server, agent, speaker, trace, local };
}

const child = (code: ErrorCode) => describeError(code).child;

describe('the main agent playing a remote game', () => {
  it('starts it by voice over HTTP, speaks its replies, records the requests, and ends it', async () => {
    const t = await setup();
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    expect(t.local.requests).toHaveLength(0);
    expect(t.speaker.texts().at(-1)).toMatch(/^我们来玩猜动物叫声！/);
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'animal-sounds', title: '猜动物叫声' });
    const req = t.trace.find((e) => e.kind === 'a2a_request');
    expect(req).toMatchObject({ name: 'start', data: { gameId: 'animal-sounds', kind: 'start', text: '我们玩猜动物叫声吧' } });
    expect(t.trace.some((e) => e.kind === 'reply' && e.requestId === req!.requestId && e.source === 'game:animal-sounds')).toBe(true);

    await t.agent.handle('不玩了');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toMatch(/^好的，不玩啦。/);
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('holds a second input while the remote game is still thinking (busy gating)', async () => {
    let plays = 0;
    // The message turn says one sentence, then keeps thinking: the round is over, the game busy.
    const t = await setup({
      play: (turn) => (plays++, turn.kind === 'message' ? (turn.say('让我想想……'), new Promise(() => undefined)) : { text: '开始啦', ended: false }),
    });
    await t.agent.handle('玩猜动物叫声');
    await t.agent.settled();
    await t.agent.handle('是小狗');
    expect(t.speaker.texts().at(-1)).toBe('让我想想……');
    expect(t.agent.snapshot().gameBusy).toBe(true);
    // Kept, not sent while the game is busy: 「请稍等」 first.
    void t.agent.handle('是小猫');
    await until(() => t.speaker.texts().at(-1) === SAY.wait);
    expect(plays).toBe(2);
  });

  it('a server down at start: the child is told and no session is left', async () => {
    const t = await setup();
    await t.server.close();
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe(child('game_unreachable'));
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('a server down during the game: a message is told and keeps the session; the end then clears it', async () => {
    const t = await setup();
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    await t.server.close();
    await t.agent.handle('是小狗');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe(child('game_unreachable'));
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'animal-sounds' });
    await t.agent.handle('不玩了');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe(child('game_unreachable'));
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('a reply with session ended clears the game', async () => {
    const t = await setup({ play: (turn) => (turn.kind === 'start' ? { text: '开始啦', ended: false } : { text: '游戏结束啦', ended: true }) });
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    await t.agent.handle('是小狗');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe('游戏结束啦');
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('a last reply that says the game goes on is said without that sentence (the session has ended)', async () => {
    const t = await setup({ play: (turn) => (turn.kind === 'start' ? { text: '开始啦', ended: false } : { text: '游戏结束啦，你真棒！我们接着玩吧！', ended: true }) });
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    await t.agent.handle('是小狗');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe('游戏结束啦，你真棒！');
    expect(t.speaker.texts().join('')).not.toContain('接着玩');
    expect(t.agent.getHistory().at(-1)).toMatchObject({ role: 'game_agent', text: '游戏结束啦，你真棒！' });
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('a failed task is told to the child; a failed message keeps the session', async () => {
    const t = await setup({
      play: (turn) => {
        if (turn.kind === 'start') return { text: '开始啦', ended: false };
        throw new Error('the game broke');
      },
    });
    await t.agent.handle('我们玩猜动物叫声吧');
    await t.agent.settled();
    await t.agent.handle('是小狗');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe(child('game_failed'));
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'animal-sounds' });
  });
});
