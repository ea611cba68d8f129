/**
 * Earlier layouts, rebuilt from requests recorded with the current agents:
 * - `beforeLayout` (the "before" variant of bench/latency): the state snapshot and the legal actions
 *   at the end of the system prompt (so the system prompt changed every round), each input only
 *   `{"event","user_text"}`, and a memory of each earlier round as its input and final reply only;
 * - `pairedText` / `pairedSteps`: steps written in the paired form `{"action": …, "args": {…}}`
 *   the agents used before the keyed one (`src/core/llm/step-format.ts`).
 */
import { stepOfValue } from '../../src/core/llm/step-format.ts';
import type { ChatMessage, StepRequest } from '../../src/core/llm/types.ts';

/** A step's text in the paired form (other text unchanged). */
export function pairedText(text: string): string {
  try {
    const v = stepOfValue(JSON.parse(text));
    if (v.ok) return JSON.stringify({ action: v.action, args: v.args });
  } catch {
    // not a step: as it is
  }
  return text;
}

/** The request with every step the model wrote (its assistant messages) in the paired form. */
export function pairedSteps(req: StepRequest): StepRequest {
  return { ...req, messages: req.messages.map((m) => (m.role === 'assistant' ? { ...m, content: pairedText(m.content) } : m)) };
}

const isInput = (m: ChatMessage) => m.role === 'user' && m.content.startsWith('{"event":');

function argNames(schema: Record<string, unknown>): string {
  const props = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  return props.length ? `(${props.join(', ')})` : '';
}

function bareInput(m: ChatMessage): { message: ChatMessage; state: unknown } {
  const v = JSON.parse(m.content) as { event: string; user_text: string; state?: unknown };
  return { message: { role: 'user', content: JSON.stringify({ event: v.event, user_text: v.user_text }) }, state: v.state ?? {} };
}

export function beforeLayout(req: StepRequest): StepRequest {
  const [system, ...rest] = req.messages;
  const starts = rest.flatMap((m, i) => (isInput(m) ? [i] : []));
  if (system?.role !== 'system' || starts.length === 0) return req;
  const current = starts[starts.length - 1];
  const memory: ChatMessage[] = [];
  for (let r = 0; r < starts.length - 1; r++) {
    const round = rest.slice(starts[r], starts[r + 1]);
    const reply = round.filter((m) => m.role === 'assistant').at(-1);
    memory.push(bareInput(round[0]).message, ...(reply ? [reply] : []));
  }
  const { message, state } = bareInput(rest[current]);
  const actions = req.tools.map((t) => `- ${t.name}${argNames(t.parameters)}：${t.description}`).join('\n');
  const oldSystem = `${system.content}\n\n# 现在可用的动作\n${actions}\n\n# 当前状态\n${JSON.stringify(state)}`;
  return { ...req, messages: [{ role: 'system', content: oldSystem }, ...memory, message, ...rest.slice(current + 1)] };
}
