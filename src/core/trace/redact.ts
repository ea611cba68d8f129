/**
 * What the trace may hold and show.
 *
 * 1. API keys never reach the store: `sanitizeTraceData` replaces the value of any property that
 *    names a credential (apiKey, authorization, token, password…) and any `sk-…` / `Bearer …`
 *    string with a placeholder, and turns the rest into plain JSON (Errors, cycles, functions…).
 * 2. Game secrets are stored (a parent may need them to debug a game) but hidden in the view:
 *    any property named `secret` inside an event's `data` is a secret of the event's scope
 *    (source + contextId). It is shown only once an event of the same scope with
 *    `revealsSecret: true` exists in the same round at or after it, or in a later round.
 */
import type { TraceEvent } from './types.ts';

export const REDACTED_KEY = '［已隐藏］';
export const HIDDEN_SECRET = '［未揭晓］';

const CREDENTIAL_KEY = /^(api[-_]?key|apikey|x-api-key|authorization|proxy-authorization|auth[-_]?token|access[-_]?token|refresh[-_]?token|token|password|passwd|client[-_]?secret|secret[-_]?key)$/i;
const CREDENTIAL_TEXT = /\bsk-[A-Za-z0-9_-]{8,}|\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/g;

const MAX_DEPTH = 12;
const MAX_STRING = 20_000;

/** Plain-JSON copy of `value` with credentials replaced (safe to store, clone and export). */
export function sanitizeTraceData(value: unknown): unknown {
  return clean(value, 0, new WeakSet());
}

function clean(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value ?? null;
  switch (typeof value) {
    case 'string': {
      const s = value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…（截断）` : value;
      return s.replace(CREDENTIAL_TEXT, REDACTED_KEY);
    }
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return undefined;
  }
  const obj = value as object;
  if (seen.has(obj)) return '[循环引用]';
  if (depth >= MAX_DEPTH) return '[层级过深]';
  seen.add(obj);
  try {
    if (obj instanceof Error) {
      return { name: obj.name, message: clean(obj.message, depth + 1, seen), ...ownFields(obj, depth, seen) };
    }
    if (obj instanceof Date) return obj.toISOString();
    if (ArrayBuffer.isView(obj)) return `[${obj.constructor.name} ${obj.byteLength} 字节]`;
    if (obj instanceof ArrayBuffer) return `[ArrayBuffer ${obj.byteLength} 字节]`;
    if (obj instanceof Map) return clean(Object.fromEntries(obj), depth, seen);
    if (obj instanceof Set) return clean([...obj], depth, seen);
    if (Array.isArray(obj)) return obj.map((v) => clean(v, depth + 1, seen) ?? null);
    return ownFields(obj, depth, seen);
  } finally {
    seen.delete(obj);
  }
}

function ownFields(obj: object, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (CREDENTIAL_KEY.test(k)) {
      out[k] = v === undefined || v === null || v === '' ? v ?? null : REDACTED_KEY;
      continue;
    }
    const c = clean(v, depth + 1, seen);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

/** The scope an event's secrets belong to. */
function secretScope(e: Pick<TraceEvent, 'source' | 'contextId'>): string {
  return e.contextId ? `${e.source}\u0000${e.contextId}` : e.source;
}

/** true when `data` has a `secret` property at any depth. */
export function hasSecret(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false;
  if (Array.isArray(data)) return data.some(hasSecret);
  for (const [k, v] of Object.entries(data)) {
    if (k === 'secret') return true;
    if (hasSecret(v)) return true;
  }
  return false;
}

/** Copy of `data` with every `secret` property's value replaced by HIDDEN_SECRET. */
export function hideSecretFields(data: unknown): unknown {
  if (data === null || typeof data !== 'object') return data;
  if (Array.isArray(data)) return data.map(hideSecretFields);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = k === 'secret' ? HIDDEN_SECRET : hideSecretFields(v);
  return out;
}

/** Position of an event on the timeline: round order first, then time within the round. */
export interface Placed<E extends TraceEvent = TraceEvent> {
  roundIndex: number;
  event: E;
}

/**
 * Returns a predicate telling whether a secret-carrying event is revealed, given every event
 * placed in its round (rounds in chronological order).
 */
export function revealChecker(placed: Iterable<Placed>): (p: Placed) => boolean {
  // For each scope, the last reveal (latest round, latest time in that round).
  const last = new Map<string, { roundIndex: number; at: number }>();
  for (const { roundIndex, event } of placed) {
    if (!event.revealsSecret) continue;
    const scope = secretScope(event);
    const prev = last.get(scope);
    if (!prev || roundIndex > prev.roundIndex || (roundIndex === prev.roundIndex && event.at > prev.at))
      last.set(scope, { roundIndex, at: event.at });
  }
  return ({ roundIndex, event }) => {
    const r = last.get(secretScope(event));
    if (!r) return false;
    return r.roundIndex > roundIndex || (r.roundIndex === roundIndex && r.at >= event.at);
  };
}
