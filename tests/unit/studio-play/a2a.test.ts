/**
 * The studio play agent behind the real A2A stack (serveGameAgent: the SDK's DefaultRequestHandler +
 * our GameExecutor, over a MessageChannel in Node), through both client transports of the a2a tests.
 * And the worker factory: the card from the project, the model/robot/trace over ports, the PlayBook in the Book.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { linesOf } from '../games/helpers.ts';
import { connectEngineContext, createGameAgent, serveEngine } from '../../../src/games/engines.ts';
import { GAME_ENGINES, GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';
import { exposeModel } from '../../../src/llm/model-port.ts';
import { exposeDevice } from '../../../src/robot/device-port.ts';
import { exposeTrace } from '../../../src/trace/trace-port.ts';
import { CLIENT_KINDS, closeAll, collect, connect, see, send as a2aSend, type Seen } from '../a2a/harness.ts';
import { Book } from '../../../src/studio/book.ts';
import { studioHost } from '../../../src/studio/play/studio-host.ts';
import { ControlledModel, designedGame, demoModel, FakeDevice, harness, RecordingTrace } from './helpers.ts';

afterEach(closeAll);

const replies = (seen: Seen[]) => seen.filter((s) => s.reply).map((s) => `${s.state}:${s.reply!.session}:${s.reply!.text}`);

describe.each(CLIENT_KINDS)('a studio game over A2A (%s)', (kind) => {
  it('start, answers, a whole game: WORKING for the intermediate reply, exactly one COMPLETED, only the last ended', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    const client = await connect(kind, h.handler);

    const start = await collect(a2aSend(client, 'g1', 'start', '我们玩恐龙问答吧'));
    expect(start[0]).toMatchObject({ kind: 'task', state: 'SUBMITTED' });
    expect(replies(start)).toEqual(['WORKING:active:好呀，我们来玩恐龙问答！', expect.stringMatching(/^COMPLETED:active:你好，我是小龙博士！.*第1题/)]);

    const rt = h.handler.runtimeOf('g1')!;
    let last: Seen[] = [];
    for (let i = 0; i < 10 && !last.some((s) => s.reply?.session === 'ended'); i++) {
      last = await collect(a2aSend(client, 'g1', 'message', rt.currentCard!.answer));
      const finals = last.filter((s) => s.state === 'COMPLETED');
      expect(finals).toHaveLength(1);
      expect(last.filter((s) => s.reply?.session === 'ended' && s.state !== 'COMPLETED')).toEqual([]);
    }
    expect(replies(last)).toEqual([expect.stringMatching(/^COMPLETED:ended:太棒了！你答对了 5 张，一张不落，得了 10 分，真了不起！/)]);

    // The session is gone: the protocol's "session ended" reply, still a COMPLETED task (not FAILED).
    expect(replies(await collect(a2aSend(client, 'g1', 'message', '再来')))).toEqual([expect.stringMatching(new RegExp(`^COMPLETED:ended:${linesOf('game_session_ended').source.slice(1)}`))]);
  });

  it('a model error at start is a spoken fallback in a COMPLETED task, and the session is over', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    model.failNext.add('studio:manager');
    const client = await connect(kind, harness(game, model).handler);
    const seen = await collect(a2aSend(client, 'g2', 'start', '开始'));
    expect(replies(seen)).toEqual(['WORKING:active:好呀，我们来玩恐龙问答！', expect.stringMatching(new RegExp(`^COMPLETED:ended:${linesOf('game_model_failed_start').source.slice(1)}`))]);
    expect(seen.some((s) => s.state === 'FAILED')).toBe(false);
  });

  it('end mid-turn: the turn in flight ends CANCELED, the end COMPLETED with session ended', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    const client = await connect(kind, h.handler);
    await collect(a2aSend(client, 'g3', 'start', '开始'));
    let release!: () => void;
    model.hold = new Promise((r) => (release = r));
    const inflight = collect(a2aSend(client, 'g3', 'message', '霸王龙'));
    await new Promise((r) => setTimeout(r, 30));
    const end = await collect(a2aSend(client, 'g3', 'end', '不玩了'));
    release();
    expect((await inflight).at(-1)).toMatchObject({ state: 'CANCELED' });
    expect(replies(end)).toEqual(['COMPLETED:ended:好的，今天就玩到这里，下次接着玩！这张卡的答案是「霸王龙」。']);
    expect(h.handler.liveSessions).toEqual([]);
  });

  it('CancelTask stops the turn; the game goes on from where it was', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    const client = await connect(kind, h.handler);
    await collect(a2aSend(client, 'g4', 'start', '开始'));
    const rt = h.handler.runtimeOf('g4')!;
    const card = rt.currentCard!;
    let release!: () => void;
    model.hold = new Promise((r) => (release = r));
    const stream = a2aSend(client, 'g4', 'message', card.answer);
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    const taskId = first.value!.payload!.$case === 'task' ? first.value!.payload!.value.id : '';
    await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    const rest: Seen[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(see(r.value));
    release();
    expect(rest.at(-1)).toMatchObject({ state: 'CANCELED' });
    const next = await collect(a2aSend(client, 'g4', 'message', card.answer));
    expect(replies(next)).toEqual([expect.stringMatching(/^COMPLETED:active:答对了！第2题/)]);
  });
});

describe('the worker factory (what workers/game-agent.ts runs for a studio-* id)', () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const c of channels.splice(0)) [c.port1, c.port2].forEach((p) => p.close());
  });
  function ports() {
    const [m, d, t] = [new MessageChannel(), new MessageChannel(), new MessageChannel()];
    channels.push(m, d, t);
    const device = new FakeDevice();
    const trace = new RecordingTrace();
    exposeModel(demoModel().model, m.port1);
    exposeDevice(device, d.port1);
    exposeTrace(trace, t.port1);
    return { device, trace, ports: { model: m.port2, device: d.port2, trace: t.port2 } };
  }

  it('the studio engine kind: card from the project, play over the ports, PlayBook in the Book', async () => {
    const { book, bookName, game } = await designedGame();
    const gameId = game.declaration.id;
    expect(gameId).toMatch(/^studio-konglongwenda-/);
    const { device, trace, ports: p } = ports();
    // The worker opens the Book itself (by name in tests; the app's default Book in a worker).
    const ctx = connectEngineContext({ gameId, engine: 'studio', seed: 3, ports: p }, GAME_SAFETY_CHECK);
    const { card, handler } = await serveEngine(ctx, (c) => studioHost(c, () => Book.open(bookName)));
    expect(card.name).toBe('恐龙问答');
    expect(card.description).toBe('恐龙问答：大人在设计室做的新游戏（问答：恐龙）。');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills[0]).toMatchObject({ id: gameId, tags: ['desktop-game/5', 'capability:face', 'capability:head', 'capability:screen'], examples: ['恐龙问答', '恐龙游戏', '猜恐龙', '恐龙卡牌'] });

    const said: string[] = [];
    const reply = await handler.handle({ protocol: 'desktop-game/5', kind: 'start', text: '我们玩恐龙问答吧' }, { contextId: 'w1', requestId: 'q1', signal: new AbortController().signal, say: (t: string) => said.push(t) });
    expect(reply.text).toContain('第1题');
    await expect.poll(() => device.calls.map((c) => c.op)).toEqual(['showText']);
    await expect.poll(() => trace.events.some((e) => e.source === `game:${gameId}` && e.requestId === 'q1' && e.name === 'burst')).toBe(true);
    const [pb] = await book.playBooks('p1');
    expect(pb.turns).toEqual([{ at: expect.any(Number), input: '我们玩恐龙问答吧', replies: [...said, reply.text] }]);
  });

  it('through createGameAgent, and an id that is no studio game in the Book is a clear error', async () => {
    const { ports: p } = ports();
    await expect(createGameAgent({ gameId: 'studio-nothing-here-0000', engine: 'studio', seed: 1, ports: p }, GAME_ENGINES, GAME_SAFETY_CHECK)).rejects.toMatchObject({ code: 'studio_game_missing' });
  });
});
