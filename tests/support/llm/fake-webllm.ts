/**
 * A stand-in for WebLLM's MLCEngine where its cache is concerned. Like WebLLM 0.2.86 it holds one
 * conversation (the messages of its last request and the reply it generated) and continues in
 * place only when everything before a request's last message equals that conversation and the
 * previous reply ended by itself (finish reason `stop`; after `abort` or `length` it starts over);
 * otherwise it reads the whole prompt again. It renders prompts with ChatML and counts the
 * characters it had to read ("prefill") per request. Replies are scripted, except under a grammar
 * whose only sentence is one string literal (`root ::= "…"`): any model decoding under it writes
 * exactly that string, so the fake does too. `max_tokens` is counted in characters (an upper
 * bound on tokens) and `interruptGenerate` stops the reply between two chunks, as WebLLM does
 * between decoded tokens.
 */
import type { ChatMessage } from '../../../src/core/llm/types.ts';

export function renderChatML(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('');
}

/** The string a grammar admits when it is one literal, else undefined. */
function onlySentence(grammar: unknown): string | undefined {
  if (typeof grammar !== 'string') return undefined;
  const m = /^root ::= "((?:[^"\\]|\\.)*)"$/.exec(grammar);
  if (!m) return undefined;
  return m[1].replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
}

interface FakeRequest {
  messages: ChatMessage[];
  max_tokens?: number;
  response_format?: { type: string; grammar?: string };
}

export class FakeWebLlm {
  private conversation: ChatMessage[] | null = null;
  private finish: string | null = null;
  private interrupted = false;
  /** Per request: whether it continued in place, the characters read and decoded, the messages received, how it ended. */
  readonly log: Array<{ inPlace: boolean; prefill: number; decoded: number; messages: ChatMessage[]; finish?: string }> = [];

  private gate: { index: number; open: Promise<void> } | undefined;

  constructor(private readonly replies: string[]) {}

  /** Request number `index` (0-based) is received (logged) but decodes nothing until the returned function is called. */
  pause(index: number): () => void {
    let open!: () => void;
    this.gate = { index, open: new Promise<void>((r) => (open = r)) };
    return open;
  }

  async reload(): Promise<void> {
    this.conversation = null;
  }
  async unload(): Promise<void> {
    this.conversation = null;
  }
  interruptGenerate(): void {
    this.interrupted = true;
  }

  async chatCompletion(req: FakeRequest): Promise<AsyncIterable<{ choices: Array<{ delta: { content: string }; finish_reason: string | null }> }>> {
    const messages = req.messages.map((m) => ({ ...m }));
    const before = messages.slice(0, -1);
    const c = this.finish === 'stop' ? this.conversation : null;
    const inPlace = c !== null && c.length === before.length && c.every((m, i) => m.role === before[i].role && m.content === before[i].content);
    const prefill = (inPlace ? renderChatML(messages.slice(-1)) : renderChatML(messages)).length;
    const entry: (typeof this.log)[number] = { inPlace, prefill, decoded: 0, messages };
    this.log.push(entry);
    const forced = onlySentence(req.response_format?.grammar);
    const reply = forced ?? this.replies.shift() ?? '{"reply":{"text":"好"}}';
    const max = req.max_tokens ?? Infinity;
    this.interrupted = false;
    this.conversation = null;
    this.finish = null;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const fake = this;
    const gate = this.gate?.index === this.log.length - 1 ? this.gate.open : undefined;
    return (async function* () {
      await gate;
      const chars = [...reply];
      let out = '';
      for (let i = 0; i < chars.length; i += 4) {
        if (fake.interrupted || i >= max) break;
        const piece = chars.slice(i, Math.min(i + 4, max)).join('');
        out += piece;
        entry.decoded = [...out].length;
        const done = out === reply;
        yield { choices: [{ delta: { content: piece }, finish_reason: done ? 'stop' : null }] };
      }
      fake.finish = out === reply ? 'stop' : fake.interrupted ? 'abort' : 'length';
      entry.finish = fake.finish;
      fake.conversation = [...messages, { role: 'assistant', content: out }];
    })();
  }
}
