import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, EXPECTED_MODE, startDialectServer, type Dialect, type DialectServer } from '../../support/dialect-servers.ts';
import { probeOutputMode } from '../../../src/llm/dialect-probe.ts';
import { createAdaptiveRemoteModel } from '../../../src/llm/remote-adaptive.ts';
import { deltaFilter, extractJsonObject, strictObjectSchema, stepText } from '../../../src/core/llm/structured-output.ts';
import type { OutputMode } from '../../../src/core/llm/output-modes.ts';
import { buildStepSchema } from '../../../src/core/llm/step-schema.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import type { ChatModel } from '../../../src/core/llm/types.ts';
import { FakeDevice, secretRandom, send } from '../games/helpers.ts';
import { guessNumberTools } from './fixtures.ts';

// Each fake server follows one dialect's documented behaviour (tests/support/dialect-servers.ts).
const servers = new Map<Dialect, DialectServer>();
beforeAll(async () => {
  for (const d of DIALECTS) servers.set(d, await startDialectServer(d));
});
afterAll(async () => {
  for (const s of servers.values()) await s.close();
});

describe('the probe picks the strongest mode each server honours', () => {
  it.each(DIALECTS)('%s', async (dialect) => {
    const server = servers.get(dialect)!;
    const result = await probeOutputMode({ baseUrl: server.baseUrl, model: 'test-model' });
    expect(result.mode).toBe(EXPECTED_MODE[dialect]);
    // Every weaker mode was left untried; every stronger one was tried and refused or not honoured.
    expect(result.trials.at(-1)).toMatchObject({ mode: result.mode, ok: true });
    expect(result.trials.slice(0, -1).every((t) => !t.ok)).toBe(true);
  });

  it('a wrong model name is an error, not a mode', async () => {
    await expect(probeOutputMode({ baseUrl: servers.get('llamacpp')!.baseUrl, model: 'nope' })).rejects.toMatchObject({ code: 'model_remote_http' });
  });

  it('an address that is not a whole web address ends the probe at once (no other mode is tried)', async () => {
    // The remote provider of each mode tried reads the page's address once.
    let modesTried = 0;
    const deps = {
      get pageUrl() {
        modesTried++;
        return 'http://localhost:4173/';
      },
    };
    await expect(probeOutputMode({ baseUrl: 'robot.local:11434/v1', model: 'm' }, deps)).rejects.toMatchObject({ code: 'model_remote_bad_url' });
    expect(modesTried).toBe(1);
  });

  it('an unreachable server ends the probe at once with the network error', async () => {
    await expect(probeOutputMode({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' })).rejects.toMatchObject({ code: 'model_remote_network' });
  });
});

/** A child who halves the range using what the robot said (大了 / 小了). */
async function playGuessNumber(model: ChatModel, secret: number) {
  const device = new FakeDevice();
  const service = new GameSessions({
    create: () => new GuessNumberAgent({ model, device, random: () => secretRandom(secret), preExecute: false }),
    device,
    source: 'game:test',
  });
  const replies: string[] = [(await send(service, 'start', '我们玩猜数字吧')).reply.text];
  let [lo, hi] = [1, 100];
  for (let i = 0; i < 7; i++) {
    const n = Math.floor((lo + hi) / 2);
    const { reply } = await send(service, 'message', `我猜${n}`);
    replies.push(reply.text);
    if (reply.session === 'ended') return replies;
    if (reply.text.includes('大了')) hi = n - 1;
    else if (reply.text.includes('小了')) lo = n + 1;
    else throw new Error(`unexpected reply ${reply.text}`);
  }
  return replies;
}

describe('a whole 猜数字 game through each server in the mode its probe chose', () => {
  it.each(DIALECTS)('%s', async (dialect) => {
    const server = servers.get(dialect)!;
    const { mode } = await probeOutputMode({ baseUrl: server.baseUrl, model: 'test-model' });
    const before = server.requests.length;
    const model = createAdaptiveRemoteModel({ baseUrl: server.baseUrl, model: 'test-model', mode });
    const replies = await playGuessNumber(model, 73);
    expect(replies[0]).toBe('我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧！');
    expect(replies[1]).toBe('50 小了！再大一点哦，还有 6 次机会。');
    expect(replies.at(-1)).toMatch(/^太棒啦！就是 73！/);
    // Every step of the game went through without a refused request, and so did every prewarm (one
    // token asked for): none in the modes that put the schema into the system message.
    const all = server.requests.slice(before);
    const prewarms = all.filter((r) => r.body?.stream === false);
    expect(prewarms.length > 0).toBe(mode !== 'json_object' && mode !== 'text');
    expect(prewarms.every((r) => r.status === 200)).toBe(true);
    const game = all.filter((r) => !prewarms.includes(r));
    expect(game.length).toBeGreaterThan(8);
    expect(game.every((r) => r.status === 200)).toBe(true);
    if (mode === 'ollama_format') expect(game.every((r) => r.path === '/api/chat')).toBe(true);
    if (mode === 'gbnf') expect(game.every((r) => typeof r.body.grammar === 'string' && !r.body.response_format)).toBe(true);
  });
});

describe('the first refused request switches to the mode that works', () => {
  it('OpenAI refuses the union root in strict mode; the client probes, switches and keeps the step', async () => {
    const server = servers.get('openai')!;
    const changes: OutputMode[] = [];
    const model = createAdaptiveRemoteModel(
      { baseUrl: server.baseUrl, model: 'test-model', mode: 'json_schema_strict' },
      { onModeChange: (m) => changes.push(m) },
    );
    const replies = await playGuessNumber(model, 30);
    expect(changes).toEqual(['json_schema_strict_object']);
    expect(replies.at(-1)).toMatch(/^太棒啦！就是 30！/);
  });

  it('a saved mode that still works is kept (no probe)', async () => {
    const server = servers.get('llamacpp')!;
    const changes: OutputMode[] = [];
    const before = server.requests.length;
    const model = createAdaptiveRemoteModel({ baseUrl: server.baseUrl, model: 'test-model', mode: 'gbnf' }, { onModeChange: (m) => changes.push(m) });
    await playGuessNumber(model, 50);
    expect(changes).toEqual([]);
    expect(server.requests.slice(before).every((r) => r.body.stream === false || typeof r.body.grammar === 'string')).toBe(true);
  });
});

describe('request and answer shaping', () => {
  it('the OpenAI strict form has an object root, closed objects, every property required', () => {
    const s = strictObjectSchema(
      buildStepSchema([
        ...guessNumberTools,
        { name: 'note', description: '', parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 5, default: 'x' }, mood: { type: 'string', enum: ['a', 'b'] } }, required: ['text'] } },
      ]),
    );
    expect(s.type).toBe('object');
    expect((s.properties as any).action.enum).toEqual(['start_game', 'get_hint', 'submit_guess', 'end_game', 'say', 'reply', 'note']);
    const note = (s.properties as any).args.anyOf.find((a: any) => 'mood' in a.properties);
    expect(note).toEqual({
      type: 'object',
      properties: { text: { type: 'string' }, mood: { type: ['string', 'null'], enum: ['a', 'b', null] } },
      required: ['text', 'mood'],
      additionalProperties: false,
    });
    // Identical argument schemas (every no-argument tool) appear once.
    expect((s.properties as any).args.anyOf.filter((a: any) => Object.keys(a.properties).length === 0)).toHaveLength(1);
    expect(stepText('json_schema_strict_object', '{"action":"note","args":{"text":"hi","mood":null}}')).toBe('{"note":{"text":"hi"}}');
  });

  it('prose and code fences around the JSON are dropped, and never reach the incremental reader', () => {
    expect(extractJsonObject('好的！\n```json\n{"say":{"text":"a}b{"}}\n```\n完')).toBe('{"say":{"text":"a}b{"}}');
    const seen: string[] = [];
    const f = deltaFilter('text', (d) => seen.push(d))!;
    for (const d of ['好的', '！\n```json\n{"ac', 'tion":1}']) f(d);
    expect(seen.join('')).toBe('{"action":1}');
  });
});
