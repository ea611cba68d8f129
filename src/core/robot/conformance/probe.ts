/**
 * The conformance kit's side of the wire: a deliberately simple host that sends exactly the bytes
 * a check asks for (valid requests, duplicates, broken frames) and waits for what comes back. It
 * has none of the app's link logic (no retries, no window), so what a check sees is what the
 * robot did. Pure: I/O and time come in through `ProbeIO`.
 */
import { encodeFrame, encodeJsonFrame, FrameType, nextSeq } from '../frame.ts';
import type { RxBlock, WireLog } from './wire-log.ts';

export interface ProbeIO {
  /** The I/O side records every received chunk here; the probe records what it sends. */
  readonly log: WireLog;
  now(): number;
  write(bytes: Uint8Array): Promise<void>;
  /** Resolves after `ms`, or earlier when bytes arrive. */
  waitRx(ms: number): Promise<void>;
}

/** A request the probe sent. */
export interface Sent {
  seq: number;
  method: string;
  bytes: Uint8Array;
  at: number;
  /** How many blocks had been received when it was sent (replies are looked for after that). */
  rxFrom: number;
}

/** A stretch of time the probe itself was held up (the tab was busy): timings measured across it mean nothing. */
interface Stall {
  from: number;
  to: number;
}

const enc = new TextEncoder();

export class Probe {
  private seq = 0;
  readonly stalls: Stall[] = [];

  constructor(readonly io: ProbeIO) {}

  get log(): WireLog {
    return this.io.log;
  }

  now(): number {
    return this.io.now();
  }

  /** Next sequence number: 1…65535, never 0. */
  nextSeq(): number {
    this.seq = nextSeq(this.seq);
    return this.seq;
  }

  async raw(bytes: Uint8Array, note: string): Promise<void> {
    this.log.sent(bytes, this.io.now(), note);
    await this.io.write(bytes);
  }

  /** A Request frame; `payload` replaces the JSON (for broken requests). */
  async request(method: string, params: unknown = {}, opts: { seq?: number; payload?: Uint8Array; note?: string } = {}): Promise<Sent> {
    const seq = opts.seq ?? this.nextSeq();
    const bytes = opts.payload ? encodeFrame(FrameType.Request, seq, opts.payload) : encodeJsonFrame(FrameType.Request, seq, { method, params });
    return this.sendRequest(seq, method, bytes, opts.note ?? `Request #${seq} ${method}`);
  }

  /** The same bytes again (a retransmission). */
  async resend(s: Sent, note = `Request #${s.seq} ${s.method} (sent again, same bytes)`): Promise<Sent> {
    return this.sendRequest(s.seq, s.method, s.bytes, note);
  }

  /** Sends request bytes as one write, or in writes of `chunk` bytes (a receiver must not expect whole frames per read). */
  async sendRequest(seq: number, method: string, bytes: Uint8Array, note: string, chunk?: number): Promise<Sent> {
    const rxFrom = this.log.rx.length;
    const at = this.io.now();
    if (!chunk) await this.raw(bytes, note);
    else {
      this.log.sent(bytes, at, note);
      for (let i = 0; i < bytes.length; i += chunk) await this.io.write(bytes.subarray(i, i + chunk));
    }
    return { seq, method, bytes, at, rxFrom };
  }

  async ping(seq: number): Promise<Sent> {
    const bytes = encodeFrame(FrameType.Ping, seq);
    return this.sendRequest(seq, 'ping', bytes, `Ping #${seq}`);
  }

  async blob(seq: number, offset: number, data: Uint8Array): Promise<void> {
    const payload = new Uint8Array(4 + data.length);
    payload[0] = offset & 0xff;
    payload[1] = (offset >> 8) & 0xff;
    payload[2] = (offset >> 16) & 0xff;
    payload[3] = (offset >>> 24) & 0xff;
    payload.set(data, 4);
    await this.raw(encodeFrame(FrameType.Blob, seq, payload), `Blob #${seq} offset ${offset}, ${data.length} bytes`);
  }

  /** Waits until `find` returns something (checked after every received chunk), or `ms` passes. */
  async until<T>(find: () => T | undefined, ms: number): Promise<T | undefined> {
    const end = this.io.now() + ms;
    for (;;) {
      const v = find();
      if (v !== undefined) return v;
      const left = end - this.io.now();
      if (left <= 0) return undefined;
      const slice = Math.min(left, 100);
      const t0 = this.io.now();
      await this.io.waitRx(slice);
      const took = this.io.now() - t0;
      if (took > slice + 250) this.stalls.push({ from: t0, to: t0 + took });
    }
  }

  /** Waits `ms` whatever arrives. */
  async quiet(ms: number): Promise<void> {
    await this.until(() => undefined, ms);
  }

  /** Received frames of `type` for `seq`, from block index `from` on. */
  replies(seq: number, type: number, from: number): RxBlock[] {
    return this.log.rx.slice(from).filter((b) => b.frame?.type === type && b.frame.seq === seq);
  }

  /** The first frame of `type` for a sent request (after it was sent), waiting up to `ms`. */
  first(s: Sent, type: number, ms: number): Promise<RxBlock | undefined> {
    return this.until(() => this.replies(s.seq, type, s.rxFrom)[0], ms);
  }

  /** The first Event named `name` from block index `from` on, waiting up to `ms`. */
  event(name: string, from: number, ms: number): Promise<RxBlock | undefined> {
    return this.until(() => this.log.rx.slice(from).find((b) => b.frame?.type === FrameType.Event && b.body?.event === name), ms);
  }

  /** Whether the probe was held up between `from` and `to`. */
  stalledBetween(from: number, to: number): boolean {
    return this.stalls.some((s) => s.from < to && s.to > from);
  }
}

export const utf8 = (s: string): Uint8Array => enc.encode(s);
