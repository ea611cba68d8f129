/**
 * The conformance kit's report: one result per check, and for a failed check what was expected,
 * what came instead, and the exact bytes that went each way while it ran. Rendered as plain text
 * for the exported file (and shown by the kit's page). Pure.
 */
import type { Cause, CauseId } from './causes.ts';
import { describeBlock, hex, type WireLog } from './wire-log.ts';

export type CheckStatus = 'pass' | 'fail' | 'skip';

interface TrafficLine {
  /** ms since the check started. */
  t: number;
  dir: 'tx' | 'rx';
  hex: string;
  /** What the bytes are (decoded), or what is wrong with them. */
  what: string;
}

export interface CheckResult {
  id: string;
  /** The section of docs/robot-protocol.md it checks, e.g. "§3". */
  section: string;
  title: string;
  status: CheckStatus;
  /** How long it ran (ms). */
  ms: number;
  /** Passed with a remark, or why it was skipped. */
  note?: string;
  /** The first cause (report.causes) this failure is a consequence of. */
  cause?: CauseId;
  failure?: {
    expected: string;
    got: string;
    /** Every frame sent and received while the check ran (capped; long runs keep their start and end). */
    traffic: TrafficLine[];
    /** Lines left out of `traffic` in the middle. */
    omitted: number;
  };
}

export interface ConformanceReport {
  /** Protocol version checked. */
  proto: number;
  /** Epoch ms. */
  startedAt: number;
  finishedAt: number;
  /** What the device said about itself (its hello), when it said anything. */
  device: { model?: string; fw?: string; serial?: string } | null;
  hello: Record<string, unknown> | null;
  results: CheckResult[];
  summary: Record<CheckStatus, number>;
  /** Bytes exchanged in the whole run. */
  bytes: { tx: number; rx: number };
  /** First causes found on the wire, each with the failed checks it explains (failures grouped). */
  causes?: Cause[];
  /** What this run could not check (stated in every report). */
  limits?: string[];
}

const KEEP_HEAD = 40;
const KEEP_TAIL = 20;

/**
 * The traffic of one check: every entry logged since `start` (a log position, `WireLog.size`, and
 * the time then), in the order the log recorded them; `t` is ms since `start.at`.
 */
export function trafficOf(log: WireLog, start: { n: number; at: number }): { traffic: TrafficLine[]; omitted: number } {
  const lines = [
    ...log.tx.filter((c) => c.n >= start.n).map((c) => ({ n: c.n, line: { t: c.at - start.at, dir: 'tx', hex: hex(c.bytes), what: c.note } satisfies TrafficLine })),
    ...log.rx.filter((b) => b.n >= start.n).map((b) => ({ n: b.n, line: { t: b.at - start.at, dir: 'rx', hex: hex(b.bytes), what: describeBlock(b) } satisfies TrafficLine })),
  ]
    .sort((a, b) => a.n - b.n)
    .map((e) => e.line);
  if (lines.length <= KEEP_HEAD + KEEP_TAIL) return { traffic: lines, omitted: 0 };
  return { traffic: [...lines.slice(0, KEEP_HEAD), ...lines.slice(-KEEP_TAIL)], omitted: lines.length - KEEP_HEAD - KEEP_TAIL };
}

const MARK: Record<CheckStatus, string> = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' };

function stamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** The report as a text file a firmware author can read, diff and attach to a bug report. */
export function reportText(r: ConformanceReport): string {
  const out: string[] = [];
  out.push('Agentcade robot protocol conformance report');
  out.push(`protocol: v${r.proto} (docs/robot-protocol.md)`);
  out.push(`run: ${stamp(r.startedAt)} … ${stamp(r.finishedAt)}`);
  out.push(r.device ? `device: ${r.device.model ?? '?'} fw ${r.device.fw ?? '?'} serial ${r.device.serial ?? '?'}` : 'device: no hello received');
  out.push(`result: ${r.summary.fail === 0 ? 'PASS' : 'FAIL'} — ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skip} skipped`);
  out.push(`bytes: ${r.bytes.tx} sent, ${r.bytes.rx} received`);
  if (r.hello) out.push(`hello: ${JSON.stringify(r.hello)}`);
  for (const l of r.limits ?? []) out.push(`limit: ${l}`);
  const causes = r.causes ?? [];
  if (causes.length) {
    out.push('');
    out.push('causes (each failed check is listed under the first cause its traffic shows):');
    for (const c of causes) {
      out.push(`  * ${c.id}: ${c.title}`);
      out.push(`    ${c.detail}`);
      out.push(`    consequences: ${c.checks.join(', ')}`);
    }
  }
  out.push('');
  // Failures first (in run order), then passes, then skips.
  const rank: Record<CheckStatus, number> = { fail: 0, pass: 1, skip: 2 };
  const ordered = r.results.map((c, i) => ({ c, i })).sort((a, b) => rank[a.c.status] - rank[b.c.status] || a.i - b.i);
  for (const { c } of ordered) {
    out.push(`[${MARK[c.status]}] ${c.id} (${c.section}) ${c.title}${c.note ? ` — ${c.note}` : ''}`);
    if (!c.failure) continue;
    if (c.cause) out.push(`    cause:    ${c.cause} (see causes above)`);
    out.push(`    expected: ${c.failure.expected}`);
    out.push(`    got:      ${c.failure.got}`);
    out.push('    traffic (ms since the check started, tx = to the robot, rx = from it; wire bytes incl. the 00 delimiter):');
    c.failure.traffic.forEach((l, i) => {
      if (c.failure!.omitted && i === KEEP_HEAD) out.push(`      … ${c.failure!.omitted} lines left out …`);
      out.push(`      ${String(l.t).padStart(6)} ${l.dir}  ${l.what}`);
      out.push(`             ${l.hex}`);
    });
  }
  return out.join('\n') + '\n';
}

export function reportFileName(r: ConformanceReport, ext: 'txt' | 'json'): string {
  const serial = (r.device?.serial ?? 'unknown').replace(/[^A-Za-z0-9_-]/g, '_');
  const when = stamp(r.startedAt).replace(/[:.]/g, '-');
  return `agentcade-robot-conformance-${serial}-${when}.${ext}`;
}
