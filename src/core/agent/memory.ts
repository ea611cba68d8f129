/**
 * The conversation memory window (seed 000: 本局的对话保留最近 16 轮), one implementation for every
 * agent that keeps a game's rounds: the built-in games (SkillAgent) and the Studio's play manager.
 * A round starts at the message that brought the child's words; what comes before the first round
 * (a system prompt) is always kept. Pure: the caller replaces its conversation only when a round
 * succeeded, so a failed round is never written.
 */
import type { ChatMessage } from '../llm/types.ts';
import { stepMessage } from './messages.ts';

export const MEMORY_ROUNDS = 16;

/** Tells whether a message opens a round (carries the child's words for one input). */
type RoundStart = (message: ChatMessage) => boolean;

/** The conversation cut to its last `limit` rounds; messages before the first round are kept. */
export function lastRounds(messages: readonly ChatMessage[], isRoundStart: RoundStart, limit = MEMORY_ROUNDS): ChatMessage[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (isRoundStart(m)) starts.push(i);
  });
  if (starts.length <= limit) return [...messages];
  const head = messages.slice(0, starts[0]);
  return [...head, ...messages.slice(starts[starts.length - limit])];
}

/**
 * A round cut before its reply (the turn's deadline, a model error, the step cap), as far as it
 * went: its input, each step whose tool result came back, then what the child was told instead —
 * the rules' line — as the reply step a model would have written. Remembered, the next request
 * starts with everything the engine has already read (a prefix-caching engine continues in place)
 * and the model knows what was said. A trailing step without its result is left out.
 */
export function cutRound(partial: readonly ChatMessage[], told: string | null): ChatMessage[] {
  const kept = [...partial];
  if (kept.length > 1 && kept.at(-1)!.role === 'assistant') kept.pop();
  return told ? [...kept, stepMessage({ action: 'reply', args: { text: told } })] : kept;
}

/** Adds one round's messages to a conversation and keeps the last `limit` rounds. */
export function remember(messages: readonly ChatMessage[], round: readonly ChatMessage[], isRoundStart: RoundStart, limit = MEMORY_ROUNDS): ChatMessage[] {
  return lastRounds([...messages, ...round], isRoundStart, limit);
}
