/**
 * The conformance kit's diagnosis: one firmware bug usually fails many checks (a robot that keeps
 * `seq` in 8 bits, one that takes every lower `seq` as a resend and so breaks at the 65535 → 1 wrap,
 * a slow Ack, a Done sent twice). This reads the whole wire log of a run, finds such first causes
 * by their evidence on the wire, and groups each failed check under the first cause that shows in
 * its traffic, so the report says the cause once instead of "no Ack" thirty times. Pure.
 */
import { decodeBlock, FrameType } from '../frame.ts';
import { TIMING } from '../messages.ts';
import type { RxBlock, WireLog } from './wire-log.ts';

export type CauseId = 'seq-8bit' | 'seq-wrap' | 'slow-ack' | 'double-done';

export interface Cause {
  id: CauseId;
  /** One line for the kit's page (Chinese). */
  title: string;
  /** What the wire shows, with the first evidence (English, like the rest of the text report). */
  detail: string;
  /** Failed checks it explains, in run order. */
  checks: string[];
}

/** A check's place in the log (WireLog positions: from inclusive, to exclusive). */
export interface CheckSpan {
  id: string;
  failed: boolean;
  final: boolean;
  from: number;
  to: number;
}

interface Sent {
  n: number;
  at: number;
  type: number;
  seq: number;
  key: string;
  /** Transmissions of these exact bytes so far, this one included. */
  tries: number;
}

/** Valid Requests and Pings the kit wrote, in order (broken frames are not requests). */
function sentFrames(log: WireLog): Sent[] {
  const out: Sent[] = [];
  const tries = new Map<string, number>();
  for (const c of log.tx) {
    let start = 0;
    for (let i = 0; i < c.bytes.length; i++) {
      if (c.bytes[i] !== 0) continue;
      const block = c.bytes.subarray(start, i);
      start = i + 1;
      if (!block.length) continue;
      const f = decodeBlock(block);
      if (typeof f === 'string' || (f.type !== FrameType.Request && f.type !== FrameType.Ping)) continue;
      const key = `${f.type}:${f.seq}:${Array.from(block).join(',')}`;
      const t = (tries.get(key) ?? 0) + 1;
      tries.set(key, t);
      out.push({ n: c.n, at: c.at, type: f.type, seq: f.seq, key, tries: t });
    }
  }
  return out;
}

const replyTypes = (s: Sent): number[] => (s.type === FrameType.Ping ? [FrameType.Pong] : [FrameType.Ack, FrameType.Done]);

interface Evidence {
  cause: CauseId;
  n: number;
  text: string;
}

export function findCauses(log: WireLog, spans: CheckSpan[]): Cause[] {
  const sent = sentFrames(log);
  const rx = log.rx.filter((b): b is RxBlock & { frame: NonNullable<RxBlock['frame']> } => !!b.frame);
  const after = (n: number) => rx.filter((b) => b.n > n);
  const evidence: Evidence[] = [];
  let highestAnswered = 0;
  for (const s of sent) {
    if (s.tries > 1) continue; // judged at its first transmission
    const types = replyTypes(s);
    const mine = after(s.n).filter((b) => types.includes(b.frame.type) && b.frame.seq === s.seq);
    const label = s.type === FrameType.Ping ? `Ping #${s.seq}` : `Request #${s.seq}`;
    // 8-bit seq: nothing under this seq, but an answer under its low byte.
    if (s.seq > 0xff && mine.length === 0) {
      const low = after(s.n).find((b) => types.includes(b.frame.type) && b.frame.seq === (s.seq & 0xff) && b.at - s.at <= TIMING.ackTimeout * 2);
      if (low) evidence.push({ cause: 'seq-8bit', n: s.n, text: `${label} was answered as #${low.frame.seq} (${low.frame.type === FrameType.Pong ? 'Pong' : low.frame.type === FrameType.Ack ? 'Ack' : 'Done'}): the robot keeps seq in 8 bits; seq is u16 little-endian, both bytes (§2.2)` });
    }
    if (s.type !== FrameType.Request) continue;
    const ack = mine.find((b) => b.frame.type === FrameType.Ack);
    // Never answered at all, although an earlier request with a higher seq was: the robot takes a lower seq for a resend.
    if (mine.length === 0 && highestAnswered > s.seq) {
      evidence.push({ cause: 'seq-wrap', n: s.n, text: `Request #${s.seq} (new bytes) got no answer at all after #${highestAnswered} was answered: the robot treats a seq not above the newest it saw as a resend, which breaks when seq wraps from 65535 to 1 (§3: a duplicate is the same seq AND the same bytes)` });
    }
    if (ack && ack.at - s.at > TIMING.ackTimeout) evidence.push({ cause: 'slow-ack', n: s.n, text: `the Ack of #${s.seq} came ${Math.round(ack.at - s.at)} ms after the request (the host waits ${TIMING.ackTimeout} ms, then sends again)` });
    const dones = mine.filter((b) => b.frame.type === FrameType.Done).length;
    const transmissions = sent.filter((x) => x.key === s.key).length;
    if (dones > transmissions) evidence.push({ cause: 'double-done', n: s.n, text: `#${s.seq} was sent ${transmissions === 1 ? 'once' : `${transmissions} times`} and got ${dones} Dones: the robot ran it twice or sent its Done twice (§3: one Done per request, re-sent only for a resend)` });
    if (mine.length > 0 && s.seq > highestAnswered) {
      highestAnswered = s.seq;
    }
  }
  for (const s of sent) {
    if (s.type !== FrameType.Ping || s.tries > 1) continue;
    const pong = after(s.n).find((b) => b.frame.type === FrameType.Pong && b.frame.seq === s.seq);
    if (pong && pong.at - s.at > TIMING.ackTimeout) evidence.push({ cause: 'slow-ack', n: s.n, text: `the Pong for Ping #${s.seq} came ${Math.round(pong.at - s.at)} ms after it` });
  }
  evidence.sort((a, b) => a.n - b.n);
  const first = new Map<CauseId, Evidence>();
  for (const e of evidence) if (!first.has(e.cause)) first.set(e.cause, e);
  const order = [...first.keys()];
  const causes = new Map<CauseId, Cause>(order.map((id) => [id, { id, title: TITLES[id], detail: detailOf(id, evidence), checks: [] }]));
  for (const span of spans) {
    if (!span.failed) continue;
    let id: CauseId | undefined;
    if (span.final) id = FINAL[span.id]?.find((c) => causes.has(c));
    else id = order.find((c) => evidence.some((e) => e.cause === c && e.n >= span.from && e.n < span.to));
    if (id) causes.get(id)!.checks.push(span.id);
  }
  return [...causes.values()].filter((c) => c.checks.length > 0);
}

/** Checks that judge the whole run are grouped by what they measure, not by where their traffic is. */
const FINAL: Record<string, CauseId[]> = {
  'acks.latency': ['slow-ack'],
  'order.ack-first': ['double-done'],
};

const TITLES: Record<CauseId, string> = {
  'seq-8bit': 'seq 只用了 8 位：256 被当成 0',
  'seq-wrap': '把更小的 seq 当成重发：seq 从 65535 回到 1 以后就不再回答',
  'slow-ack': 'Ack 太慢：超过 300 毫秒',
  'double-done': '一个请求回了两个 Done：命令做了两次，或者 Done 发了两遍',
};

function detailOf(id: CauseId, evidence: Evidence[]): string {
  const mine = evidence.filter((e) => e.cause === id);
  const extra = mine.length > 1 ? ` (${mine.length} times in this run)` : '';
  if (id === 'slow-ack') {
    const ms = mine.map((e) => Number(/came (\d+) ms/.exec(e.text)?.[1] ?? 0));
    return `${mine[0].text}; slowest ${Math.max(...ms)} ms${extra}. Every check that waits 300 ms for an Ack fails because of it.`;
  }
  return `${mine[0].text}${extra}.`;
}
