/**
 * The paced server of `bench/latency --app` is one engine: a request waits for the one before it,
 * and under WebLLM's rule a request abandoned in its prefill holds the engine until that prefill is
 * read (WebLLM cannot stop a prefill); under the prefix rule it frees it at once. The app's prewarm
 * is done as its engine would: WebLLM's replay leaves the conversation the next request continues.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPacedServer, type PacedServer } from '../../../bench/latency/paced-server.ts';
import type { Tokenizer } from '../../../bench/latency/simulate.ts';
import { buildStepSchema } from '../../../src/core/llm/step-schema.ts';
import { buildRequest } from '../../../src/core/llm/structured-output.ts';
import { prewarmRequest } from '../../../src/llm/remote-prewarm.ts';
import type { ChatMessage, ToolSpec } from '../../../src/core/llm/types.ts';

/** One token a character. */
const chars: Tokenizer = { name: 'chars', encode: (t) => [...t].map((c) => c.codePointAt(0)!) };
const MAIN_TOOLS: ToolSpec[] = [
  { name: 'list_games', description: '', parameters: { type: 'object', properties: {} } },
  { name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];
const system: ChatMessage = { role: 'system', content: `你是机器人小方。${'和孩子好好说话。'.repeat(40)}` };
const history: ChatMessage[] = [system, { role: 'user', content: '你好' }, { role: 'assistant', content: '{"reply":{"text":"你好呀！"}}' }];

let paced: PacedServer;
beforeAll(async () => {
  paced = await startPacedServer(chars);
});
afterAll(() => paced.close());

const step = (messages: ChatMessage[], signal?: AbortSignal) => {
  const { url, body } = buildRequest('json_schema_strict', { baseUrl: paced.baseUrl, model: 'm', messages, schema: buildStepSchema(MAIN_TOOLS), maxTokens: 64, temperature: 0 });
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal }).then((r) => r.text());
};
const prewarm = (messages: ChatMessage[]) => {
  const { url, body } = prewarmRequest('json_schema_strict', { baseUrl: paced.baseUrl, model: 'm' }, messages);
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.text());
};
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe('the paced server is one engine', () => {
  it.each([
    ['webllm', true],
    ['prefix', false],
  ] as const)('%s: a request abandoned in its prefill holds the engine until the prefill is read: %s', async (rule, holds) => {
    // ~400 tokens at 400 tok/s: a prefill of about 1 s.
    paced.reset({ id: rule, prefillTps: 400, decodeTps: 1000, rule });
    const n = paced.log.length;
    const ac = new AbortController();
    const first = step([system, { role: 'user', content: '你好' }], ac.signal).catch(() => 'abandoned');
    await until(() => paced.log[n]?.startedAt !== undefined);
    ac.abort();
    await first;
    await step([system, { role: 'user', content: '讲个故事' }]);
    const [a, b] = [paced.log[n], paced.log[n + 1]];
    const prefillEnds = a.startedAt! + (a.prefillTokens / 400) * 1000;
    if (holds) expect(b.startedAt!).toBeGreaterThanOrEqual(prefillEnds - 1);
    else expect(b.startedAt!).toBeLessThan(prefillEnds);
  });

  it("webllm: the app's prewarm is WebLLM's replay, and the next request continues it in place", async () => {
    const next = [...history, { role: 'user' as const, content: '讲个故事' }];
    paced.reset({ id: 'cold', prefillTps: 100_000, decodeTps: 100_000, rule: 'webllm' });
    const n = paced.log.length;
    await step(next);
    expect(paced.log[n]).toMatchObject({ prewarm: false, inPlace: false, prefillTokens: paced.log[n].promptTokens });
    paced.reset({ id: 'warm', prefillTps: 100_000, decodeTps: 100_000, rule: 'webllm' });
    await prewarm(history);
    await step(next);
    const [warm, asked] = [paced.log[n + 1], paced.log[n + 2]];
    expect(warm).toMatchObject({ prewarm: true, agent: 'main' });
    // The replay read everything before the last step (that step decoded again, not prefilled).
    expect(warm.prefillTokens).toBe(chars.encode(`<|im_start|>system\n${system.content}<|im_end|>\n<|im_start|>user\n你好<|im_end|>\n<|im_start|>assistant\n`).length);
    expect(asked).toMatchObject({ prewarm: false, inPlace: true });
    expect(asked.prefillTokens).toBe(chars.encode('<|im_start|>user\n讲个故事<|im_end|>\n<|im_start|>assistant\n').length);
  });
});
