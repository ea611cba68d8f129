/**
 * The user side of the Studio manager's conversation. After a tool result the model has not
 * answered (a burst that ended with a helper), the next words join that same message: the
 * conversation keeps taking turns, so a local engine continues its cached conversation in place.
 */
import type { ChatMessage } from '../llm/types.ts';

/** The conversation with `content` as the user's (the system prompt, first, is never joined). */
export function withUserWords(manager: readonly ChatMessage[], content: string): ChatMessage[] {
  const last = manager.at(-1);
  if (manager.length > 1 && last?.role === 'user') return [...manager.slice(0, -1), { role: 'user', content: `${last.content}\n${content}` }];
  return [...manager, { role: 'user', content }];
}
