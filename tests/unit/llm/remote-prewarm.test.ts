/**
 * The home computer's prewarm: the next request's start goes to the server as a one-token
 * completion (so a prefix-caching server reads it ahead), is stopped when the hub's signal aborts,
 * is never sent to a public cloud API, and nothing of a failed one reaches the child or the status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHomeEndpoint } from '../../../src/core/llm/remote-endpoint.ts';
import { createAdaptiveRemoteModel } from '../../../src/llm/remote-adaptive.ts';
import { ModelHub, type StepRecord } from '../../../src/llm/model-hub.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../../support/openai-test-server.ts';
import { createRemoteModel } from '../../support/remote-model.ts';
import { guessNumberTools } from './fixtures.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAITestServer(undefined, { prewarms: 'respond' });
});
afterAll(() => server.close());

const start: ChatMessage[] = [
  { role: 'system', content: '你是猜数字游戏的主持人。' },
  { role: 'user', content: '我猜五十' },
  { role: 'assistant', content: '{"reply":{"text":"大了"}}' },
];
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe('the remote brain prewarms a home computer', () => {
  it('sends the messages as the step will, asking for one token, not streamed', async () => {
    server.respond(() => ({ json: 'x' }));
    const model = createRemoteModel({ baseUrl: server.baseUrl, model: 'qwen2.5:1.5b', apiKey: 'k-1', disableThinking: true });
    const n = server.requests.length;
    await model.prewarm!('game:guess-number', start, new AbortController().signal);
    const warm = server.requests.slice(n);
    expect(warm).toHaveLength(1);
    expect(warm[0].path).toBe('/v1/chat/completions');
    expect(warm[0].headers.authorization).toBe('Bearer k-1');
    expect(warm[0].body).toMatchObject({ model: 'qwen2.5:1.5b', messages: start, max_tokens: 1, stream: false, temperature: 0, chat_template_kwargs: { enable_thinking: false } });
    expect(warm[0].body.response_format).toBeUndefined();
    // The next step starts with exactly those messages: what the server read is its prefix.
    server.respond(() => ({ content: '{"reply":{"text":"好"}}' }));
    await model.step({ agent: 'game:guess-number', messages: [...start, { role: 'user', content: '我猜二十五' }], tools: guessNumberTools });
    const step = server.requests.at(-1)!.body;
    expect(step.messages.slice(0, start.length)).toEqual(start);
    expect(step.chat_template_kwargs).toEqual(warm[0].body.chat_template_kwargs);
  });

  it("speaks Ollama's own dialect to Ollama's address when the steps do", async () => {
    const seen: Array<{ url: string; body: Record<string, unknown> }> = [];
    const fetchSpy = (async (url: string, init: RequestInit) => {
      seen.push({ url, body: JSON.parse(String(init.body)) });
      return new Response('{}');
    }) as unknown as typeof fetch;
    const model = createRemoteModel({ baseUrl: 'http://192.168.1.20:11434', model: 'qwen2.5:1.5b', mode: 'ollama_format' }, {}, { fetch: fetchSpy });
    await model.prewarm!('main', start, new AbortController().signal);
    expect(seen).toEqual([{ url: 'http://192.168.1.20:11434/api/chat', body: { model: 'qwen2.5:1.5b', messages: start, stream: false, options: { temperature: 0, num_predict: 1 } } }]);
  });

  it('is stopped when its signal aborts: the server sees the connection closed and the prewarm resolves', async () => {
    server.respond(() => ({ hangAfter: '' }));
    const model = createRemoteModel({ baseUrl: server.baseUrl, model: 'm' });
    const n = server.requests.length;
    const closedBefore = server.closedEarly;
    const ac = new AbortController();
    const warm = model.prewarm!('game:guess-number', start, ac.signal);
    await until(() => server.requests.length > n);
    ac.abort();
    await expect(warm).resolves.toBeUndefined();
    await until(() => server.closedEarly > closedBefore);
    expect(server.requests[n].closedAt).toBeDefined();
  });

  it('the next step stops it through the hub, and a failed prewarm is never a step: no record, the brain as it was', async () => {
    const hub = new ModelHub();
    const records: StepRecord[] = [];
    hub.onStep((r) => records.push(r));
    hub.setModel('remote', createAdaptiveRemoteModel({ baseUrl: server.baseUrl, model: 'm' }));
    server.respond(() => ({ status: 500, body: '{"error":{"message":"boom"}}' }));
    const n = server.requests.length;
    hub.prewarm('game:guess-number', start);
    await until(() => server.requests.length > n && !hub.prewarming);
    expect(records).toEqual([]);
    expect(hub.status()).toMatchObject({ kind: 'remote', running: undefined, waiting: [] });
    // A prewarm still reading when another agent's step comes: stopped, and the step answered.
    server.respond((body) => (body.stream === false ? { hangAfter: '' } : { content: '{"reply":{"text":"好"}}' }));
    const closed = server.closedEarly;
    hub.prewarm('game:guess-number', start);
    await until(() => server.requests.length > n + 1);
    const step = await hub.model().step({ agent: 'main', messages: [{ role: 'system', content: '你是机器人。' }, { role: 'user', content: '你好' }], tools: guessNumberTools });
    expect(step).toMatchObject({ action: 'reply', args: { text: '好' } });
    await until(() => server.closedEarly > closed);
    expect(records.map((r) => r.error)).toEqual([undefined]);
  });

  it('the step that continues what the prewarm reads waits for it to end, then is sent', async () => {
    const hub = new ModelHub();
    hub.setModel('remote', createAdaptiveRemoteModel({ baseUrl: server.baseUrl, model: 'm2' }));
    server.respond((body) => (body.stream === false ? { content: ' ', delayMs: 150 } : { content: '{"reply":{"text":"好"}}' }));
    const n = server.requests.length;
    const closed = server.closedEarly;
    hub.prewarm('game:guess-number', start);
    await until(() => server.requests.length > n);
    await hub.model().step({ agent: 'game:guess-number', messages: [...start, { role: 'user', content: '我猜二十五' }], tools: guessNumberTools });
    const [warm, asked] = server.requests.slice(n).filter((r) => r.body.model === 'm2');
    expect(warm.body.stream).toBe(false);
    expect(server.closedEarly).toBe(closed);
    expect(asked.receivedAt).toBeGreaterThanOrEqual(warm.closedAt!);
  });

  it('sends nothing to a public cloud API, nor in a dialect that puts the schema into the system message, nor when switched off', async () => {
    let calls = 0;
    const fetchSpy = (async () => {
      calls++;
      return new Response('{}');
    }) as unknown as typeof fetch;
    const cloud = createAdaptiveRemoteModel({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }, {}, { fetch: fetchSpy });
    const jsonObject = createRemoteModel({ baseUrl: 'http://192.168.1.20:8080', model: 'm', mode: 'json_object' }, {}, { fetch: fetchSpy });
    const off = createRemoteModel({ baseUrl: 'http://localhost:8080', model: 'm', prewarm: false }, {}, { fetch: fetchSpy });
    for (const m of [cloud, jsonObject, off]) {
      expect(m.prewarm).toBeUndefined();
      // The hub asks only a model that has one.
      const hub = new ModelHub();
      hub.setModel('remote', m);
      hub.prewarm('main', start);
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(0);
  });
});

describe('a home computer, by its address', () => {
  it.each([
    ['http://localhost:11434', true],
    ['http://127.0.0.1:8080/v1', true],
    ['http://[::1]:8080', true],
    ['http://192.168.1.20:11434', true],
    ['http://10.0.0.5:1234', true],
    ['http://172.20.3.4:8080', true],
    ['http://100.101.5.6:11434', true],
    ['http://[fd12:3456::1]:8080', true],
    ['https://robot.local:4443/brain/v1', true],
    ['http://mypc:11434', true],
    ['https://api.openai.com/v1', false],
    ['https://api.deepseek.com', false],
    ['http://172.32.0.1:8080', false],
    ['http://8.8.8.8:8080', false],
    ['https://games.example.org/brain', false],
    ['not an address', false],
  ])('%s → %s', (url, home) => {
    expect(isHomeEndpoint(url)).toBe(home);
  });
});
