/**
 * Continuing a conversation in place on an engine that reuses its cache only when the new request
 * adds exactly one message after its previous request and the reply it generated (WebLLM's rule:
 * everything before the last message must equal the conversation it holds). A request that adds
 * several messages — the child's input followed by the steps the rules performed before the model
 * (pre-executed steps and their results) — is sent with those messages folded into one user
 * message whose text renders to the very same prompt under the model's chat template, so the
 * engine continues in place and the model reads exactly what it would have read unfolded. Pure.
 */
import type { ChatMessage } from './types.ts';

/** How the chat template writes one message: `${role}${roleContentSep}${content}${sep}`. */
export interface TurnTemplate {
  user: string;
  assistant: string;
  roleContentSep: string;
  sep: string;
}

/** ChatML, the template of every Qwen model the app offers. */
export const CHATML: TurnTemplate = { user: '<|im_start|>user', assistant: '<|im_start|>assistant', roleContentSep: '\n', sep: '<|im_end|>\n' };

/** What the engine holds after a completed step: what the caller asked, what was sent, what it generated. */
export interface HeldConversation {
  asked: readonly ChatMessage[];
  sent: readonly ChatMessage[];
  reply: string;
}

/** Two messages of the same role and text. */
export const sameMessage = (a: ChatMessage, b: ChatMessage) => a.role === b.role && a.content === b.content;

/**
 * One user message that renders as `tail` would, message by message (the template's role markers
 * and separators written into its text). `tail` starts and ends with a user message.
 */
export function foldMessages(tail: readonly ChatMessage[], t: TurnTemplate): ChatMessage {
  if (tail.length === 1) return tail[0];
  let content = tail[0].content;
  for (const m of tail.slice(1)) content += `${t.sep}${m.role === 'assistant' ? t.assistant : t.user}${t.roleContentSep}${m.content}`;
  return { role: 'user', content };
}

/**
 * The messages to send for `asked`: when `asked` continues what the engine holds (its previous
 * request, then the reply it generated, then new messages), what was sent then, that reply and the
 * new messages folded into one; otherwise `asked` as it is (the engine starts over anyway).
 */
export function continuation(held: HeldConversation | null, asked: readonly ChatMessage[], t: TurnTemplate): { send: ChatMessage[]; inPlace: boolean } {
  if (held) {
    const n = held.asked.length;
    const continues =
      asked.length > n + 1 &&
      held.asked.every((m, i) => sameMessage(m, asked[i])) &&
      asked[n].role === 'assistant' &&
      asked[n].content === held.reply &&
      asked[n + 1].role === 'user' &&
      asked.at(-1)!.role === 'user';
    if (continues) return { send: [...held.sent, asked[n], foldMessages(asked.slice(n + 1), t)], inPlace: true };
  }
  return { send: [...asked], inPlace: false };
}
