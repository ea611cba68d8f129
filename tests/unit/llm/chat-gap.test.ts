/**
 * A main-agent chat turn in the middle of a game on WebLLM, which holds ONE conversation for every
 * agent: the chat step replaces the game's, so the game's next step read its whole prompt again.
 * Now the hub asks again for the game's awaited prewarm once the chat step ended with its reply,
 * and the WebLLM engine gives the game its conversation back (its messages read, its last step
 * decoded again under a grammar admitting only that text): the game's next step continues in place.
 * Through the real local provider, engine service and WebLLM engine, over a fake WebLLM that keeps
 * its exact reuse rule (tests/support/llm/fake-webllm.ts).
 */
import '../../support/xgrammar-node.ts';
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { createEngineService } from '../../../src/llm/engine-service.ts';
import { ContinuingEngine } from '../../../src/llm/webllm-engine.ts';
import { createLocalProvider } from '../../../src/llm/local-provider.ts';
import { createChatModel } from '../../../src/llm/decide-step.ts';
import { literalGrammar, loadXGrammar } from '../../../src/llm/grammar.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import type { ChatMessage, ToolSpec } from '../../../src/core/llm/types.ts';
import { FakeWebLlm, renderChatML } from '../../support/llm/fake-webllm.ts';
import { until } from '../arcade/fakes.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const replyTool: ToolSpec = { name: 'reply', description: '说话', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const sendTool: ToolSpec = { name: 'send_message', description: '转给游戏', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const gameSys: ChatMessage = { role: 'system', content: `你是桌面小机器人里的游戏主持人。${'每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。'.repeat(8)}` };
const mainSys: ChatMessage = { role: 'system', content: '你是陪孩子聊天的小机器人。' };
const input = (text: string): ChatMessage => ({ role: 'user', content: JSON.stringify({ event: 'message', user_text: text }) });
const r1 = '{"reply":{"text":"50 小了，再猜一个吧！"}}';
const r2 = '{"reply":{"text":"70 大了，\\"快\\"猜到啦！"}}';
const chat = '{"reply":{"text":"我最喜欢蓝色！"}}';
const r3 = '{"reply":{"text":"60 猜对啦！"}}';

/** The real provider over the real engine service and WebLLM engine (Comlink over a MessageChannel instead of a worker). */
async function webllm(replies: string[], prewarms: boolean) {
  const fake = new FakeWebLlm(replies);
  const service = createEngineService({ prepareEngine: async () => new ContinuingEngine(fake as never), grammar: async () => 'root ::= step', isQwen3: () => false });
  const provider = createLocalProvider({
    createWorker() {
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(service, port1);
      return Object.assign(port2, { terminate: () => port2.close() }) as unknown as Worker;
    },
    prepare: async (req) => req,
    label: () => 'webllm',
    traits: { cutsPrefill: false, keepsPromptsApart: false },
  });
  await provider.load({ modelId: MODEL });
  // Before: the WebLLM provider had no prewarm at all.
  const model = createChatModel(prewarms ? provider : { label: provider.label, complete: (r) => provider.complete(r) });
  const hub = new ModelHub();
  hub.setModel('webllm', model);
  return { fake, hub, provider };
}

/** Two game turns (each followed by the game's prewarm of its next start, as prewarmNext does), a chat turn, the game's next turn. */
async function playWithChat(prewarms: boolean, mainAction: 'reply' | 'send_message' = 'reply') {
  const t = await webllm(mainAction === 'reply' ? [r1, r2, chat, r3] : [r1, r2, '{"send_message":{"text":"我猜六十"}}', r3], prewarms);
  const game = 'game:guess-number';
  const g1 = [gameSys, input('我猜五十')];
  await t.hub.step({ agent: game, messages: g1, tools: [replyTool] });
  t.hub.prewarm(game, [...g1, { role: 'assistant', content: r1 }]);
  const g2 = [...g1, { role: 'assistant' as const, content: r1 }, input('我猜七十')];
  await t.hub.step({ agent: game, messages: g2, tools: [replyTool] });
  t.hub.prewarm(game, [...g2, { role: 'assistant', content: r2 }]);
  await until(() => !t.hub.prewarming, 'the game prewarm');
  await t.hub.step({ agent: 'main', messages: [mainSys, { role: 'user', content: '你最喜欢什么颜色' }], tools: [replyTool, sendTool] });
  // The chat reply is spoken now; the hub may use the engine meanwhile.
  await until(() => !t.hub.prewarming && t.fake.log.at(-1)?.finish !== undefined, 'the engine idle');
  await new Promise((r) => setTimeout(r, 5));
  await until(() => !t.hub.prewarming, 'the re-warm');
  const g3 = [...g2, { role: 'assistant' as const, content: r2 }, input('我猜六十')];
  await t.hub.step({ agent: game, messages: g3, tools: [replyTool] });
  return { ...t, g3, last: t.fake.log.at(-1)! };
}

describe('a chat turn in the middle of a game, on WebLLM', () => {
  it("before: the game's next step read its whole prompt again; after: it continues in place and reads only the new words", async () => {
    const before = await playWithChat(false);
    const after = await playWithChat(true);
    expect(before.last.inPlace).toBe(false);
    expect(before.last.prefill).toBe(renderChatML(before.g3).length);
    expect(after.last.inPlace).toBe(true);
    expect(after.last.prefill).toBe(renderChatML([input('我猜六十')]).length);
    // The model reads exactly the prompt the game asked for.
    expect(renderChatML(after.last.messages)).toBe(renderChatML(after.g3));
    // The game's turns before the chat: its own prewarms cost nothing (WebLLM held the conversation).
    const requests = after.fake.log.map((l) => l.messages[0].content === gameSys.content);
    expect(requests).toEqual([true, true, false, true, true]);
    // The one extra request is the replay: the game's messages, its last step decoded again, exactly.
    const replay = after.fake.log[3];
    expect(replay.messages.map((m) => m.content).join('')).toBe([...before.g3.slice(0, -2)].map((m) => m.content).join(''));
    expect(replay.finish).toBe('stop');
    expect(replay.decoded).toBe([...r2].length);
  });

  it("a game start that ends with a note after its last step (a muted step's: what the child heard) is given back up to that step; the next request adds the note and continues in place", async () => {
    const t = await webllm([r1, chat, r3], true);
    const game = 'game:x';
    const g1 = [gameSys, input('我猜五十')];
    await t.hub.step({ agent: game, messages: g1, tools: [replyTool] });
    const note = { role: 'user' as const, content: '{"note":"上面的回复来晚了，没有说出去。"}' };
    const start = [...g1, { role: 'assistant' as const, content: r1 }, note];
    t.hub.prewarm(game, start);
    await t.hub.step({ agent: 'main', messages: [mainSys, { role: 'user', content: '你好' }], tools: [replyTool] });
    await until(() => t.fake.log.length === 3 && !t.hub.prewarming, 'the replay');
    expect(t.fake.log[2].messages.map((m) => m.content)).toEqual(g1.map((m) => m.content));
    const g2 = [...start, input('我猜七十')];
    await t.hub.step({ agent: game, messages: g2, tools: [replyTool] });
    expect(t.fake.log.at(-1)!.inPlace).toBe(true);
    // Only the note and the new words are read.
    expect(t.fake.log.at(-1)!.prefill).toBe(renderChatML(g2).length - renderChatML(start.slice(0, -1)).length);
  });

  it("no re-read when the main agent hands the words to the game (its step is no final reply): the game's step follows at once", async () => {
    const t = await playWithChat(true, 'send_message');
    expect(t.fake.log).toHaveLength(4);
    expect(t.last.inPlace).toBe(false);
  });

  it("the game's next turn coming during the replay waits for it (WebLLM reads a begun prefill to the end anyway) and continues it in place", async () => {
    const t = await webllm([r1, chat, r3], true);
    const game = 'game:x';
    const g1 = [gameSys, input('我猜五十')];
    await t.hub.step({ agent: game, messages: g1, tools: [replyTool] });
    t.hub.prewarm(game, [...g1, { role: 'assistant', content: r1 }]);
    // The replay (the third request) reaches WebLLM and is still reading when the child answers the game.
    const release = t.fake.pause(2);
    await t.hub.step({ agent: 'main', messages: [mainSys, { role: 'user', content: '你好' }], tools: [replyTool] });
    await until(() => t.fake.log.length === 3, 'the replay');
    const g2 = [...g1, { role: 'assistant' as const, content: r1 }, input('我猜七十')];
    const answered = t.hub.step({ agent: game, messages: g2, tools: [replyTool] });
    await new Promise((r) => setTimeout(r, 0));
    // The turn's step waits behind the replay: it is not sent while the replay reads.
    expect(t.fake.log).toHaveLength(3);
    release();
    const step = await answered;
    expect(t.fake.log[2].finish).toBe('stop');
    expect(step.args).toEqual({ text: '60 猜对啦！' });
    expect(t.hub.prewarming).toBe(false);
    expect(t.fake.log.at(-1)!.inPlace).toBe(true);
    expect(t.fake.log.at(-1)!.prefill).toBe(renderChatML([input('我猜七十')]).length);
  });
});

describe('the grammar that admits one text', () => {
  it('real XGrammar accepts exactly that text, quotes, backslashes and newlines included', async () => {
    const xg = await loadXGrammar();
    for (const text of [r2, 'a\nb\\c\t"d"', '我想好了一个数字，猜猜看吧！']) {
      const g = await xg.Grammar.fromEBNF(literalGrammar(text), 'root');
      try {
        expect(await xg.Testings.isGrammarAcceptString(g, text)).toBe(true);
        expect(await xg.Testings.isGrammarAcceptString(g, `${text} `)).toBe(false);
        expect(await xg.Testings.isGrammarAcceptString(g, text.slice(0, -1))).toBe(false);
      } finally {
        g.dispose();
      }
    }
  });
});
