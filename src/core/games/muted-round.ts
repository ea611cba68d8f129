/**
 * A model step the colour window cut (src/games/skill-agent.ts): the turn has already ended with
 * the rules' next prompt, and the model's step goes on muted (nothing of it is said). When it
 * finishes with a reply, the round is kept exactly as it was sent and generated, then (unless the
 * reply says just that) a note of what the child heard instead: the model knows the truth, and the next request is the previous
 * request + its reply + new messages (a caching engine continues it in place). A muted step may
 * only speak (its words go nowhere); a step that would change the game is not performed and the
 * round stays as the rules took it. Pure.
 */
import { readStep } from '../agent/messages.ts';
import type { ChatMessage } from '../llm/types.ts';
import { claimForm } from './already-said.ts';

/** The tools a muted step may use: the ones that only speak. */
export function mayRunMuted(action: string, speaking: readonly string[]): boolean {
  return speaking.includes(action);
}

/** The note after a muted reply: it was not heard, and what the child heard instead. */
export function heardInsteadNote(heard: string): ChatMessage {
  return { role: 'user', content: JSON.stringify({ note: `这条回复来晚了没说出去，小朋友听到的是：${heard}` }) };
}

/**
 * The round to remember after a muted step: `generated` (the round's input, every step and tool
 * result, the reply step as decoded) and the note — none when the reply says what the child heard
 * (the same claim, punctuation and particles aside: the round as generated is already true); null
 * when it does not end with the reply step (the step did not finish: the round as the rules took
 * it stays).
 */
export function mutedRound(generated: readonly ChatMessage[], heard: string): ChatMessage[] | null {
  if (generated.length < 2 || generated.at(-1)!.role !== 'assistant') return null;
  const text = readStep(generated.at(-1)!)?.args.text;
  if (typeof text === 'string' && claimForm(text) !== '' && claimForm(text) === claimForm(heard)) return [...generated];
  return [...generated, heardInsteadNote(heard)];
}

/**
 * `memory` with the round the rules kept for a muted step (`kept`, the same messages) replaced by
 * the round to remember: rounds remembered after it (a next turn that went on while the step
 * finished) stay after it. Unchanged when `kept` is no longer there (past the memory window).
 */
export function replaceRound(memory: readonly ChatMessage[], kept: readonly ChatMessage[], round: readonly ChatMessage[]): ChatMessage[] {
  const at = kept.length ? memory.indexOf(kept[0]) : -1;
  if (at < 0 || !kept.every((m, i) => memory[at + i] === m)) return [...memory];
  return [...memory.slice(0, at), ...round, ...memory.slice(at + kept.length)];
}

/** `memory` without its last round when that round is `own` (the same messages): what the rounds before a turn came to. */
export function withoutOwnRound(memory: readonly ChatMessage[], own: readonly ChatMessage[] | undefined): ChatMessage[] {
  if (!own?.length || own.length > memory.length) return [...memory];
  const from = memory.length - own.length;
  return own.every((m, i) => memory[from + i] === m) ? memory.slice(0, from) : [...memory];
}
