/**
 * What every conformance check is made of (./suite.ts): the check's shape and its context, the
 * verdict it throws, and the exchanges it is judged by — accepted, done, refused, ignored, settled —
 * and the spoiled and valid bytes it sends. Pure: all I/O and time through the probe.
 */
import { cobsDecode, cobsEncode } from '../cobs.ts';
import { crc16 } from '../crc.ts';
import type { Capability } from '../../protocol/declaration.ts';
import { capabilitiesFromHello } from '../capabilities.ts';
import { decodeBlock, encodeJsonFrame, FRAME_OVERHEAD, FrameType } from '../frame.ts';
import { type Hello, LIMITS, TIMING } from '../messages.ts';
import { Probe, type Sent, utf8 } from './probe.ts';
import type { RxBlock } from './wire-log.ts';

/** A check's verdict: thrown to fail it. */
export class CheckFailure extends Error {
  constructor(
    readonly expected: string,
    readonly got: string,
  ) {
    super(`expected ${expected}, got ${got}`);
  }
}

export interface CheckContext {
  probe: Probe;
  /** The hello from the first check (null when none came). */
  hello: Hello | null;
  setHello(h: Hello): void;
}

export interface Check {
  id: string;
  section: string;
  title: string;
  /** Why this check cannot run on this device (from its hello), or null. */
  skip?(ctx: CheckContext): string | null;
  /** Throws CheckFailure; may return a remark for the report. */
  run(ctx: CheckContext): Promise<string | void>;
  /** Checks that judge the whole run (after every other check). */
  final?: boolean;
}

export const ACK_MS = TIMING.ackTimeout;
/** How long "no answer" is waited for before a frame counts as ignored. */
export const SILENCE_MS = 400;
export const DONE_MARGIN = TIMING.doneMargin;

export const fail = (expected: string, got: string): never => {
  throw new CheckFailure(expected, got);
};

export const json = (v: unknown) => JSON.stringify(v);
export const bodyText = (b: RxBlock | undefined) => (b ? (b.body ? json(b.body) : b.frame ? `#${b.frame.seq} (not JSON)` : 'unreadable') : 'nothing');

// ---- request helpers ------------------------------------------------------------------------------

export interface Acked {
  sent: Sent;
  ack: RxBlock;
  /** The Ack's `ms`. */
  ms: number;
}

/** Sends a request and requires an accepting Ack within 300 ms. */
export async function accepted(ctx: CheckContext, method: string, params: unknown = {}): Promise<Acked> {
  const sent = await ctx.probe.request(method, params);
  return acceptedOf(ctx, sent);
}

export async function acceptedOf(ctx: CheckContext, sent: Sent): Promise<Acked> {
  const { probe } = ctx;
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  if (!ack) {
    const done = probe.replies(sent.seq, FrameType.Done, sent.rxFrom)[0];
    const low = sent.seq > 0xff ? probe.replies(sent.seq & 0xff, FrameType.Ack, sent.rxFrom)[0] : undefined;
    fail(
      `an Ack for #${sent.seq} ${sent.method} within ${ACK_MS} ms (§3)`,
      done ? `a Done without an Ack first: ${bodyText(done)} (the Ack must come first, §3)` : low ? `an Ack #${sent.seq & 0xff}: only the low byte of the seq (§2.2: seq is u16 LE)` : 'no Ack',
    );
  }
  const a = ack!;
  const err = a.body?.error as { code?: unknown } | undefined;
  if (err !== undefined) fail(`#${sent.seq} ${sent.method} ${json(paramsOf(sent))} accepted`, `a NAK ${bodyText(a)}`);
  const ms = a.body?.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) fail(`the Ack of #${sent.seq} to be {"ms": N ≥ 0} (§2.5)`, bodyText(a));
  return { sent, ack: a, ms: ms as number };
}

/** Waits for the Done of an accepted request: ok, after its Ack, within ms + 2000. Returns when it came (ms after the Ack). */
export async function doneOk(ctx: CheckContext, a: Acked, expectOk = true): Promise<RxBlock> {
  const { probe } = ctx;
  const done = await probe.first(a.sent, FrameType.Done, a.ms + DONE_MARGIN + (a.ack.at - probe.now()));
  if (!done) fail(`a Done for #${a.sent.seq} ${a.sent.method} within its Ack's ms (${a.ms}) + ${DONE_MARGIN} ms (§3)`, 'no Done');
  const d = done!;
  if (probe.log.rx.indexOf(d) < probe.log.rx.indexOf(a.ack)) fail(`the Ack of #${a.sent.seq} before its Done (§3)`, 'the Done came first');
  if (expectOk && d.body?.ok !== true) fail(`Done {"ok":true} for #${a.sent.seq} ${a.sent.method}`, bodyText(d));
  return d;
}

/** Accepted, then done ok. */
export async function completes(ctx: CheckContext, method: string, params: unknown = {}): Promise<Acked & { done: RxBlock }> {
  const a = await accepted(ctx, method, params);
  const done = await doneOk(ctx, a);
  return { ...a, done };
}

/** Sends a request and requires a NAK with `code` within 300 ms, and no Done after it. */
export async function refused(ctx: CheckContext, method: string, params: unknown, code: string): Promise<void> {
  const { probe } = ctx;
  const sent = await probe.request(method, params);
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  const err = ack?.body?.error as { code?: unknown } | undefined;
  if (!ack || err?.code !== code) fail(`a NAK {"error":{"code":"${code}"}} for ${method} ${json(params)} (§7, §8)`, ack ? bodyText(ack) : 'no Ack at all');
  if (typeof err!.code !== 'string') fail('the NAK code to be a string', bodyText(ack));
}

/** Requires that nothing answers request `sent` for `ms`. */
export async function ignored(ctx: CheckContext, sent: Sent, what: string, ms = SILENCE_MS): Promise<void> {
  const { probe } = ctx;
  const reply = await probe.until(() => probe.log.rx.slice(sent.rxFrom).find((b) => b.frame && (b.frame.type === FrameType.Ack || b.frame.type === FrameType.Done) && b.frame.seq === sent.seq), ms);
  if (reply) fail(`${what} to be discarded silently (§2.4)`, `an answer: ${bodyText(reply)}`);
}

export function paramsOf(s: Sent): unknown {
  try {
    const raw = cobsDecode(s.bytes.subarray(0, -1));
    return raw ? (JSON.parse(new TextDecoder().decode(raw.subarray(4, -2))) as { params?: unknown }).params : undefined;
  } catch {
    return undefined;
  }
}

/** Brings the robot back to rest (sys.idle) and lets stray frames arrive, so one check does not see another's replies. */
export async function settle(ctx: CheckContext): Promise<void> {
  const { probe } = ctx;
  const sent = await probe.request('sys.idle', {});
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  const ms = typeof ack?.body?.ms === 'number' ? ack.body.ms : 300;
  if (ack) await probe.first(sent, FrameType.Done, ms + DONE_MARGIN);
  await probe.quiet(60);
}

// ---- what the hello allows ------------------------------------------------------------------------

export const hasHead = (h: Hello | null, g: 'nod' | 'shake' = 'nod') => !!h?.gestures?.includes(g);
export const can = (h: Hello | null, c: Capability) => !!h && capabilitiesFromHello(h).has(c);
export const hasScreen = (h: Hello | null) => can(h, 'screen');
export const hasFace = (h: Hello | null) => can(h, 'face');
export const hasDraw = (h: Hello | null) => can(h, 'draw');
export const maxPoints = (h: Hello | null) => Math.min(LIMITS.maxPointsPerStroke, Math.max(1, Math.floor(h?.draw?.maxPoints ?? LIMITS.maxPointsPerStroke)));
export const needs = (ok: (h: Hello | null) => boolean, what: string) => (ctx: CheckContext) => (!ctx.hello ? '没有 hello' : ok(ctx.hello) ? null : `hello 里没有${what}`);

/** A deterministic byte source for garbage (no 0x00). */
export function noise(n: number, seed: number): Uint8Array {
  let x = seed >>> 0 || 1;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 255) + 1;
  });
}

/** Wire bytes of a Request with its CRC (or version, or type) spoiled; everything else valid. */
export function spoiled(method: string, seq: number, how: 'crc' | 'version' | 'type'): Uint8Array {
  const body = utf8(json({ method, params: {} }));
  const raw = new Uint8Array(body.length + FRAME_OVERHEAD);
  raw[0] = how === 'version' ? 2 : 1;
  raw[1] = how === 'type' ? 0x09 : FrameType.Request;
  raw[2] = seq & 0xff;
  raw[3] = seq >> 8;
  raw.set(body, 4);
  const crc = crc16(raw, 0, raw.length - 2) ^ (how === 'crc' ? 0x5a5a : 0);
  raw[raw.length - 2] = crc & 0xff;
  raw[raw.length - 1] = crc >> 8;
  return Uint8Array.from([...cobsEncode(raw), 0]);
}

/** The wire bytes of a valid Request. */
export const requestWire = (method: string, seq: number, params: unknown = {}) => encodeJsonFrame(FrameType.Request, seq, { method, params });

export function describeBefore(b: RxBlock): string {
  return b.frame ? `a frame (${bodyText(b)})` : b.problem ? `an unreadable block (${b.problem})` : 'an empty block';
}

/** A long stroke of `n` points inside the screen. */
export function longStroke(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [(i * 7) % 240, (i * 13) % 240]);
}

/** A command that takes a while (a long nod, or a long animated stroke), accepted. */
export async function startLong(ctx: CheckContext): Promise<Acked> {
  if (hasHead(ctx.hello)) return accepted(ctx, 'head.gesture', { name: 'nod', times: 2, period: 600 });
  await completes(ctx, 'draw.begin', { id: 'kit-dup' });
  return accepted(ctx, 'draw.stroke', { id: 'kit-dup', pts: longStroke(maxPoints(ctx.hello)) });
}

/** After a retransmission of `a`: its Ack again, and exactly one Done in all. */
export async function onlyOnce(ctx: CheckContext, a: Acked, what: string): Promise<void> {
  const { probe } = ctx;
  await doneOk(ctx, a);
  await probe.quiet(Math.max(a.ms, 600) + 400);
  const dones = probe.replies(a.sent.seq, FrameType.Done, a.sent.rxFrom);
  if (dones.length !== 1) fail(`exactly one Done for #${a.sent.seq} (the command runs once; ${what} is a duplicate, §3)`, `${dones.length} Dones: it ran ${dones.length} times, or sent its Done more than once`);
  const acks = probe.replies(a.sent.seq, FrameType.Ack, a.sent.rxFrom);
  if (acks.length < 2) fail(`its Ack sent again for ${what}`, `${acks.length} Ack(s)`);
}

/**
 * The first Done (in the whole run) that came without an Ack of its own: walking everything sent
 * and received in order, a request's Dones may never outnumber its Acks (a retransmission is
 * answered with both again; a new request under an old seq starts over).
 */
export function doneBeforeAck(probe: Probe): { block: RxBlock; second: boolean } | undefined {
  const { tx, rx } = probe.log;
  type Entry = { n: number; sent?: Uint8Array; block?: RxBlock };
  const entries: Entry[] = [...tx.map((c) => ({ n: c.n, sent: c.bytes })), ...rx.map((b) => ({ n: b.n, block: b }))].sort((a, b) => a.n - b.n);
  const count = new Map<number, { bytes: string; acks: number; dones: number }>();
  for (const e of entries) {
    if (e.sent) {
      for (const { seq, bytes } of requestsIn(e.sent)) {
        if (count.get(seq)?.bytes !== bytes) count.set(seq, { bytes, acks: 0, dones: 0 });
      }
      continue;
    }
    const f = e.block!.frame;
    if (!f || (f.type !== FrameType.Ack && f.type !== FrameType.Done)) continue;
    const c = count.get(f.seq);
    if (!c) continue; // not one of the kit's requests
    if (f.type === FrameType.Ack) c.acks++;
    else if (c.dones >= c.acks) return { block: e.block!, second: c.dones > 0 };
    else c.dones++;
  }
  return undefined;
}

/** The valid Requests in a written chunk: seq and the frame's bytes (a broken frame is no request). */
export function requestsIn(wire: Uint8Array): Array<{ seq: number; bytes: string }> {
  const out: Array<{ seq: number; bytes: string }> = [];
  let start = 0;
  for (let i = 0; i < wire.length; i++) {
    if (wire[i] !== 0) continue;
    const block = wire.subarray(start, i);
    const f = block.length ? decodeBlock(block) : 'short';
    if (typeof f !== 'string' && f.type === FrameType.Request) out.push({ seq: f.seq, bytes: Array.from(block).join(',') });
    start = i + 1;
  }
  return out;
}

/** The slowest first Ack after a Request was first sent (retransmissions, and waits across a stall of the kit itself, excluded). */
export function slowestAck(probe: Probe): { slowest: number; seq: number; skipped: number } {
  const { tx, rx } = probe.log;
  let slowest = 0;
  let seq = 0;
  let skipped = 0;
  const seen = new Set<string>();
  for (const c of tx) {
    for (const { seq: s, bytes } of requestsIn(c.bytes)) {
      const key = `${s}:${bytes}`;
      if (seen.has(key)) continue; // a retransmission
      seen.add(key);
      const ack = rx.find((b) => b.frame?.type === FrameType.Ack && b.frame.seq === s && b.n > c.n);
      if (!ack) continue;
      if (probe.stalledBetween(c.at, ack.at)) {
        skipped++;
        continue;
      }
      const ms = ack.at - c.at;
      if (ms > slowest) {
        slowest = ms;
        seq = s;
      }
    }
  }
  return { slowest, seq, skipped };
}

// ---- running ------------------------------------------------------------------------------------
