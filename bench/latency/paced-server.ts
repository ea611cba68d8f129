/**
 * A local OpenAI-compatible server paced like an on-device engine at one profile's rates, for
 * `bench/latency/run.ts --app`: the demo brain (tests/support/demo-brain-server.ts) decides every
 * step, and the answer is held back by the time a device would take — the prompt tokens it would
 * have to prefill at `prefillTps`, then the output's tokens at `decodeTps`, streamed a character at
 * a time (evenly over the step's decode time).
 *
 * What it prefills follows the engine's cache rule, over the Qwen tokenizer's count of the ChatML
 * text (simulate.ts), against what the previous request of the same cache slot left:
 * - `webllm` (WebLLM's exact rule, one conversation for every agent): in place only when the new
 *   request's every message but the last equals the previous request plus its whole output; then
 *   only the last message is prefilled. A reply the client abandoned leaves no cache.
 * - `prefix` (llama.cpp/wllama: the longest common token prefix; the main agent's prompt kept apart
 *   from the game's, as measured with wllama's prompt cache): the tokens past the common prefix;
 *   an abandoned reply keeps what was read and decoded so far. In place: more than half reused.
 * Every chat request is logged with its agent, prompt and prefilled tokens, and what the server
 * wrote when (the first byte, the first sentence's last character, the end).
 */
import type { ChatMessage } from '../../src/core/llm/types.ts';
import { agentOf, demoStep, toolsOf } from '../../tests/support/demo-brain-server.ts';
import { startOpenAITestServer, type OpenAITestServer, type RecordedRequest } from '../../tests/support/openai-test-server.ts';
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
  record: RecordedRequest;
}

interface SlotState {
  messages: ChatMessage[];
  prompt: number[];
  content: string;
  record: RecordedRequest;
  /** Prompt tokens already in the cache when it arrived, and how long its prefill takes. */
  common: number;
  prefillMs: number;
}

export interface PacedServer {
  readonly baseUrl: string;
  readonly log: PacedRequest[];
  /** A new profile, and an empty cache (the page reloads: a fresh engine). */
  reset(profile: PacedProfile): void;
  close(): Promise<void>;
}

const sameMessages = (a: ChatMessage[], b: ChatMessage[]) => a.length === b.length && a.every((m, i) => m.role === b[i].role && m.content === b[i].content);

export async function startPacedServer(tok: Tokenizer): Promise<PacedServer> {
  let profile: PacedProfile | null = null;
  let slots = new Map<string, SlotState>();
  const log: PacedRequest[] = [];
  const server: OpenAITestServer = await startOpenAITestServer();

  /** What a slot's last request left in the cache: its prompt and output, or what it got to before it was abandoned. */
  function cached(s: SlotState, rule: CacheRule): { messages: ChatMessage[] | null; tokens: number[] } {
    const whole = s.record.lastContentAt !== undefined;
    if (whole) {
      const out = tok.encode(s.content);
      return { messages: [...s.messages, { role: 'assistant', content: s.content }], tokens: [...s.prompt, ...out] };
    }
    if (rule === 'webllm') return { messages: null, tokens: [] };
    const sent = [...s.content].slice(0, s.record.sentChars ?? 0).join('');
    if (sent) return { messages: null, tokens: [...s.prompt, ...tok.encode(sent)] };
    // Abandoned while prefilling: what was read by now (an upper bound: it was abandoned before this request came).
    const read = s.common + Math.floor((s.prompt.length - s.common) * Math.min(1, (Date.now() - s.record.receivedAt) / Math.max(1, s.prefillMs)));
    return { messages: null, tokens: s.prompt.slice(0, read) };
  }

  server.respond(async (body) => {
    const record = server.requests.find((r) => r.body === body)!;
    const messages = body.messages as ChatMessage[];
    const agent = agentOf(messages, toolsOf(body));
    if (agent === 'unknown' || !profile) return { content: '{"reply":{"text":"好"}}' };
    const content = await demoStep(body);
    const slotKey = profile.rule === 'prefix' && agent === 'main' ? 'main' : 'game';
    const prompt = tok.encode(renderChatML(messages));
    let prefill = prompt.length;
    let inPlace = false;
    const prev = slots.get(slotKey);
    if (prev) {
      const c = cached(prev, profile.rule);
      if (profile.rule === 'webllm') {
        if (c.messages && sameMessages(c.messages, messages.slice(0, -1))) {
          prefill = tok.encode(renderChatML(messages.slice(-1))).length;
          inPlace = true;
        }
      } else {
        let common = 0;
        while (common < prompt.length && common < c.tokens.length && prompt[common] === c.tokens[common]) common++;
        prefill = prompt.length - common;
        inPlace = common > prompt.length / 2;
      }
    }
    const chars = [...content];
    const outTokens = tok.encode(content).length + 1;
    const prefillMs = (prefill / profile.prefillTps) * 1000;
    slots.set(slotKey, { messages, prompt, content, record, common: prompt.length - prefill, prefillMs });
    const perCharMs = (outTokens / profile.decodeTps) * 1000 / Math.max(1, chars.length);
    const end = firstSentenceEnd(content, true);
    // `end` counts UTF-16 units of the JSON text; the pieces are characters.
    const markAt = end === null ? undefined : Math.max(0, Array.from(content.slice(0, end)).length - 1);
    log.push({
      agent,
      promptTokens: prompt.length,
      prefillTokens: prefill,
      inPlace,
      content,
      ...(markAt === undefined ? {} : { sentenceDueAt: record.receivedAt + prefillMs + (markAt + 1) * perCharMs }),
      record,
    });
    return { content, delayMs: Math.max(1, prefillMs), pieceChars: 1, pieceDelayMs: Math.max(1, perCharMs), ...(markAt === undefined ? {} : { markAt }) };
  });

  return {
    baseUrl: server.baseUrl,
    log,
    reset(p) {
      profile = p;
      slots = new Map();
    },
    close: () => server.close(),
  };
}
