/**
 * Prewarm: while nothing waits, the hub lets a prefix-caching engine read the main agent's next
 * prompt into its cache; the next step stops a running prewarm before it runs. The main agent, idle
 * after a chat turn, prewarms exactly the start of its next request (system prompt and history as
 * sent), and never while a game runs.
 */
import { describe, expect, it } from 'vitest';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatMessage, ChatModel, StepRequest } from '../../../src/core/llm/types.ts';
import { FakeGameClient, FakeSpeaker, GAMES, until } from '../arcade/fakes.ts';

describe('the hub', () => {
  it('prewarms only while idle, and the next step stops a running prewarm first', async () => {
    const hub = new ModelHub();
    const log: string[] = [];
    let warmSignal: AbortSignal | undefined;
    const model: ChatModel = {
      label: 'fake',
      step: async (req) => {
        log.push(`step ${req.agent} (prewarm stopped: ${warmSignal?.aborted})`);
        return { action: 'reply', args: { text: 'ok' } };
      },
      prewarm: (agent, messages, signal) =>
        new Promise<void>((resolve) => {
          log.push(`prewarm ${agent} ${messages.length}`);
          warmSignal = signal;
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    };
    hub.setModel('cpu', model);
    hub.prewarm('main', [{ role: 'system', content: 's' }]);
    expect(hub.prewarming).toBe(true);
    hub.prewarm('main', [{ role: 'system', content: 's' }]); // one at a time
    await hub.step({ agent: 'game:x', messages: [{ role: 'user', content: 'u' }], tools: [] });
    expect(log).toEqual(['prewarm main 1', 'step game:x (prewarm stopped: true)']);
    expect(hub.prewarming).toBe(false);
  });

  it('asked while a step is still stopping, it starts once the engine is free; a step that comes first drops it', async () => {
    const hub = new ModelHub();
    const log: string[] = [];
    const release: Array<() => void> = [];
    const model: ChatModel = {
      label: 'fake',
      step: (req) =>
        new Promise((resolve) => {
          log.push(`step ${req.agent}`);
          release.push(() => resolve({ action: 'reply', args: { text: 'ok' } }));
        }),
      prewarm: async (agent, messages) => void log.push(`prewarm ${agent} ${messages.length}`),
    };
    hub.setModel('cpu', model);
    // A game turn given up: its step still runs in the engine when the game asks for its prewarm.
    const given = hub.step({ agent: 'game:x', messages: [{ role: 'user', content: 'u' }], tools: [] });
    hub.prewarm('game:x', [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }]);
    expect(hub.prewarming).toBe(false);
    release.shift()!();
    await given;
    expect(log).toEqual(['step game:x', 'prewarm game:x 2']);

    // The child speaks before the engine is free: the new step runs, the stale prewarm never does.
    log.length = 0;
    const first = hub.step({ agent: 'game:x', messages: [{ role: 'user', content: 'a' }], tools: [] });
    hub.prewarm('game:x', [{ role: 'system', content: 's' }]);
    const second = hub.step({ agent: 'main', messages: [{ role: 'user', content: 'b' }], tools: [] });
    release.shift()!();
    await first;
    await Promise.resolve();
    release.shift()!();
    await second;
    // The new step ran first; the game's start is read only after the main agent's reply, which took the engine.
    expect(log).toEqual(['step game:x', 'step main', 'prewarm game:x 1']);
  });

  it("after another agent's final reply, a game's awaited start is read again; the main agent's idle prewarm never is", async () => {
    const hub = new ModelHub();
    const log: string[] = [];
    const model: ChatModel = {
      label: 'fake',
      step: async (req) => (log.push(`step ${req.agent}`), req.agent === 'main' && req.messages[0].content === 'hand over' ? { action: 'send_message', args: { text: 'x' } } : { action: 'reply', args: { text: 'ok' } }),
      prewarm: async (agent, messages) => void log.push(`prewarm ${agent} ${messages.length}`),
    };
    hub.setModel('webllm', model);
    // The arcade idle: the main agent's next start; then a game starts (its step ends with the opening line).
    hub.prewarm('main', [{ role: 'system', content: 'm' }]);
    await hub.step({ agent: 'game:x', messages: [{ role: 'user', content: 'start' }], tools: [] });
    hub.prewarm('game:x', [{ role: 'system', content: 'g' }, { role: 'assistant', content: 'r' }]);
    // A chat turn: after its reply the game's start is read again; words handed to the game are not (its step follows).
    await hub.step({ agent: 'main', messages: [{ role: 'user', content: 'hand over' }], tools: [] });
    await hub.step({ agent: 'main', messages: [{ role: 'user', content: 'chat' }], tools: [] });
    expect(log).toEqual(['prewarm main 1', 'step game:x', 'prewarm game:x 2', 'step main', 'step main', 'prewarm game:x 2']);
    // The game's own next step: the awaited start came, nothing is asked again after it.
    await hub.step({ agent: 'game:x', messages: [{ role: 'user', content: 'u' }], tools: [] });
    await hub.step({ agent: 'main', messages: [{ role: 'user', content: 'chat' }], tools: [] });
    expect(log.slice(6)).toEqual(['step game:x', 'step main']);
  });

  it('a model without a prewarm (remote, the rules brain) is never prewarmed', () => {
    const hub = new ModelHub();
    hub.setModel('webllm', { label: 'x', step: async () => ({ action: 'reply', args: {} }) });
    hub.prewarm('main', []);
    expect(hub.prewarming).toBe(false);
  });
});

describe('the main agent while idle', () => {
  function setup() {
    const games = new FakeGameClient();
    const speaker = new FakeSpeaker();
    const calls: StepRequest[] = [];
    const warmed: ChatMessage[][] = [];
    const scripted = createScriptedModel({ main: (req) => (calls.push(req), mainDemoPolicy(req)) });
    const model: ChatModel = { label: 'cpu', step: (r) => scripted.step(r), prewarm: async (_a, m) => void warmed.push(m.map((x) => ({ ...x }))) };
    let n = 0;
    const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, newId: () => `id-${++n}` });
    return { agent, games, calls, warmed };
  }

  it('after a chat turn, prewarms exactly the start of its next request', async () => {
    const t = setup();
    await t.agent.handle('你好');
    await until(() => t.warmed.length === 1, 'prewarm');
    await t.agent.handle('你叫什么名字');
    const next = t.calls.at(-1)!.messages;
    expect(next.slice(0, t.warmed[0].length)).toEqual(t.warmed[0]);
    // Only the child's new words (with the state line) are left to read.
    expect(next.length - t.warmed[0].length).toBe(1);
  });

  it('not while a game runs (the game keeps the cache)', async () => {
    const t = setup();
    t.games.auto = (r) => r.reply('我想好了一个数。', { final: true });
    await t.agent.handle('我们玩猜数字吧');
    await t.agent.settled();
    const before = t.warmed.length;
    t.games.auto = (r) => r.reply('大了。', { final: true });
    await t.agent.handle('我猜50');
    await t.agent.settled();
    expect(t.warmed.length).toBe(before);
  });
});
