/**
 * A stand-in for WebLLM's MLCEngine where its cache is concerned: it holds one conversation (the
 * messages of its last request and the reply it generated) and, like WebLLM 0.2.86, continues in
 * place only when everything before a request's last message equals that conversation; otherwise
 * it reads the whole prompt again. It renders prompts with ChatML and counts the characters it
 * had to read ("prefill") per request. Replies are scripted.
 */
import type { ChatMessage } from '../../../src/core/llm/types.ts';

export function renderChatML(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('');
}

export class FakeWebLlm {
  private conversation: ChatMessage[] | null = null;
  /** Per request: whether it continued in place, the characters read, the messages received. */
  readonly log: Array<{ inPlace: boolean; prefill: number; messages: ChatMessage[] }> = [];

  constructor(private readonly replies: string[]) {}

  async reload(): Promise<void> {
    this.conversation = null;
  }
  async unload(): Promise<void> {
    this.conversation = null;
  }
  interruptGenerate(): void {}

  async chatCompletion(req: { messages: ChatMessage[] }): Promise<AsyncIterable<{ choices: Array<{ delta: { content: string }; finish_reason: string | null }> }>> {
    const messages = req.messages.map((m) => ({ ...m }));
    const before = messages.slice(0, -1);
    const c = this.conversation;
    const inPlace = c !== null && c.length === before.length && c.every((m, i) => m.role === before[i].role && m.content === before[i].content);
    const prefill = (inPlace ? renderChatML(messages.slice(-1)) : renderChatML(messages)).length;
    this.log.push({ inPlace, prefill, messages });
    const reply = this.replies.shift() ?? '{"reply":{"text":"好"}}';
    this.conversation = [...messages, { role: 'assistant', content: reply }];
    return (async function* () {
      yield { choices: [{ delta: { content: reply.slice(0, 4) }, finish_reason: null }] };
      yield { choices: [{ delta: { content: reply.slice(4) }, finish_reason: 'stop' }] };
    })();
  }
}
