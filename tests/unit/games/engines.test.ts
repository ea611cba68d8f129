import { afterEach, describe, expect, it } from 'vitest';
import { createGameAgent } from '../../../src/games/engines.ts';
import { GAME_ENGINES, GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';
import { loadGameModule } from '../../../src/games/skill-engine.ts';
import { builtinGames } from '../../../src/games/catalog.ts';
import { exposeModel } from '../../../src/llm/model-port.ts';
import { demoPolicy } from '../../../src/llm/demo-registry.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { exposeDevice } from '../../../src/robot/device-port.ts';
import { exposeTrace } from '../../../src/trace/trace-port.ts';
import { FakeDevice, RecordingTrace, send } from './helpers.ts';
import { loaderFlagging } from '../../support/safety/classifier-double.ts';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

function ports() {
  const [m, d, t] = [new MessageChannel(), new MessageChannel(), new MessageChannel()];
  channels.push(m, d, t);
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  exposeModel(createScriptedModel((agent) => demoPolicy(agent)), m.port1);
  exposeDevice(device, d.port1);
  exposeTrace(trace, t.port1);
  return { device, trace, ports: { model: m.port2, device: d.port2, trace: t.port2 } };
}

describe('createGameAgent (what workers/game-agent.ts calls): engines by kind', () => {
  it('every built-in game folder has a game module with createAgent', async () => {
    for (const g of builtinGames()) expect(typeof (await loadGameModule(g.id)).createAgent).toBe('function');
  });

  it('builds the card from SKILL.md and a handler wired to the model, robot and trace ports', async () => {
    const { device, trace, ports: p } = ports();
    const { card, handler } = await createGameAgent({ gameId: 'draw-guess', engine: 'skill', seed: 1, ports: p }, GAME_ENGINES, GAME_SAFETY_CHECK);
    expect(card.name).toBe('你画我猜');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills[0]).toMatchObject({ id: 'draw-guess', tags: ['desktop-game/5', 'capability:draw', 'capability:face', 'capability:head'] });
    expect(card.skills[0].examples).toContain('猜动物');

    const r = await send(handler, 'start', '玩你画我猜');
    expect(r.reply).toMatchObject({ text: '我来画一个小动物，你猜猜是什么！画好啦！第 1 题，这是什么动物呀？说出它的名字就行！', session: 'active' });
    expect(r.final.text).toBe('说出它的名字就行！');
    expect(device.calls.map((c) => c.op)).toEqual(['showProgress', 'showDrawing']);
    await expect.poll(() => trace.events.filter((e) => e.requestId === r.requestId && e.kind === 'game_tool').map((e) => e.name)).toContain('show_drawing');
    expect(trace.events.every((e) => e.source === 'game:draw-guess')).toBe(true);
  });

  it('an unknown game id or engine kind is a clear error', async () => {
    await expect(createGameAgent({ gameId: 'no-such-game', engine: 'skill', seed: 1, ports: ports().ports }, GAME_ENGINES, GAME_SAFETY_CHECK)).rejects.toMatchObject({ code: 'game_unknown' });
    await expect(createGameAgent({ gameId: 'draw-guess', engine: 'teleport', seed: 1, ports: ports().ports }, GAME_ENGINES, GAME_SAFETY_CHECK)).rejects.toMatchObject({ code: 'game_unknown' });
  });

  it('the seed decides the game: the same seed draws the same animals, another seed others', async () => {
    const firstAnimal = async (seed: number) => {
      const { trace, ports: p } = ports();
      const { handler } = await createGameAgent({ gameId: 'draw-guess', engine: 'skill', seed, ports: p }, GAME_ENGINES, GAME_SAFETY_CHECK);
      const r = await send(handler, 'start', '玩你画我猜');
      await expect.poll(() => trace.events.some((e) => e.requestId === r.requestId && e.name === 'question')).toBe(true);
      return JSON.stringify(trace.events.find((e) => e.name === 'question')!.data);
    };
    const a = await firstAnimal(11);
    expect(await firstAnimal(11)).toBe(a);
    const others = new Set(await Promise.all([12, 13, 14, 15].map(firstAnimal)));
    expect([...others].some((o) => o !== a)).toBe(true);
  });

  it('its engines check each line with the safety check they are given (a line only the classifier flags is held back there)', async () => {
    const { trace, ports: p } = ports();
    const { handler } = await createGameAgent({ gameId: 'draw-guess', engine: 'skill', seed: 1, ports: p }, GAME_ENGINES, loaderFlagging(['我来画一个小动物，你猜猜是什么！']));
    const r = await send(handler, 'start', '玩你画我猜');
    // The flagged opening words are not said; the drawing and the question still are.
    expect(r.reply).toMatchObject({ text: '画好啦！第 1 题，这是什么动物呀？说出它的名字就行！', session: 'active' });
    await expect.poll(() => trace.events.find((e) => e.kind === 'safety' && e.name === 'blocked')?.data).toMatchObject({ by: 'classifier', gameId: 'draw-guess' });
  });
});
