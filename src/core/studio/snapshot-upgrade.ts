/**
 * Snapshots saved before the Studio's sub-agents were called helpers (they were "workers", a word
 * that also means a Web Worker) read as today's: the phase state's running helper, the waiting
 * reasons, the pending helper's conversation, the board's provenance and the transcript's speakers.
 * The manager's own conversation is kept exactly as it was said. Pure.
 */
import type { SessionSnapshot } from './types.ts';

const KEYS: Record<string, string> = { worker: 'helper', workerId: 'helperId', pendingWorker: 'pendingHelper' };
const VALUES: Record<string, string> = { worker: 'helper', worker_question: 'helper_question', worker_failed: 'helper_failed' };
/** Fields whose string value names a speaker, an actor or a waiting reason. */
const NAMED = new Set(['who', 'by', 'kind']);

function renamed(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => renamed(x));
  if (typeof v === 'string') return NAMED.has(key) ? (VALUES[v] ?? v) : v;
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [KEYS[k] ?? k, renamed(x, k)]));
}

export function upgradeSnapshot(snapshot: SessionSnapshot): SessionSnapshot {
  const old = snapshot as unknown as Record<string, unknown>;
  if (!('pendingWorker' in old)) return snapshot;
  const { manager, ...rest } = old;
  return { ...(renamed(rest) as Omit<SessionSnapshot, 'manager'>), manager: manager as SessionSnapshot['manager'] };
}
