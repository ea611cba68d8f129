/**
 * The trace export: a chosen range of rounds as one JSON document (a download on the trace
 * screen). Secrets follow the view (hidden unless shown), API keys are never in the store.
 */
import { viewRounds, type TraceRound } from './rounds.ts';
import type { TraceKind } from './types.ts';

export const TRACE_EXPORT_FORMAT = 'agentcade-trace' as const;
const TRACE_EXPORT_VERSION = 1 as const;

interface ExportedEvent {
  kind: TraceKind;
  /** Epoch ms. */
  at: number;
  source: string;
  name?: string;
  requestId?: string;
  contextId?: string;
  durationMs?: number;
  revealsSecret?: boolean;
  secretHidden?: boolean;
  data?: unknown;
}

interface ExportedRound {
  id: string;
  /** 1-based position among the rounds in the store at export time. */
  index: number;
  startedAt: string;
  durationMs: number;
  text: string;
  events: ExportedEvent[];
}

interface TraceExport {
  format: typeof TRACE_EXPORT_FORMAT;
  version: typeof TRACE_EXPORT_VERSION;
  exportedAt: string;
  /** Rounds `from`..`to` (1-based, inclusive) of `total`. */
  range: { from: number; to: number; total: number };
  secretsShown: boolean;
  rounds: ExportedRound[];
}

/**
 * Builds the export of rounds `from`..`to` (1-based, inclusive, clamped). Secrets are judged
 * over all rounds (a reveal after the range still counts: the range is exported after it).
 */
export function exportTrace(
  rounds: readonly TraceRound[],
  opts: { from?: number; to?: number; showSecrets?: boolean; now: number },
): TraceExport {
  const total = rounds.length;
  const from = Math.max(1, Math.min(opts.from ?? 1, total));
  const to = Math.max(from, Math.min(opts.to ?? total, total));
  const view = viewRounds(rounds, { showSecrets: opts.showSecrets });
  const chosen = total === 0 ? [] : view.slice(from - 1, to);
  return {
    format: TRACE_EXPORT_FORMAT,
    version: TRACE_EXPORT_VERSION,
    exportedAt: new Date(opts.now).toISOString(),
    range: { from: total === 0 ? 0 : from, to: total === 0 ? 0 : to, total },
    secretsShown: !!opts.showSecrets,
    rounds: chosen.map((r, i) => ({
      id: r.id,
      index: from + i,
      startedAt: new Date(r.startedAt).toISOString(),
      durationMs: r.endedAt - r.startedAt,
      text: r.text,
      events: r.events.map((e) => {
        const out: ExportedEvent = { kind: e.kind, at: e.at, source: e.source };
        if (e.name !== undefined) out.name = e.name;
        if (e.requestId !== undefined) out.requestId = e.requestId;
        if (e.contextId !== undefined) out.contextId = e.contextId;
        if (e.durationMs !== undefined) out.durationMs = e.durationMs;
        if (e.revealsSecret) out.revealsSecret = true;
        if (e.secretHidden) out.secretHidden = true;
        if (e.data !== undefined) out.data = e.data;
        return out;
      }),
    })),
  };
}

/** e.g. agentcade-trace-20250101-0930.json (local time). */
export function exportFileName(now: number): string {
  const d = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  return `agentcade-trace-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}.json`;
}
