/**
 * A session's conversation memory (seed 000: 本局的对话保留最近 16 轮). Pure and immutable:
 * `remember` returns a new memory; the runtime replaces its reference only when a round succeeded
 * (a failed round is never written).
 */
import type { ChatMessage } from '../llm/types.ts';

export const MEMORY_ROUNDS = 16;

/** One round: what the user message was and what the agent finally said. */
export interface Round {
  /** The user message as sent to the model: `{"event": kind, "user_text": text}`. */
  user: string;
  /** The final reply action as the model produced it (JSON of `{action:"reply", args:{text}}`). */
  assistant: string;
}

export type Memory = readonly Round[];

export const emptyMemory: Memory = Object.freeze([]);

/** Adds a round, keeping only the most recent `limit` rounds. */
export function remember(memory: Memory, round: Round, limit = MEMORY_ROUNDS): Memory {
  const next = [...memory, round];
  return Object.freeze(next.length > limit ? next.slice(next.length - limit) : next);
}

/** The rounds as chat messages, oldest first. */
export function memoryMessages(memory: Memory): ChatMessage[] {
  return memory.flatMap((r) => [
    { role: 'user' as const, content: r.user },
    { role: 'assistant' as const, content: r.assistant },
  ]);
}
