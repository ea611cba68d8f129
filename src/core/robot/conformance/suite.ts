/**
 * The conformance suite for robot firmware (docs/robot-protocol.md v1): scripted checks that talk
 * to any device through a `ProbeIO` byte stream — a real robot over Web Serial or WebUSB in the
 * app's kit page, the firmware simulator and an independent device fake in `npm test`. Each check
 * sends exact bytes and judges what comes back; a failure says what was expected, what came, and
 * keeps the bytes. Checks adapt to what the hello announces (no head: no gesture checks) and
 * never to one implementation's timings beyond the protocol's own limits.
 * Pure: all I/O and time through the probe.
 */
import { PROTOCOL_VERSION } from '../messages.ts';
import { Probe, type ProbeIO } from './probe.ts';
import { type CheckResult, type CheckStatus, type ConformanceReport, trafficOf } from './report.ts';
import { type CheckSpan, findCauses } from './causes.ts';
import type { WireLog } from './wire-log.ts';
import { type Check, type CheckContext, CheckFailure, requestsIn, settle } from './check-kit.ts';
import { REQUEST_CHECKS } from './checks-requests.ts';
import { WIRE_CHECKS } from './checks-wire.ts';

export const CHECKS: Check[] = [...REQUEST_CHECKS, ...WIRE_CHECKS];

export interface RunOptions {
  /** Called after each check (for a live list). */
  onResult?(r: CheckResult, index: number, total: number): void;
  /** Run only these check ids (and the hello). */
  only?: string[];
}

/** Runs every check against the device behind `io`, in order, and returns the report. */
export async function runConformance(io: ProbeIO, opts: RunOptions = {}): Promise<ConformanceReport> {
  const probe = new Probe(io);
  const startedAt = io.now();
  const ctx: CheckContext = {
    probe,
    hello: null,
    setHello(h) {
      this.hello = h;
    },
  };
  const checks = CHECKS.filter((c) => !opts.only || c.id === 'hello.answer' || opts.only.includes(c.id));
  const results: CheckResult[] = [];
  const ordered = [...checks.filter((c) => !c.final), ...checks.filter((c) => c.final)];
  const spans: CheckSpan[] = [];
  for (const [i, check] of ordered.entries()) {
    const from = probe.log.size;
    const r = await runOne(ctx, check);
    results.push(r);
    spans.push({ id: check.id, failed: r.status === 'fail', final: !!check.final, from: check.final ? 0 : from, to: probe.log.size });
    opts.onResult?.(r, i, ordered.length);
  }
  const causes = findCauses(probe.log, spans);
  for (const c of causes) for (const id of c.checks) results.find((r) => r.id === id)!.cause = c.id;
  const summary: Record<CheckStatus, number> = { pass: 0, fail: 0, skip: 0 };
  for (const r of results) summary[r.status]++;
  const h = ctx.hello;
  return {
    proto: PROTOCOL_VERSION,
    startedAt,
    finishedAt: io.now(),
    device: h ? { model: h.model, fw: h.fw, serial: h.serial } : null,
    hello: h ? (h as unknown as Record<string, unknown>) : null,
    results,
    summary,
    bytes: { tx: probe.log.tx.reduce((n, c) => n + c.bytes.length, 0), rx: probe.log.rxBytes },
    causes,
    limits: runLimits(probe.log),
  };
}

/** What no run of the kit can show, and how far this run went (docs/robot-protocol.md §13). */
function runLimits(log: WireLog): string[] {
  const seqs = new Set<number>();
  for (const c of log.tx) for (const r of requestsIn(c.bytes)) seqs.add(r.seq);
  const low = [...seqs].filter((s) => s < 256);
  const top = low.length ? Math.max(...low) : 0;
  return [
    'no screen readback: the kit sees only the bytes, not the screen; a robot that acks and sends Dones but draws nothing passes. Watch the robot during the draw and screen checks.',
    `seq wrap tested only as far as this run goes: requests #1…#${top}, plus #256 and #65535 once each; a robot that mishandles the wrap after 65535 requests of real use is caught only by the seq-wrap diagnosis if it shows here.`,
    'timings are measured on this tablet or computer; a check held up by the kit itself is run again once.',
  ];
}

const RETRIED = '重测过一次（第一次检测时平板自己卡了一下）';

async function runOne(ctx: CheckContext, check: Check, retried = false): Promise<CheckResult> {
  const { probe } = ctx;
  const base = { id: check.id, section: check.section, title: check.title };
  const skip = check.skip?.(ctx) ?? null;
  if (skip) return { ...base, status: 'skip', ms: 0, note: skip };
  const t0 = probe.now();
  const n0 = probe.log.size;
  try {
    const said = await check.run(ctx);
    const note = [said, retried ? RETRIED : ''].filter(Boolean).join('；');
    const r: CheckResult = { ...base, status: 'pass', ms: probe.now() - t0, ...(note ? { note } : {}) };
    if (!check.final && check.id !== 'hello.answer') await settle(ctx);
    return r;
  } catch (e) {
    const t1 = probe.now();
    // Every check waits on the clock somewhere: when the kit itself was held up (a busy tab), its
    // verdict says nothing about the robot, so it runs once more.
    if (!check.final && !retried && probe.stalledBetween(t0, t1)) {
      await settle(ctx);
      return runOne(ctx, check, true);
    }
    const { traffic, omitted } = trafficOf(probe.log, { n: n0, at: t0 });
    const failure = e instanceof CheckFailure ? { expected: e.expected, got: e.got } : { expected: 'the check to run', got: `an error in the kit: ${String(e)}` };
    if (!check.final && ctx.hello) await settle(ctx);
    return { ...base, status: 'fail', ms: t1 - t0, ...(retried ? { note: RETRIED } : {}), failure: { ...failure, traffic, omitted } };
  }
}
