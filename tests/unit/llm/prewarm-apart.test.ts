/**
 * On an engine that keeps prompts apart (EngineTraits.keepsPromptsApart: llama.cpp's prompt cache,
 * the CPU engine), each agent's prompt has its own place: the hub reads another agent's prewarm
 * after the running one instead of stopping it (a game's first, the main agent's after it) and
 * gives nothing back after a chat turn; the main agent prewarms its next prompt during a game too,
 * so a chat turn in a game — also one whose step the deadline cut — continues in place. Timers are
 * faked where a deadline is involved: no timing decides anything.
 */
import { describe, expect, it, vi } from 'vitest';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { childLines } from '../../../src/core/errors/catalogue.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatMessage, ChatModel, EngineTraits, StepRequest } from '../../../src/core/llm/types.ts';
import { FakeGameClient, FakeSpeaker, GAMES, until } from '../arcade/fakes.ts';

const APART: EngineTraits = { cutsPrefill: true, keepsPromptsApart: true };
const sys = (s: string): ChatMessage[] => [{ role: 'system', content: s }];

/** A model whose prewarms stay open until the test ends them (or a step or the hub stops them). */
/** A hub whose selected engine has `traits`, once it has said so. */
async function hubOn(traits: EngineTraits) {
  const hub = new ModelHub();
  const t = heldWarms(traits);
  hub.setModel('cpu', t.model);
  await Promise.resolve();
  return { hub, t };
}

function heldWarms(traits: EngineTraits) {
  const log: string[] = [];
  const open: Array<{ agent: string; end: () => void; signal: AbortSignal }> = [];
  const model: ChatModel = {
    label: 'cpu',
    traits: async () => traits,
    step: async (req) => (log.push(`step ${req.agent}`), { action: 'reply', args: { text: 'ok' } }),
    prewarm: (agent, _m, signal) =>
      new Promise<void>((resolve) => {
        log.push(`prewarm ${agent}`);
        open.push({ agent, end: resolve, signal });
        signal.addEventListener('abort', () => (log.push(`stopped ${agent}`), resolve()), { once: true });
      }),
  };
  return { model, log, open };
}

describe('the hub on an engine that keeps prompts apart', () => {
  it("reads the main agent's prewarm after a game's instead of stopping it; a game's goes before the main agent's", async () => {
    const { hub, t } = await hubOn(APART);
    hub.prewarm('game:x', sys('g'));
    hub.prewarm('main', sys('m'));
    expect(t.log).toEqual(['prewarm game:x']);
    t.open[0].end();
    await until(() => t.log.length === 2, 'the main prewarm');
    expect(t.log).toEqual(['prewarm game:x', 'prewarm main']);
    // A game's prewarm asked while the main agent's reads: the game's first, the main agent's again after it.
    hub.prewarm('game:x', sys('g2'));
    expect(t.log).toEqual(['prewarm game:x', 'prewarm main', 'stopped main', 'prewarm game:x']);
    t.open[2].end();
    await until(() => t.log.length === 5, 'the main prewarm again');
    expect(t.log.at(-1)).toBe('prewarm main');
  });

  it('after a chat reply nothing is given back to the game (its prompt kept its place); on one conversation it is', async () => {
    for (const [traits, rewarmed] of [
      [APART, false],
      [{ cutsPrefill: false, keepsPromptsApart: false }, true],
    ] as const) {
      const { hub, t } = await hubOn(traits);
      hub.prewarm('game:x', sys('g'));
      await hub.step({ agent: 'main', messages: sys('m'), tools: [] });
      await until(() => !rewarmed || t.log.length === 4, 'the game given back');
      expect(t.log).toEqual(rewarmed ? ['prewarm game:x', 'stopped game:x', 'step main', 'prewarm game:x'] : ['prewarm game:x', 'stopped game:x', 'step main']);
    }
  });
});

describe('the main agent in a game, on an engine that keeps prompts apart', () => {
  function setup(model: ChatModel, answerMs = 20_000) {
    const games = new FakeGameClient();
    const speaker = new FakeSpeaker();
    let n = 0;
    const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, newId: () => `id-${++n}`, budget: () => ({ stillThinkingMs: 2500, answerMs, colourMs: 2000 }) });
    return { agent, games, speaker };
  }

  it('prewarms its next prompt after a game round; the chat turn then starts with it', async () => {
    const calls: StepRequest[] = [];
    const warmed: ChatMessage[][] = [];
    const scripted = createScriptedModel({ main: (req) => (calls.push(req), mainDemoPolicy(req)) });
    const model: ChatModel = { label: 'cpu', traits: async () => APART, step: (r) => scripted.step(r), prewarm: async (_a, m) => void warmed.push(m.map((x) => ({ ...x }))) };
    const t = setup(model);
    t.games.auto = (r) => r.reply('我想好了一个数。', { final: true });
    await t.agent.handle('我们玩猜数字吧');
    await t.agent.settled();
    t.games.auto = (r) => r.reply('大了。', { final: true });
    await t.agent.handle('我猜50');
    await t.agent.settled();
    await until(() => warmed.length > 0, 'a prewarm in the game');
    const chats = calls.length;
    const last = warmed.at(-1)!;
    await t.agent.handle('你叫什么名字');
    const chat = calls.slice(chats).at(0)!.messages;
    expect(chat.slice(0, last.length)).toEqual(last);
    expect(chat.length - last.length).toBe(1);
  });

  it('a chat step the deadline cut: the child hears the true line, then the cut request is read on, and the next chat request continues it', async () => {
    vi.useFakeTimers();
    try {
      const asked: StepRequest[] = [];
      const warmed: ChatMessage[][] = [];
      let stuck = false;
      const model: ChatModel = {
        label: 'cpu',
        traits: async () => APART,
        step: (req) => {
          asked.push(req);
          if (req.agent !== 'main' || !stuck) return Promise.resolve(mainDemoPolicy(req) as never);
          return new Promise<never>((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
        },
        prewarm: async (_a, m) => void warmed.push(m.map((x) => ({ ...x }))),
      };
      const t = setup(model, 5000);
      t.games.auto = (r) => r.reply('我想好了一个数。', { final: true });
      const start = t.agent.handle('我们玩猜数字吧');
      await vi.advanceTimersByTimeAsync(10);
      await start;
      stuck = true;
      const cutRound = t.agent.handle('你叫什么名字');
      await vi.advanceTimersByTimeAsync(5000);
      await cutRound;
      expect(childLines('model_too_slow')).toContain(t.speaker.texts().at(-1));
      await vi.advanceTimersByTimeAsync(10);
      const cut = asked.filter((r) => r.agent === 'main').at(-1)!.messages;
      const warm = warmed.at(-1)!;
      // The prewarm reads the cut request whole, then the line said instead.
      expect(warm.slice(0, cut.length)).toEqual(cut);
      stuck = false;
      const before = asked.length;
      const nextRound = t.agent.handle('给我讲个故事');
      await vi.advanceTimersByTimeAsync(10);
      await nextRound;
      const next = asked.slice(before).find((r) => r.agent === 'main')!.messages;
      expect(next.slice(0, warm.length)).toEqual(warm);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a step that continues a running prewarm, on an engine that cuts a prefill and keeps prompts apart', () => {
  it('stops the prewarm and is sent at once (the engine keeps what was read); on WebLLM it waits for it', async () => {
    for (const [traits, waits] of [
      [APART, false],
      [{ cutsPrefill: false, keepsPromptsApart: false }, true],
    ] as const) {
      const { hub, t } = await hubOn(traits);
      hub.prewarm('main', sys('m'));
      const step = hub.step({ agent: 'main', messages: [...sys('m'), { role: 'user', content: 'u' }], tools: [] });
      await until(() => t.log.length > 1 || waits, 'the step');
      await new Promise((r) => setTimeout(r, 0));
      expect(t.log).toEqual(waits ? ['prewarm main'] : ['prewarm main', 'stopped main', 'step main']);
      t.open[0].end();
      await step;
      expect(t.log.at(-1)).toBe('step main');
    }
  });
});
