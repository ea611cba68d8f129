/**
 * Trace settings shared by the trace store, the trace view and the A2A transport (which keeps
 * the last `completedTasksToKeep` completed tasks; seed 000 §Trace: 64 by default).
 * Persisted in localStorage on the main thread; a worker receives the numbers from it.
 */
import { writable, type Readable } from 'svelte/store';

interface TraceSettings {
  /** Completed A2A tasks each game agent's task store keeps. */
  completedTasksToKeep: number;
  /** Trace size bound in MB; the oldest rounds are pruned past it. */
  traceMaxMB: number;
  /** Rounds older than this many days are deleted by themselves. */
  keepDays: number;
}

export const DEFAULT_TRACE_SETTINGS: Readonly<TraceSettings> = Object.freeze({ completedTasksToKeep: 64, traceMaxMB: 16, keepDays: 14 });

export const TRACE_SETTINGS_LIMITS = {
  completedTasksToKeep: { min: 1, max: 1000 },
  traceMaxMB: { min: 1, max: 512 },
  keepDays: { min: 1, max: 365 },
} as const;

const KEY = 'agentcade.settings.trace';

function clampInt(v: unknown, { min, max }: { min: number; max: number }, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.round(n)));
}

/** Any stored or typed value made valid (bad fields fall back to defaults, nothing throws). */
export function normalizeTraceSettings(v: unknown): TraceSettings {
  const o = (v && typeof v === 'object' ? v : {}) as Partial<Record<keyof TraceSettings, unknown>>;
  return {
    completedTasksToKeep: clampInt(o.completedTasksToKeep, TRACE_SETTINGS_LIMITS.completedTasksToKeep, DEFAULT_TRACE_SETTINGS.completedTasksToKeep),
    traceMaxMB: clampInt(o.traceMaxMB, TRACE_SETTINGS_LIMITS.traceMaxMB, DEFAULT_TRACE_SETTINGS.traceMaxMB),
    keepDays: clampInt(o.keepDays, TRACE_SETTINGS_LIMITS.keepDays, DEFAULT_TRACE_SETTINGS.keepDays),
  };
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // e.g. storage disabled
  }
}

function load(): TraceSettings {
  try {
    const raw = storage()?.getItem(KEY);
    return normalizeTraceSettings(raw ? JSON.parse(raw) : {});
  } catch {
    return { ...DEFAULT_TRACE_SETTINGS };
  }
}

const store = writable<TraceSettings>(load());
let current: TraceSettings = { ...DEFAULT_TRACE_SETTINGS };
store.subscribe((v) => (current = v));

export const traceSettings: Readable<TraceSettings> & {
  get(): TraceSettings;
  /** Validates, saves and publishes; returns what was stored. */
  update(patch: Partial<TraceSettings>): TraceSettings;
  /** Re-reads storage (another tab may have changed it). */
  reload(): TraceSettings;
} = {
  subscribe: store.subscribe,
  get: () => current,
  update(patch) {
    const next = normalizeTraceSettings({ ...current, ...patch });
    try {
      storage()?.setItem(KEY, JSON.stringify(next));
    } catch {
      // Quota or disabled storage: the setting still applies to this session.
    }
    store.set(next);
    return next;
  },
  reload() {
    const next = load();
    store.set(next);
    return next;
  },
};

/** For the A2A transport's bounded task store. */
export function completedTasksToKeep(): number {
  return current.completedTasksToKeep;
}

/** For the trace store's size bound. */
export function traceMaxBytes(): number {
  return current.traceMaxMB * 1024 * 1024;
}

/** Rounds that started before this time are deleted (the age bound). */
export function traceKeepSince(now: number): number {
  return now - current.keepDays * 24 * 3600_000;
}
