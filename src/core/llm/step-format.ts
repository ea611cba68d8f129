/**
 * A step as the model writes it: one JSON object whose only key is the action and whose value is
 * the action's arguments — `{"submit_guess":{"number":50}}`, `{"reply":{"text":"…"}}`. The action
 * comes first by construction, and a local model decodes four tokens fewer per step than with
 * `{"action":…,"args":{…}}` (Qwen's tokenizer: `{"`,`action`,`":"`,`reply`,`","`,`args`,`":{"` vs
 * `{"`,`reply`,`":{"`); at a tablet's 5–18 decoded tokens a second that is 0.2–0.8 s per step.
 *
 * OpenAI's strict subset cannot say "exactly one key out of these", so in that one output mode a
 * server is asked for the paired form `{"action": name, "args": {…}}` (structured-output.ts) and
 * its answer is rewritten into this one; the incremental reader reads both while they stream.
 */
import type { Step } from './types.ts';

/** Names a tool may not have: the paired form's keys, so that a step's shape is never ambiguous. */
export const RESERVED_ACTION_NAMES: readonly string[] = ['action', 'args'];

/** The text of a step, as a model would have written it. */
export function stepJson(step: Pick<Step, 'action' | 'args'>): string {
  return JSON.stringify({ [step.action]: step.args ?? {} });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parsed JSON value read as a step: its action and arguments (not yet checked against the tools), or what is wrong. */
export function stepOfValue(value: unknown): { ok: true; action: string; args: unknown } | { ok: false; reason: string } {
  if (!isObject(value)) return { ok: false, reason: '输出必须是一个 JSON 对象' };
  const keys = Object.keys(value);
  if (keys.length === 0) return { ok: false, reason: '对象里缺少动作' };
  if (keys.length > 1) return { ok: false, reason: `一次只能做一个动作，对象里只能有一个键，多了 ${keys.slice(1).join('、')}` };
  return { ok: true, action: keys[0], args: value[keys[0]] };
}

/** The paired form `{"action","args"}` rewritten as a step's text, nulls (OpenAI's "not given") dropped; null when it is not that form. */
export function pairedToStepJson(value: unknown): string | null {
  if (!isObject(value) || typeof value.action !== 'string' || !isObject(value.args)) return null;
  if (Object.keys(value).some((k) => k !== 'action' && k !== 'args')) return null;
  const args = Object.fromEntries(Object.entries(value.args).filter(([, x]) => x !== null));
  return stepJson({ action: value.action, args });
}
