/**
 * In a game on an engine that holds one conversation and cannot cut a begun prefill (WebLLM), a
 * main-agent model step would make the engine forget the game's conversation and read it again,
 * whole, before the game's next step. There the main agent's rules route the words that are not a
 * clear move (chat it knows, the list of games, another game, anything else to the game), with no model
 * call; on other engines, and with no game running, the model decides as before.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import type { ChatModel, EngineTraits, StepRequest } from '../../../src/core/llm/types.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import type { RulesInGame } from '../../../src/arcade/main-agent-deps.ts';
import { FakeGameClient, FakeSpeaker, GAMES, until } from './fakes.ts';

const WEBLLM: EngineTraits = { cutsPrefill: false, keepsPromptsApart: false };
const SERVER: EngineTraits = { cutsPrefill: true, keepsPromptsApart: false };
const CPU: EngineTraits = { cutsPrefill: true, keepsPromptsApart: true };

function setup(traits: EngineTraits, rulesInGame?: () => RulesInGame) {
  const games = new FakeGameClient();
  const speaker = new FakeSpeaker();
  const calls: StepRequest[] = [];
  const scripted = createScriptedModel({ main: (req) => (calls.push(req), mainDemoPolicy(req)) });
  const model: ChatModel = { label: scripted.label, traits: async () => traits, step: (req) => scripted.step(req) };
  const trace: TraceEvent[] = [];
  let n = 0;
  const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, trace: { record: (e) => trace.push(e) }, newId: () => `id-${++n}`, ...(rulesInGame ? { rulesInGame } : {}) });
  games.auto = (r) => (r.input.kind === 'end' ? r.reply('好的，下次再玩！', { final: true, session: 'ended' }) : r.reply('我想好了一个1到100的数，你猜是几？', { final: true }));
  return { agent, games, speaker, calls, trace };
}

async function inGuessNumber(t: ReturnType<typeof setup>) {
  await t.agent.handle('我们玩猜数字吧');
  await t.agent.settled();
  expect(t.agent.snapshot().session).toMatchObject({ gameId: 'guess-number' });
}

/** 「你叫什么名字？」 answered by the main agent's rules: its fixed line, no model call. */
async function answeredByRules(t: ReturnType<typeof setup>) {
  const calls = t.calls.length;
  const r = await t.agent.handle('你叫什么名字？');
  expect(r).toMatchObject({ route: 'model', modelCalls: 0, action: 'reply' });
  expect(t.calls.length).toBe(calls);
  expect(t.speaker.texts().at(-1)).toContain('不是真人哦');
}

describe('the main agent in a game on an engine that forgets on a switch (WebLLM)', () => {
  it('chat it knows is answered by its rules at once, the game goes on, and no model step evicts the game', async () => {
    const t = setup(WEBLLM);
    await inGuessNumber(t);
    await answeredByRules(t);
    expect(t.games.requests.filter((q) => q.input.kind === 'message')).toHaveLength(0);
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'guess-number' });
    expect(t.trace.filter((e) => e.kind === 'model_step' && (e.data as { byRules?: boolean })?.byRules).map((e) => e.name)).toEqual(['reply']);
  });

  it('words the rules do not know go to the game unchanged (nothing is swallowed); the list of games is told', async () => {
    const t = setup(WEBLLM);
    await inGuessNumber(t);
    const calls = t.calls.length;
    t.games.auto = (r) => r.reply('这是游戏里的话。', { final: true });
    await t.agent.handle('给我讲个故事吧');
    await t.agent.settled();
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '给我讲个故事吧' });
    expect(t.speaker.texts().at(-1)).toBe('这是游戏里的话。');
    await t.agent.handle('还有什么游戏？');
    expect(t.speaker.texts().at(-1)).toMatch(/^我们可以玩：猜数字/);
    expect(t.calls.length).toBe(calls);
  });

  it('another game asked for by name is started by the rules', async () => {
    const t = setup(WEBLLM);
    await inGuessNumber(t);
    const calls = t.calls.length;
    await t.agent.handle('我想玩画画猜猜');
    await t.agent.settled();
    await until(() => t.speaker.texts().some((s) => s.includes('需要机器人会画画')), 'the reason it cannot start');
    expect(t.calls.length).toBe(calls);
  });

  it('with no game running, the model answers chat as before', async () => {
    const t = setup(WEBLLM);
    const r = await t.agent.handle('你好');
    expect(r.modelCalls).toBe(1);
    expect(t.calls).toHaveLength(1);
  });

  for (const [engine, traits] of [
    ['a server that cuts a prefill', SERVER],
    ['the CPU engine, which keeps prompts apart', CPU],
  ] as const)
    it(`on ${engine}, the model still decides chat in a game`, async () => {
      const t = setup(traits);
      await inGuessNumber(t);
      const calls = t.calls.length;
      const r = await t.agent.handle('你叫什么名字？');
      expect(r.modelCalls).toBe(1);
      expect(t.calls.length).toBe(calls + 1);
    });
});

describe('the main agent in a game on a brain measured too slow on this device for the turn budget', () => {
  it('its rules answer chat in a game on any engine (here the CPU engine), at once; out of a game the model still answers', async () => {
    let tooSlow = true;
    const t = setup(CPU, () => (tooSlow ? 'always' : 'on-switch'));
    const first = await t.agent.handle('你好');
    expect(first.modelCalls).toBe(1);
    await inGuessNumber(t);
    await answeredByRules(t);
    // Measured again and fast enough (a shorter prompt, a higher T2): the model decides again.
    tooSlow = false;
    expect((await t.agent.handle('你叫什么名字？')).modelCalls).toBe(1);
  });

  it("'never' (the developer switch) leaves chat in a game to the model even on WebLLM", async () => {
    const t = setup(WEBLLM, () => 'never');
    await inGuessNumber(t);
    expect((await t.agent.handle('你叫什么名字？')).modelCalls).toBe(1);
  });
});
