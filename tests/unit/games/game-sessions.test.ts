/**
 * GameSessions owns every rule of seed 000's game service and error table, once for every engine.
 * The same suite runs against both engines: a built-in game (猜数字, the SkillAgent) and a game
 * designed in the Studio (恐龙问答, the Studio's play runtime).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { EngineFactory } from '../../../src/core/games/engine.ts';
import type { ChatModel, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { gameInput, parseGameReply, ReplySequence, type GameInputKind, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import { seededRandom } from '../../../src/core/random.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy as guessPolicy } from '../../../skills/guess-number/demo.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { studioEngineFactory } from '../../../src/studio/play/studio-engine.ts';
import { clock, demoModel, designedGame } from '../studio-play/helpers.ts';
import { ctx, deferred, FakeDevice, lineOf, linesOf, RecordingTrace, secretRandom } from './helpers.ts';

/** A model in the test's hands: the game's own demo policy underneath, with faults and a gate on top. */
class Controlled implements ChatModel {
  readonly label = 'controlled';
  requests: StepRequest[] = [];
  /** The next step of the engine's agent fails like a model that crashed. */
  failNext = false;
  /** The next step is a call of a tool that is not offered (the tool loop must refuse it). */
  badNext = false;
  /** While set, steps wait for it (and for nothing else: not even their signal). */
  gate: Promise<void> | null = null;
  entered = deferred<void>();
  constructor(
    private readonly inner: ChatModel,
    private readonly agent: string,
  ) {}
  async step(req: StepRequest): Promise<Step> {
    this.requests.push(req);
    if (req.agent === this.agent && this.failNext) {
      this.failNext = false;
      throw Object.assign(new Error('the model crashed'), { code: 'model_failed' });
    }
    if (req.agent === this.agent && this.badNext) {
      this.badNext = false;
      return { action: 'fly_to_the_moon', args: {} };
    }
    if (this.gate) {
      this.entered.resolve();
      await this.gate;
    }
    return this.inner.step(req);
  }
  /** Every prompt text the engine's agent was sent since request `from`. */
  promptsSince(from: number): string {
    return this.requests
      .slice(from)
      .map((r) => r.messages.map((m) => m.content).join('\n'))
      .join('\n');
  }
}

interface Fixture {
  name: string;
  setup(): Promise<{ create: EngineFactory; model: Controlled }>;
  /** The i-th ordinary in-game input, each with words of its own. */
  message(i: number): string;
}

const FIXTURES: Fixture[] = [
  {
    name: 'a built-in game (猜数字, SkillAgent)',
    async setup() {
      const model = new Controlled(createScriptedModel({ 'game:guess-number': guessPolicy }), 'game:guess-number');
      return { model, create: () => new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(37), preExecute: false }) };
    },
    message: (i) => `我猜${[50, 20, 80, 10, 90, 60][i % 6]}`,
  },
  {
    name: 'a Studio design (恐龙问答, play runtime)',
    async setup() {
      const { game } = await designedGame();
      const model = new Controlled(demoModel().model, 'studio:manager');
      const create = studioEngineFactory(async () => game, { model, device: new FakeDevice(), source: 'game:studio-test', random: seededRandom(5), runtime: { now: clock(), preExecute: false } });
      return { model, create };
    },
    message: (i) => ['不知道', '是甲龙吗', '我猜不到', '是翼龙吗', '再给个提示', '是剑龙吗'][i % 6],
  },
];

/** Sends one input; checks the reply sequence as the executor would (1–500 chars, one final, only it ended). */
async function send(s: GameSessions, kind: GameInputKind, text: string, contextId = 'c1', signal?: AbortSignal): Promise<{ reply: GameReply; said: string[] }> {
  const seq = new ReplySequence();
  const c = ctx(contextId, signal);
  const said: string[] = [];
  const reply = await s.handle(gameInput(kind, text), {
    ...c,
    say: (t) => {
      said.push(seq.intermediate(parseGameReply({ protocol: 'desktop-game/5', text: t, session: 'active' })).text);
    },
  });
  seq.final(parseGameReply(reply));
  return { reply, said };
}

describe.each(FIXTURES)('GameSessions with $name', (fx) => {
  async function setup() {
    const { create, model } = await fx.setup();
    const device = new FakeDevice();
    const trace = new RecordingTrace();
    const sessions = new GameSessions({ create, device, trace, source: 'game:test', queue: { graceMs: 50 } });
    return { sessions, model, device, trace };
  }

  it('plays: start, a message, end — each with exactly one final reply; the robot goes idle once', async () => {
    const { sessions, device } = await setup();
    const start = await send(sessions, 'start', '我们开始吧');
    expect(start.reply.session).toBe('active');
    expect((await send(sessions, 'message', fx.message(0))).reply.session).toBe('active');
    const end = await send(sessions, 'end', '不玩了');
    expect(end.reply.session).toBe('ended');
    expect(device.calls.filter((c) => c.op === 'idle')).toHaveLength(1);
    expect(sessions.liveSessions).toEqual([]);
  });

  it('row 1: a tool call the loop refuses goes back to the model as {"error": …}; the model recovers', async () => {
    const { sessions, model } = await setup();
    await send(sessions, 'start', '我们开始吧');
    model.badNext = true;
    const from = model.requests.length;
    const r = await send(sessions, 'message', fx.message(0));
    expect(r.reply.session).toBe('active');
    expect(r.reply.text).not.toMatch(linesOf('game_model_failed'));
    expect(model.promptsSince(from)).toMatch(/<tool_response>\{"name":"fly_to_the_moon","result":\{"error":"现在不能用 fly_to_the_moon/);
  });

  it('row 2 (message): the model fails → the fallback sentence, the session goes on, the turn is not remembered', async () => {
    const { sessions, model } = await setup();
    await send(sessions, 'start', '我们开始吧');
    model.failNext = true;
    const failed = await send(sessions, 'message', fx.message(1));
    expect(failed.reply).toEqual({ protocol: 'desktop-game/5', text: lineOf('game_model_failed'), session: 'active' });
    const from = model.requests.length;
    const next = await send(sessions, 'message', fx.message(2));
    expect(next.reply.session).toBe('active');
    expect(model.promptsSince(from)).not.toContain(fx.message(1));
  });

  it('row 2 (start): the model fails at start → the fallback, and the session is over', async () => {
    const { sessions, model, device } = await setup();
    model.failNext = true;
    const r = await send(sessions, 'start', '我们开始吧');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: lineOf('game_model_failed_start'), session: 'ended' });
    expect((await send(sessions, 'message', fx.message(0))).reply).toMatchObject({ text: lineOf('game_session_ended'), session: 'ended' });
    expect(device.calls.filter((c) => c.op === 'idle')).toHaveLength(1);
  });

  it('row 2 (end): the model fails at end → the session ends anyway, with a sentence for the child', async () => {
    const { sessions, model } = await setup();
    await send(sessions, 'start', '我们开始吧');
    model.failNext = true;
    const r = await send(sessions, 'end', '不玩了');
    expect(r.reply.session).toBe('ended');
    expect(r.reply.text.length).toBeGreaterThan(0);
    expect(sessions.liveSessions).toEqual([]);
  });

  it('row 3: start while a session is live closes it and starts a fresh one', async () => {
    const { sessions } = await setup();
    await send(sessions, 'start', '我们开始吧', 'old');
    await send(sessions, 'message', fx.message(0), 'old');
    const fresh = await send(sessions, 'start', '再来一局', 'new');
    expect(fresh.reply.session).toBe('active');
    expect(sessions.liveSessions).toEqual(['new']);
    expect((await send(sessions, 'message', fx.message(1), 'old')).reply).toEqual({ protocol: 'desktop-game/5', text: lineOf('game_session_ended'), session: 'ended' });
  });

  it.each(['message', 'end'] as const)('row 4: %s for a session that does not exist → session: ended, and no model call', async (kind) => {
    const { sessions, model, trace } = await setup();
    const r = await send(sessions, kind, kind === 'end' ? '' : fx.message(0), 'nobody');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: lineOf('game_session_ended'), session: 'ended' });
    expect(model.requests).toHaveLength(0);
    expect(trace.events.some((e) => e.name === 'session_ended')).toBe(true);
  });

  it('handles the requests of one session one at a time, in arrival order', async () => {
    const { sessions, model } = await setup();
    await send(sessions, 'start', '我们开始吧');
    const gate = deferred<void>();
    model.gate = gate.promise;
    model.entered = deferred<void>();
    const first = send(sessions, 'message', fx.message(0));
    const second = send(sessions, 'message', fx.message(1));
    await model.entered.promise;
    await new Promise((r) => setTimeout(r, 5));
    expect(model.promptsSince(0)).not.toContain(fx.message(1)); // the second has not reached the model
    model.gate = null;
    gate.resolve();
    await Promise.all([first, second]);
    expect(model.promptsSince(0)).toContain(fx.message(1));
  });

  it('end cancels the turn in flight (a model that would never answer), then ends; the cancelled words are not remembered', async () => {
    const { sessions, model, device } = await setup();
    await send(sessions, 'start', '我们开始吧');
    model.gate = new Promise(() => {});
    model.entered = deferred<void>();
    const inflight = send(sessions, 'message', fx.message(3));
    await model.entered.promise;
    model.gate = null;
    const from = model.requests.length;
    // Watched before the `end` is awaited: the cancelled turn rejects while the end runs.
    const cancelled = expect(inflight).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled by end' });
    const end = await send(sessions, 'end', '不玩了');
    await cancelled;
    expect(end.reply.session).toBe('ended');
    expect(model.promptsSince(from)).not.toContain(fx.message(3));
    expect(device.calls.at(-1)).toEqual({ op: 'idle' });
  });

  it('a cancelled request (CancelTask) rejects and leaves the session usable', async () => {
    const { sessions, model } = await setup();
    await send(sessions, 'start', '我们开始吧');
    model.gate = new Promise(() => {});
    model.entered = deferred<void>();
    const controller = new AbortController();
    const p = send(sessions, 'message', fx.message(0), 'c1', controller.signal);
    await model.entered.promise;
    controller.abort(new DOMException('task cancelled', 'AbortError'));
    await expect(p).rejects.toThrow('task cancelled');
    model.gate = null;
    const next = await send(sessions, 'message', fx.message(1));
    expect(next.reply.session).toBe('active');
  });
});

describe('GameSessions with any engine', () => {
  const engine = (text: string, ended = false) => ({ turn: async () => ({ text, ended }), close() {} });

  it('an empty reply from the engine is a failure: the fallback sentence is said instead', async () => {
    const s = new GameSessions({ create: () => engine('   '), source: 'game:x' });
    expect((await send(s, 'start', '开始')).reply).toEqual({ protocol: 'desktop-game/5', text: lineOf('game_model_failed_start'), session: 'ended' });
  });

  it('a reply longer than 500 characters is cut at a sentence end to fit the protocol', async () => {
    const long = '这是一句话。'.repeat(120);
    const s = new GameSessions({ create: () => engine(long), source: 'game:x' });
    const r = await send(s, 'start', '开始');
    expect(Array.from(r.reply.text).length).toBeLessThanOrEqual(500);
    expect(r.reply.text.endsWith('。')).toBe(true);
  });

  it('an engine that cannot be made (the design is gone) → its own sentence, and the session is over', async () => {
    const { EngineFailure } = await import('../../../src/core/games/engine.ts');
    const s = new GameSessions({ create: () => Promise.reject(new EngineFailure('gone', { code: 'studio_game_missing', sessionOver: true })), source: 'game:x' });
    const r = await send(s, 'start', '开始');
    expect(r.reply.session).toBe('ended');
    expect(r.reply.text).toMatch(/找不到/);
    expect(s.liveSessions).toEqual([]);
  });

  it('after `end` the session is over even if the engine said it goes on; the engine is closed once', async () => {
    let closed = 0;
    const s = new GameSessions({ create: () => ({ turn: async () => ({ text: '好', ended: false }), close: () => void closed++ }), source: 'game:x' });
    await send(s, 'start', '开始');
    expect((await send(s, 'end', '')).reply.session).toBe('ended');
    expect(closed).toBe(1);
    expect(s.liveSessions).toEqual([]);
  });
});

describe('the turn budget on the game side', () => {
  it('a request carrying a budget gives its turn a deadline inside it (time kept back for the reply to travel)', async () => {
    const deadlines: Array<number | undefined> = [];
    const colours: Array<number | undefined> = [];
    const s = new GameSessions({
      create: () => ({ turn: async (t) => (deadlines.push(t.deadline), colours.push(t.colourMs), { text: '好', ended: false }), close: () => undefined }),
      source: 'game:test',
      now: () => 1000,
    });
    await s.handle(gameInput('start', '开始'), { ...ctx('b'), budgetMs: 5000, colourMs: 7000 });
    await s.handle(gameInput('message', '我猜50'), ctx('b'));
    expect(deadlines[0]).toBeGreaterThan(1000);
    expect(deadlines[0]).toBeLessThan(6000);
    // No budget in the request: the default T2.
    expect(deadlines[1]).toBeGreaterThan(6000);
    // The colour window the request carried reaches the engine's turn (absent: the engine's own).
    expect(colours).toEqual([7000, undefined]);
  });
});
