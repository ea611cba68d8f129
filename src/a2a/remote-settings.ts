/**
 * How long the arcade waits for a remote game that has gone quiet in the middle of a turn before it
 * tells the child the game is stuck (`game_timeout`). A home server running a big model may need
 * longer than a game on the internet; the grown-up sets it on the remote games screen. Persisted in
 * localStorage; read at every request.
 */
export const REMOTE_WAIT_SECONDS = { min: 3, max: 180, default: 30 } as const;

const KEY = 'agentcade.settings.remote-wait-seconds';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function clampWaitSeconds(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  if (!Number.isFinite(n)) return REMOTE_WAIT_SECONDS.default;
  return Math.min(REMOTE_WAIT_SECONDS.max, Math.max(REMOTE_WAIT_SECONDS.min, Math.round(n)));
}

export function remoteWaitSeconds(): number {
  return clampWaitSeconds(storage()?.getItem(KEY) ?? undefined);
}

export function setRemoteWaitSeconds(seconds: number): number {
  const s = clampWaitSeconds(seconds);
  storage()?.setItem(KEY, String(s));
  return s;
}
