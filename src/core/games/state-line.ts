/**
 * The state line of a game's round input (`{"event", "user_text", "state"}`, game-prompt.ts)
 * carries only what changed since the state the conversation already told: a key whose value is
 * the same is left out, a nested object carries only its changed keys, an array or a plain value
 * changed is written whole, and a key that is gone is written as null. Nothing changed: no state
 * at all. The state a conversation tells is every round's state line merged in order
 * (`toldState`), so a reader, a demo policy and the model read the same state, and a conversation
 * cut to its last rounds tells less, so the next line writes again what it no longer tells.
 * Each round's input then costs a local engine a few tokens instead of the whole snapshot. Pure.
 */
import type { ChatMessage } from '../llm/types.ts';

type State = Record<string, unknown>;

const isRecord = (v: unknown): v is State => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What `now` changes of `told` (keys gone: null); empty when nothing changed. */
export function stateChange(told: State, now: State): State {
  const out: State = {};
  for (const [k, v] of Object.entries(now)) {
    if (!(k in told)) {
      if (v !== null) out[k] = v;
    } else if (isRecord(v) && isRecord(told[k])) {
      const inner = stateChange(told[k], v);
      if (Object.keys(inner).length) out[k] = inner;
    } else if (!same(told[k], v)) out[k] = v;
  }
  for (const k of Object.keys(told)) if (!(k in now)) out[k] = null;
  return out;
}

/** `told` with a state line applied (null: the key is gone). */
export function withChange(told: State, change: State): State {
  const out: State = { ...told };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete out[k];
    else if (isRecord(v) && isRecord(out[k])) out[k] = withChange(out[k] as State, v);
    else out[k] = v;
  }
  return out;
}

/** The round inputs' JSON (`{"event", …}`), or null for any other message. */
function roundInput(m: ChatMessage): { state?: unknown } | null {
  if (m.role !== 'user' || !m.content.startsWith('{"event":')) return null;
  try {
    return JSON.parse(m.content) as { state?: unknown };
  } catch {
    return null;
  }
}

/** The state the conversation tells: every round input's state line, merged in order. */
export function toldState(messages: readonly ChatMessage[]): State {
  let told: State = {};
  for (const m of messages) {
    const state = roundInput(m)?.state;
    if (isRecord(state)) told = withChange(told, state);
  }
  return told;
}

/** The state line of the next round after `messages`: what changed, or undefined when nothing did. */
export function stateLine(messages: readonly ChatMessage[], now: State): State | undefined {
  const change = stateChange(toldState(messages), now);
  return Object.keys(change).length ? change : undefined;
}
