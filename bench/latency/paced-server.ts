/**
 * A local OpenAI-compatible server paced like an on-device engine at one profile's rates, for
 * `bench/latency/run.ts --app`: the demo brain (tests/support/demo-brain-server.ts) decides every
 * step, and the answer is held back by the time a device would take — the prompt tokens it would
 * have to prefill at `prefillTps`, then the output's tokens at `decodeTps`, streamed a character at
 * a time (evenly over the step's decode time).
 *
 * One engine, one request at a time, as on a device: a request that comes while another runs waits
 * for it (first come, first served); one the client closed while it waited is dropped unread. The
 * running one, abandoned by the client, frees the engine as the engine would stop: under `prefix`
 * at once (llama.cpp and wllama stop between batches); under `webllm` not before its prefill is
 * over (WebLLM checks its interrupt flag only between decode steps: a prefill it began is read to
 * the end, and the next request waits for it). The time a request waited is logged (`startedAt`).
 *
 * What it prefills follows the engine's cache rule, over the Qwen tokenizer's count of the ChatML
 * text (simulate.ts), against what the previous request of the same cache slot left, counted when
 * the request starts on the engine:
 * - `webllm` (WebLLM's exact rule, one conversation for every agent, as the app's WebLLM engine
 *   sends it: src/core/llm/continuation.ts folds the messages a request adds into one): in place
 *   when the new request is the previous request, its whole output, then new messages; only those
 *   are prefilled. A reply the client abandoned leaves no cache (WebLLM resets its cache after a
 *   reply that ended by an interrupt, and whenever the conversation differs: no partial prefix is
 *   kept); one it let finish (a step the colour window muted) holds it like any other.
 * - `prefix` (llama.cpp/wllama: the longest common token prefix; the main agent's prompt kept apart
 *   from the game's, as measured with wllama's prompt cache): the tokens past the common prefix;
 *   an abandoned reply keeps what was read and decoded so far. In place: more than half reused.
 *
 * A prewarm (a request for one token, not streamed: src/llm/remote-prewarm.ts) is done as the app's
 * engine does its own (src/llm/engine-step.ts warmStep): under `prefix` its messages are read past
 * the common prefix and one token decoded; under `webllm` it is WebLLM's replay — the messages
 * before its last assistant message are read (in place when they continue the held conversation),
 * that message is decoded again at `decodeTps`, and the conversation up to it is held; nothing to
 * do when it is held already or there is no assistant message. Abandoned, it
 * leaves what the rule leaves of an abandoned reply. Its answer is one space, sent when done.
 * Every chat request is logged with its agent, prompt and prefilled tokens, whether it was a
 * prewarm, and what the server wrote when (the first byte, the first sentence's last character, the end).
 */
import type { ChatMessage } from '../../src/core/llm/types.ts';
import { agentOf, demoStep, toolsOf } from '../../tests/support/demo-brain-server.ts';
import { isPrewarmBody as isPrewarm, startOpenAITestServer, type OpenAITestServer, type RecordedRequest } from '../../tests/support/openai-test-server.ts';
import { CHATML, continuation } from '../../src/core/llm/continuation.ts';
import { firstSentenceEnd, renderChatML, type Tokenizer } from './simulate.ts';

export type CacheRule = 'webllm' | 'prefix';

export interface PacedProfile {
  id: string;
  prefillTps: number;
  decodeTps: number;
  rule: CacheRule;
}

export interface PacedRequest {
  agent: string;
  promptTokens: number;
  prefillTokens: number;
  inPlace: boolean;
  /** The step the demo brain wrote (JSON text). */
  content: string;
  /** When its first sentence would be (or was) complete on the wire, by the pacing (ms since the epoch). */
  sentenceDueAt?: number;
  /** A prewarm (one token asked for, not streamed). */
  prewarm: boolean;
  /** When the engine took it (it waited from `record.receivedAt` for the request before it); unset: dropped while it waited. */
  startedAt?: number;
  record: RecordedRequest;
}

interface SlotState {
  messages: ChatMessage[];
  prompt: number[];
  /** The reply decoded after the prompt (a prewarm under `prefix`: none). */
  content: string;
  record: RecordedRequest;
  /** Prompt tokens already in the cache when it started, when it started, and how long its prefill takes. */
  common: number;
  startedAt: number;
  prefillMs: number;
  /** A prewarm that ran to its end (a step's end is its last piece written). */
  done?: boolean;
}

export interface PacedServer {
  readonly baseUrl: string;
  readonly log: PacedRequest[];
  /** A new profile, and an empty cache (the page reloads: a fresh engine). */
  reset(profile: PacedProfile): void;
  close(): Promise<void>;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the client's connection closed (finished or abandoned); polled: the test server only records it. */
async function closedAt(record: RecordedRequest): Promise<number> {
  while (record.closedAt === undefined) await sleep(5);
  return record.closedAt;
}

/** One engine: `take()` resolves when every request taken before has freed it, with the function that frees it. */
function oneEngine() {
  let free: Promise<void> = Promise.resolve();
  return {
    take(): Promise<() => void> {
      let release!: () => void;
      const done = new Promise<void>((r) => (release = r));
      const before = free;
      free = before.then(() => done);
      return before.then(() => release);
    },
  };
}

/** What a slot's last request left in the cache: its prompt and output, or what it got to before it was abandoned. */
function cachedBy(tok: Tokenizer, s: SlotState, rule: CacheRule): { messages: ChatMessage[] | null; tokens: number[] } {
  const whole = s.done === true || s.record.lastContentAt !== undefined;
  if (whole) {
    const out = tok.encode(s.content);
    return { messages: [...s.messages, { role: 'assistant', content: s.content }], tokens: [...s.prompt, ...out] };
  }
  if (rule === 'webllm') return { messages: null, tokens: [] };
  const sent = [...s.content].slice(0, s.record.sentChars ?? 0).join('');
  if (sent) return { messages: null, tokens: [...s.prompt, ...tok.encode(sent)] };
  // Abandoned while prefilling: what was read by the time the engine stopped (at once under `prefix`).
  const stopped = s.record.closedAt ?? Date.now();
  const read = s.common + Math.floor((s.prompt.length - s.common) * Math.min(1, Math.max(0, stopped - s.startedAt) / Math.max(1, s.prefillMs)));
  return { messages: null, tokens: s.prompt.slice(0, read) };
}

/** Tokens to prefill for `messages` after what `prev` left, and whether that is in place. */
function prefillAfter(tok: Tokenizer, rule: CacheRule, prev: SlotState | undefined, messages: ChatMessage[], prompt: number[]): { prefill: number; inPlace: boolean } {
  if (!prev) return { prefill: prompt.length, inPlace: false };
  const c = cachedBy(tok, prev, rule);
  if (rule === 'webllm') {
    const held = c.messages ? { asked: c.messages.slice(0, -1), sent: c.messages.slice(0, -1), reply: c.messages.at(-1)!.content } : null;
    if (held && continuation(held, messages, CHATML).inPlace) return { prefill: tok.encode(renderChatML(messages.slice(c.messages!.length))).length, inPlace: true };
    return { prefill: prompt.length, inPlace: false };
  }
  let common = 0;
  while (common < prompt.length && common < c.tokens.length && prompt[common] === c.tokens[common]) common++;
  return { prefill: prompt.length - common, inPlace: common > prompt.length / 2 };
}

/** Whether `s` holds the conversation `messages` whole, as WebLLM's replay checks (nothing to replay then). */
function holds(tok: Tokenizer, s: SlotState | undefined, messages: ChatMessage[]): boolean {
  const c = s ? cachedBy(tok, s, 'webllm').messages : null;
  return !!c && c.length === messages.length && c.every((m, i) => m.role === messages[i].role && m.content === messages[i].content);
}

export async function startPacedServer(tok: Tokenizer): Promise<PacedServer> {
  let profile: PacedProfile | null = null;
  let slots = new Map<string, SlotState>();
  let engine = oneEngine();
  const log: PacedRequest[] = [];
  const server: OpenAITestServer = await startOpenAITestServer(undefined, { prewarms: 'respond' });

  /** Frees the engine when the request's work is over: its connection closed, and under `webllm` not before its prefill ends. */
  const freeWhenOver = (record: RecordedRequest, prefillEndsAt: number, rule: CacheRule, release: () => void) =>
    void closedAt(record).then(async (at) => {
      if (rule === 'webllm' && at < prefillEndsAt) await sleep(prefillEndsAt - at);
      release();
    });

  /** A prewarm on the engine: read (and, under `webllm`, the last step decoded again), then one space. */
  async function prewarm(p: PacedProfile, slotKey: string, messages: ChatMessage[], entry: PacedRequest, release: () => void) {
    const { record } = entry;
    const prev = slots.get(slotKey);
    const replay = p.rule === 'webllm';
    // WebLLM's replay: up to the last assistant step (what follows it the next request adds).
    const at = replay ? messages.findLastIndex((m) => m.role === 'assistant') : messages.length;
    const last = replay ? messages[at] : undefined;
    if (replay && (at < 1 || !last!.content || holds(tok, prev, messages.slice(0, at + 1)))) {
      release();
      return { json: ' ' };
    }
    const asked = messages.slice(0, at);
    const prompt = tok.encode(renderChatML(asked));
    const { prefill, inPlace } = prefillAfter(tok, p.rule, prev, asked, prompt);
    const prefillMs = (prefill / p.prefillTps) * 1000;
    const decodeMs = ((replay ? tok.encode(last!.content).length + 1 : 1) / p.decodeTps) * 1000;
    const slot: SlotState = { messages: asked, prompt, content: replay ? last!.content : '', record, common: prompt.length - prefill, startedAt: Date.now(), prefillMs };
    slots.set(slotKey, slot);
    Object.assign(entry, { promptTokens: prompt.length, prefillTokens: prefill, inPlace });
    freeWhenOver(record, slot.startedAt + prefillMs, p.rule, release);
    await Promise.race([sleep(prefillMs + decodeMs), closedAt(record)]);
    if (record.closedAt === undefined) slot.done = true;
    return { json: ' ' };
  }

  server.respond(async (body) => {
    const record = server.requests.find((r) => r.body === body)!;
    const messages = body.messages as ChatMessage[];
    const warm = isPrewarm(body);
    const found = agentOf(messages, toolsOf(body));
    // A prewarm carries no tools: one that is no game's is the main agent's.
    const agent = warm && found === 'unknown' ? 'main' : found;
    const p = profile;
    if (agent === 'unknown' || !p) return warm ? { json: ' ' } : { content: '{"reply":{"text":"好"}}' };
    const content = warm ? '' : await demoStep(body);
    const slotKey = p.rule === 'prefix' && agent === 'main' ? 'main' : 'game';
    const entry: PacedRequest = { agent, promptTokens: 0, prefillTokens: 0, inPlace: false, content, prewarm: warm, record };
    log.push(entry);
    const release = await engine.take();
    // The client left while it waited (or the page reloaded): dropped unread.
    if (record.closedAt !== undefined || p !== profile) {
      release();
      return { status: 499, body: '' };
    }
    entry.startedAt = Date.now();
    if (warm) return prewarm(p, slotKey, messages, entry, release);
    const prompt = tok.encode(renderChatML(messages));
    const { prefill, inPlace } = prefillAfter(tok, p.rule, slots.get(slotKey), messages, prompt);
    const chars = [...content];
    const outTokens = tok.encode(content).length + 1;
    const prefillMs = (prefill / p.prefillTps) * 1000;
    slots.set(slotKey, { messages, prompt, content, record, common: prompt.length - prefill, startedAt: entry.startedAt, prefillMs });
    freeWhenOver(record, entry.startedAt + prefillMs, p.rule, release);
    const perCharMs = (outTokens / p.decodeTps) * 1000 / Math.max(1, chars.length);
    const end = firstSentenceEnd(content, true);
    // `end` counts UTF-16 units of the JSON text; the pieces are characters.
    const markAt = end === null ? undefined : Math.max(0, Array.from(content.slice(0, end)).length - 1);
    Object.assign(entry, {
      promptTokens: prompt.length,
      prefillTokens: prefill,
      inPlace,
      ...(markAt === undefined ? {} : { sentenceDueAt: entry.startedAt + prefillMs + (markAt + 1) * perCharMs }),
    });
    return { content, delayMs: Math.max(1, prefillMs), pieceChars: 1, pieceDelayMs: Math.max(1, perCharMs), ...(markAt === undefined ? {} : { markAt }) };
  });

  return {
    baseUrl: server.baseUrl,
    log,
    reset(p) {
      profile = p;
      slots = new Map();
      engine = oneEngine();
    },
    close: () => server.close(),
  };
}
