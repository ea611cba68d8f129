import { describe, expect, it } from 'vitest';
import { GameService } from '../../../src/games/game-service.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatModel, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { gameInput } from '../../../src/core/protocol/game-protocol.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy } from '../../../skills/guess-number/demo.ts';
import { ctx, deferred, FakeDevice, RecordingTrace, secretRandom, send } from './helpers.ts';

/** The demo policy behind the real model layer, with an optional gate that holds a step until released. */
class GatedModel implements ChatModel {
  readonly label = 'gated';
  readonly inner = createScriptedModel({ 'game:guess-number': policy });
  requests: StepRequest[] = [];
  gate: Promise<void> | null = null;
  entered = deferred<void>();
  async step(req: StepRequest): Promise<Step> {
    this.requests.push(req);
    if (this.gate) {
      this.entered.resolve();
      const abort = new Promise<never>((_, reject) =>
        req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }),
      );
      await Promise.race([this.gate, abort]);
    }
    return this.inner.step(req);
  }
  userTexts(): string[] {
    return this.requests.map((r) => JSON.parse(r.messages.filter((m) => m.role === 'user' && m.content.startsWith('{"event"')).at(-1)!.content).user_text);
  }
}

function setup(secret = 37) {
  const model = new GatedModel();
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  const agents: GuessNumberAgent[] = [];
  const service = new GameService(
    () => {
      const a = new GuessNumberAgent({ model, device, trace, random: () => secretRandom(secret) });
      agents.push(a);
      return a;
    },
    { device, trace, source: 'game:guess-number' },
  );
  return { model, device, trace, service, agents };
}

describe('GameService sessions', () => {
  it('start while a session is live closes it and starts a fresh one', async () => {
    const { service, agents } = setup();
    await send(service, 'start', '玩猜数字', 'old');
    await send(service, 'message', '我猜50', 'old');
    expect(agents[0].game.triesLeft).toBe(6);

    const fresh = await send(service, 'start', '再玩一次猜数字', 'new');
    expect(fresh.reply.session).toBe('active');
    expect(agents).toHaveLength(2);
    expect(agents[1].game.triesLeft).toBe(7);
    expect(service.liveSessions).toEqual(['new']);

    const stale = await send(service, 'message', '我猜40', 'old');
    expect(stale.reply.session).toBe('ended');
    expect(stale.reply.text).toMatch(/结束/);
    expect(agents[0].game.triesLeft).toBe(6);
  });

  it('start again in the same context restarts the game with new state and empty memory', async () => {
    const { service, agents } = setup();
    await send(service, 'start', '玩猜数字');
    await send(service, 'message', '我猜50');
    await send(service, 'start', '重新开始');
    expect(agents).toHaveLength(2);
    expect(agents[1].game.guesses).toEqual([]);
    expect(agents[1].rounds).toHaveLength(1);
  });

  it.each(['message', 'end'] as const)('%s for a session that never existed → session: ended, told in Chinese', async (kind) => {
    const { service, model } = setup();
    const r = await send(service, kind, kind === 'end' ? '' : '我猜10', 'nobody');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: '这局游戏已经结束啦。想再玩的话，跟我说“开始游戏”吧。', session: 'ended' });
    expect(model.requests).toHaveLength(0);
  });

  it('message after the game ended naturally → session: ended; the robot went back to idle once', async () => {
    const { service, device } = setup(37);
    await send(service, 'start', '玩猜数字');
    const win = await send(service, 'message', '我猜37');
    expect(win.reply.session).toBe('ended');
    expect(device.calls.filter((c) => c.op === 'idle')).toHaveLength(1);
    const after = await send(service, 'message', '我猜38');
    expect(after.reply.session).toBe('ended');
    expect(service.liveSessions).toEqual([]);
  });

  it('handles the requests of one session one at a time, in arrival order', async () => {
    const { service, model, agents } = setup();
    await send(service, 'start', '玩猜数字');
    const gate = deferred<void>();
    model.gate = gate.promise;
    const first = service.handle(gameInput('message', '我猜50'), ctx());
    const second = service.handle(gameInput('message', '我猜20'), ctx());
    await model.entered.promise;
    expect(model.userTexts().at(-1)).toBe('我猜50');
    expect(model.userTexts()).not.toContain('我猜20'); // the second has not reached the model yet
    gate.resolve();
    await Promise.all([first, second]);
    expect(agents[0].game.guesses.map((g) => g.number)).toEqual([50, 20]);
  });

  it('end cancels the in-flight turn first (its model step is aborted), then ends the session', async () => {
    const { service, model, agents, device } = setup();
    await send(service, 'start', '玩猜数字');
    model.gate = new Promise(() => {}); // a model that would never answer on its own
    const c = ctx();
    const inflight = service.handle(gameInput('message', '我猜50'), c);
    await model.entered.promise;
    model.gate = null;
    const end = await send(service, 'end', '不玩了');
    await expect(inflight).rejects.toThrow(/cancelled by end/);
    expect(end.reply.session).toBe('ended');
    expect(end.reply.text).toContain('答案是 37');
    expect(agents[0].game.guesses).toEqual([]); // the cancelled guess was never judged
    expect(device.calls.at(-1)).toEqual({ op: 'idle' });
    expect(agents[0].rounds.map((r) => JSON.parse(r.user).event)).toEqual(['start', 'end']);
  });

  it('a cancelled request (CancelTask) rejects and leaves the session usable', async () => {
    const { service, model } = setup();
    await send(service, 'start', '玩猜数字');
    model.gate = new Promise(() => {});
    const controller = new AbortController();
    const p = service.handle(gameInput('message', '我猜50'), ctx('ctx-1', controller.signal));
    await model.entered.promise;
    controller.abort(new Error('task cancelled'));
    await expect(p).rejects.toThrow('task cancelled');
    model.gate = null;
    const next = await send(service, 'message', '我猜60');
    expect(next.reply.session).toBe('active');
    expect(next.reply.text).toContain('60');
  });

  it('a model failure on start ends the session with a fallback; later messages get session: ended', async () => {
    const device = new FakeDevice();
    const broken: ChatModel = { label: 'x', step: async () => { throw new Error('no GPU'); } };
    const service = new GameService(() => new GuessNumberAgent({ model: broken, device }), { device });
    const r = await send(service, 'start', '玩猜数字');
    expect(r.reply).toMatchObject({ session: 'ended' });
    expect(r.reply.text).toMatch(/没能开始/);
    expect((await send(service, 'message', '我猜1')).reply.session).toBe('ended');
  });
});
