/**
 * The two message shapes every agent's tool loop writes, one format for all of them (main agent,
 * games, the Studio's manager and workers):
 * - the model's step, as the assistant said it: `{"<action>": {…}}` (../llm/step-format.ts);
 * - a tool's result, as a user message in Qwen's native wrapper:
 *   `<tool_response>{"name": …, "result": …}</tool_response>`; a refusal is `result: {"error": …}`.
 *   A line the rules said right after it may be noted in it, `"said": "…"` (tool-loop.ts): the
 *   model reads that line as said, as it would read a `say` step and its result.
 * Scripted policies read them back with `readStep` / `readToolResult`, seeing what a model sees.
 */
import { stepJson, stepOfValue } from '../llm/step-format.ts';
import type { ChatMessage, Step } from '../llm/types.ts';

const TOOL_RESPONSE = /^<tool_response>([\s\S]*)<\/tool_response>$/;
const TOOL_RESPONSES = /<tool_response>([\s\S]*?)<\/tool_response>/g;

/** The model's step as the assistant said it: its exact decoded text when known (a local engine's cache then continues in place). */
export function stepMessage(step: Step): ChatMessage {
  return { role: 'assistant', content: step.raw ?? stepJson(step) };
}

export function toolResultMessage(name: string, result: unknown, said?: string): ChatMessage {
  return { role: 'user', content: `<tool_response>${JSON.stringify(said === undefined ? { name, result } : { name, result, said })}</tool_response>` };
}

/**
 * The last of `messages`, a tool result written after `from`, with the line `said` noted in it;
 * null when it is not one, or notes a line already.
 */
export function withSaid(messages: readonly ChatMessage[], from: number, said: string): ChatMessage | null {
  const r = messages.length > from ? readToolResult(messages[messages.length - 1]) : null;
  return r && r.said === undefined ? toolResultMessage(r.name, r.result, said) : null;
}

/** A refusal's result: what the model reads when a tool said no or its arguments were wrong. */
export function toolError(message: string): { error: string } {
  return { error: message };
}

export function isToolResult(message: ChatMessage): boolean {
  return message.role === 'user' && TOOL_RESPONSE.test(message.content);
}

/** The tool result a message carries (with the line noted as said after it, if any), or null when it is not one. */
export function readToolResult(message: ChatMessage): { name: string; result: unknown; said?: string } | null {
  if (message.role !== 'user') return null;
  const m = TOOL_RESPONSE.exec(message.content);
  if (!m) return null;
  try {
    const body = JSON.parse(m[1]) as { name?: unknown; result?: unknown; said?: unknown };
    if (typeof body.name !== 'string') return null;
    return typeof body.said === 'string' ? { name: body.name, result: body.result, said: body.said } : { name: body.name, result: body.result };
  } catch {
    return null;
  }
}

/**
 * Every tool result a user message carries, in order — also one that goes on with other words
 * (the Studio's manager gets a worker's result and the next words of the child in one message).
 */
export function toolResultsIn(message: ChatMessage): Array<{ name: string; result: unknown }> {
  if (message.role !== 'user') return [];
  return [...message.content.matchAll(TOOL_RESPONSES)].flatMap((m) => {
    try {
      const body = JSON.parse(m[1]) as { name?: unknown; result?: unknown };
      return typeof body.name === 'string' ? [{ name: body.name, result: body.result }] : [];
    } catch {
      return [];
    }
  });
}

/** The step an assistant message carries, or null. */
export function readStep(message: ChatMessage): Step | null {
  if (message.role !== 'assistant') return null;
  try {
    const v = stepOfValue(JSON.parse(message.content));
    if (!v.ok) return null;
    const args = v.args && typeof v.args === 'object' && !Array.isArray(v.args) ? (v.args as Record<string, unknown>) : {};
    return { action: v.action, args };
  } catch {
    return null;
  }
}

/** A tool result's error text, when the result is a refusal. */
export function errorOf(result: unknown): string | undefined {
  const e = (result as { error?: unknown } | undefined)?.error;
  return typeof e === 'string' ? e : undefined;
}
