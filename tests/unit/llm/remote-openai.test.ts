import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeModelError } from '../../../src/llm/describe.ts';
import {
  chatCompletionsUrl,
  endpointProblem,
  listRemoteModels,
} from '../../../src/llm/remote-openai.ts';
import { readSseData } from '../../../src/core/llm/sse.ts';
import type { StepRequest } from '../../../src/core/llm/types.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../../support/openai-test-server.ts';
import { guessNumberTools } from './fixtures.ts';
import { stepJson } from '../../../src/core/llm/step-format.ts';
import { createRemoteModel } from '../../support/remote-model.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAITestServer();
});
afterAll(() => server.close());

const req = (over: Partial<StepRequest> = {}): StepRequest => ({
  agent: 'game:guess-number',
  messages: [{ role: 'user', content: '我猜五十' }],
  tools: guessNumberTools,
  ...over,
});
const model = (over = {}) => createRemoteModel({ baseUrl: server.baseUrl, model: 'qwen2.5:1.5b', apiKey: 'k-123', ...over });

describe('remote OpenAI-compatible provider', () => {
  it('streams a step split at awkward places (inside lines and inside UTF-8 characters)', async () => {
    const text = '好！比五十大，再猜猜看～🎉';
    server.respond(() => ({
      content: stepJson({ action: 'reply', args: { text } }),
      pieceChars: 2,
      chunkBytes: 5, // 5 bytes never lines up with 3-byte CJK / 4-byte emoji boundaries
    }));
    const step = await model().step(req());
    expect(step).toMatchObject({ action: 'reply', args: { text } });
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer k-123');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.model).toBe('qwen2.5:1.5b');
    expect(sent.body.max_tokens).toBeGreaterThan(0);
    expect(sent.body.response_format.type).toBe('json_schema');
    expect(sent.body.response_format.json_schema.name).toBe('step');
    expect(sent.body.response_format.json_schema.strict).toBe(true);
    expect(sent.body.response_format.json_schema.schema.anyOf).toHaveLength(guessNumberTools.length);
  });

  it('retries through the server when the model answers out of range', async () => {
    let i = 0;
    server.respond(() => ({
      content: i++ === 0 ? '{"submit_guess":{"number":500}}' : '{"submit_guess":{"number":50}}',
    }));
    const before = server.requests.length;
    expect(await model().step(req())).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    const retry = server.requests.at(-1)!.body;
    expect(server.requests.length - before).toBe(2);
    expect(retry.messages.at(-1).content).toContain('<= 100');
  });

  it('HTTP 500 becomes model_remote_http with the server message', async () => {
    server.respond(() => ({ status: 500, body: JSON.stringify({ error: { message: 'model crashed' } }) }));
    const err = await model().step(req()).catch((e) => e);
    expect(err.code).toBe('model_remote_http');
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('model crashed');
  });

  it('HTTP 401 says the key is wrong', async () => {
    server.respond(() => ({ status: 401, body: '{"error":"bad key"}' }));
    expect((await model().step(req()).catch((e) => e)).code).toBe('model_remote_auth');
  });

  it('malformed SSE becomes model_remote_bad_stream', async () => {
    server.respond(() => ({ rawSse: 'data: {"choices":[{"delta":{"content":"{\\"act"}}]}\n\ndata: {oops\n\n' }));
    expect((await model().step(req()).catch((e) => e)).code).toBe('model_remote_bad_stream');
    server.respond(() => ({ rawSse: '<html>not an event stream</html>' }));
    expect((await model().step(req()).catch((e) => e)).code).toBe('model_remote_bad_stream');
  });

  it('a server that ignores stream and answers JSON still works', async () => {
    server.respond(() => ({ json: '{"end_game":{}}' }));
    expect(await model().step(req())).toMatchObject({ action: 'end_game', args: {} });
  });

  it('abort mid-stream rejects with AbortError and closes the connection', async () => {
    server.respond(() => ({ hangAfter: '{"action":"reply","args":{"text":"我在想' }));
    const ac = new AbortController();
    const closedBefore = server.closedEarly;
    const p = model().step(req({ signal: ac.signal }));
    // Abort once the server has started streaming this request.
    const n = server.requests.length;
    while (server.requests.length === n) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 30));
    ac.abort();
    const err = await p.catch((e) => e);
    expect(err.name).toBe('AbortError');
    for (let i = 0; i < 100 && server.closedEarly === closedBefore; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.closedEarly).toBe(closedBefore + 1);
  });

  it('a stream that never ends times out with model_remote_timeout', async () => {
    server.respond(() => ({ hangAfter: '{"action"' }));
    const err = await model({ timeoutMs: 300 }).step(req()).catch((e) => e);
    expect(err.code).toBe('model_remote_timeout');
  });

  it('a step in the background has no whole-request limit: a slow answer is waited for', async () => {
    server.respond(() => ({ content: stepJson({ action: 'reply', args: { text: '好' } }), delayMs: 600 }));
    const background = new AbortController();
    background.abort();
    expect(await model({ timeoutMs: 300 }).step(req({ background: background.signal }))).toMatchObject({ action: 'reply', args: { text: '好' } });
  });

  it('an unreachable server is a network error', async () => {
    const err = await createRemoteModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }).step(req()).catch((e) => e);
    expect(err.code).toBe('model_remote_network');
  });

  it('lists the server models for the settings connection test', async () => {
    expect(await listRemoteModels({ baseUrl: server.baseUrl, model: '' })).toEqual(['test-model']);
  });
});

describe('endpoint checks', () => {
  it.each(['192.168.1.20:11434/v1', 'localhost:11434', 'robot.local', 'ftp://robot.local/v1'])('a URL without http(s):// (%s) gets a message about the URL, not about a model', (url) => {
    const problem = endpointProblem(url)!;
    expect(problem.code).toBe('model_remote_bad_url');
    const shown = describeModelError({ code: problem.code, message: '' });
    expect(shown.parent).toMatch(/http:\/\/ 或 https:\/\//);
    expect(shown.parent).not.toMatch(/模型编号|模型名称/);
    expect(problem.detail).toContain(url);
  });

  it('builds the completions URL from what a parent types', () => {
    expect(chatCompletionsUrl('http://h:11434')).toBe('http://h:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:11434/v1/')).toBe('http://h:11434/v1/chat/completions');
    expect(chatCompletionsUrl('https://h/v1/chat/completions')).toBe('https://h/v1/chat/completions');
  });

  it('explains mixed content before trying (https page → http LAN endpoint), but allows loopback', async () => {
    expect(endpointProblem('http://192.168.1.20:11434', 'https://app.example/')?.code).toBe('model_remote_mixed_content');
    expect(endpointProblem('http://localhost:11434', 'https://app.example/')).toBeUndefined();
    expect(endpointProblem('http://192.168.1.20:11434', 'http://localhost:4173/')).toBeUndefined();
    expect(endpointProblem('robot.local:11434', 'https://app.example/')?.code).toBe('model_remote_bad_url');
    let fetched = false;
    const m = createRemoteModel({ baseUrl: 'http://192.168.1.20:11434', model: 'm' }, {}, {
      pageUrl: 'https://app.example/',
      fetch: async () => {
        fetched = true;
        throw new TypeError('Failed to fetch');
      },
    });
    const err = await m.step(req()).catch((e) => e);
    expect(err.code).toBe('model_remote_mixed_content');
    expect(err.message).toContain('https');
    expect(fetched).toBe(false);
  });
});

describe('readSseData', () => {
  const streamOf = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const ch of chunks) c.enqueue(ch);
        c.close();
      },
    });
  it('joins events split at every byte, with CRLF split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: 你好🙂\r\n\r\n: comment\r\ndata: a\r\ndata: b\r\n\r\ndata: [DONE]\r\n\r\n');
    const chunks = [...bytes].map((b) => new Uint8Array([b]));
    const out: string[] = [];
    for await (const d of readSseData(streamOf(chunks))) out.push(d);
    expect(out).toEqual(['你好🙂', 'a\nb', '[DONE]']);
  });
});
