/**
 * A second robot firmware, written the way a microcontroller firmware is, from
 * docs/robot-protocol.md alone and sharing no code with src/robot/sim: its own COBS and bitwise
 * CRC, a byte-at-a-time receiver, a fixed ring of remembered requests, and a main loop that polls
 * every 10 ms instead of one timer per job. Its defaults differ from the simulator's wherever the
 * protocol leaves them to the device (gesture timing and amplitude, 64-point strokes, a 2048-byte
 * maxFrame, four expressions, no images, deeper queues, a slower ack, a boot line of text, a log
 * event), so a host or a test tuned to one implementation shows up.
 *
 * `bugs` turns it into deliberately broken firmware for the conformance kit's own tests:
 * `crc` (sends its CRC high byte first — it checks the host's CRC correctly, so it answers, but
 * every frame it sends fails the host's check), `noDone` (never reports done),
 * `forgetsDuplicates` (runs every retransmission again), `noHelloDelimiter` (no lone 00 before
 * its hello), `seq8`, `wrapUnsafe`, `slowAckMs`, `doubleDone` (see below).
 */
import type { Clock } from '../../../src/robot/clock.ts';
import { systemClock } from '../../../src/robot/clock.ts';
import type { WireDevice } from '../../../src/robot/sim/sim-port.ts';

export interface OtherFirmwareBugs {
  crc?: boolean;
  noDone?: boolean;
  forgetsDuplicates?: boolean;
  /** No lone 00 before the hello. */
  noHelloDelimiter?: boolean;
  /** Keeps seq in 8 bits: reads only the low byte and answers with it (Ping #256 → Pong #0). */
  seq8?: boolean;
  /** Takes a request whose seq is not above the newest seen as a resend (breaks at the 65535 → 1 wrap); sys.hello starts over. */
  wrapUnsafe?: boolean;
  /** Acks every request this late (ms): over the host's 300 ms. */
  slowAckMs?: number;
  /** Sends every Done twice. */
  doubleDone?: boolean;
}

export interface OtherFirmwareOptions {
  clock?: Clock;
  serial?: string;
  bugs?: OtherFirmwareBugs;
  /** Boot id source (tests pass a fixed one). */
  random?: () => number;
}

const MAX_RX = 2048 + 64;
const MEMORY = 24;
const TICK_MS = 10;
const ACK_LATENCY_MS = 5;
const WATCHDOG_MS = 5000;
const BLOB_STALL = 1000;

type Lane = 'head' | 'screen';

interface Job {
  seq: number;
  lane: Lane;
  ms: number;
  /** When it started (the lane's head), or -1 while queued. */
  started: number;
  onStart?: () => void;
  onEnd?: () => void;
}

interface Memory {
  seq: number;
  hash: number;
  len: number;
  ack: Uint8Array | null;
  done: Uint8Array | null;
}

const EXPRESSIONS = ['neutral', 'happy', 'sorry', 'thinking'];
const GESTURES: Record<string, { times: number; amp: number; period: number }> = {
  nod: { times: 3, amp: 20, period: 400 },
  shake: { times: 3, amp: 30, period: 550 },
};

/** What the robot shows and did, for tests. */
export interface OtherState {
  face: string | null;
  drawing: { id: string; strokes: number; complete: boolean } | null;
  card: string | null;
  gestures: string[];
  resting: boolean;
}

export class OtherFirmware implements WireDevice {
  readonly state: OtherState = { face: null, drawing: null, card: null, gestures: [], resting: false };
  private readonly clock: Clock;
  private readonly bugs: OtherFirmwareBugs;
  private out: ((b: Uint8Array) => void) | null = null;
  private rx = new Uint8Array(MAX_RX);
  private rxLen = 0;
  private rxDrop = false;
  private ring: Memory[] = [];
  private jobs: Job[] = [];
  private lastHost = 0;
  private evt = 0;
  private boot = 0;
  private loopTimer: unknown = null;
  private pendingOut: Array<{ at: number; bytes: Uint8Array }> = [];
  private drawId: string | null = null;
  /** The newest request seq seen (the `wrapUnsafe` bug). */
  private newest = 0;

  constructor(private readonly opts: OtherFirmwareOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.bugs = opts.bugs ?? {};
  }

  // ---- power ------------------------------------------------------------------------------

  powerOn(wire: (bytes: Uint8Array) => void): void {
    this.out = wire;
    this.reset();
    this.boot = (Math.floor((this.opts.random ?? (() => 0.25))() * 0xfffffff0) + 7) >>> 0;
    // A boot line, properly ended with 00 (§1), then the greeting.
    this.emitNow(Uint8Array.from([...new TextEncoder().encode('kit-bot boot v2.3.1\r\n'), 0]));
    this.later(150, () => {
      this.lastHost = this.clock.now();
      this.hello();
      this.event({ event: 'log', msg: 'ready' });
    });
    this.loop();
  }

  powerOff(): void {
    this.reset();
    this.out = null;
  }

  private reset(): void {
    this.clock.clearTimeout(this.loopTimer);
    this.loopTimer = null;
    this.rxLen = 0;
    this.rxDrop = false;
    this.ring = [];
    this.jobs = [];
    this.pendingOut = [];
    this.evt = 0;
    this.drawId = null;
    this.newest = 0;
  }

  /** The firmware's main loop: deliver delayed output, run the lanes, the watchdog. */
  private loop(): void {
    const now = this.clock.now();
    const due = this.pendingOut.filter((p) => p.at <= now);
    this.pendingOut = this.pendingOut.filter((p) => p.at > now);
    for (const p of due) this.emitNow(p.bytes);
    for (const lane of ['head', 'screen'] as Lane[]) {
      const head = this.jobs.find((j) => j.lane === lane);
      if (!head) continue;
      if (head.started < 0) {
        head.started = now;
        head.onStart?.();
      } else if (now - head.started >= head.ms) {
        this.jobs.splice(this.jobs.indexOf(head), 1);
        head.onEnd?.();
        this.reply(head.seq, 3, { ok: true });
      }
    }
    if (!this.state.resting && this.lastHost > 0 && now - this.lastHost > WATCHDOG_MS) this.rest();
    if (this.blob && now - this.blob.last > BLOB_STALL) {
      const b = this.blob;
      this.blob = null;
      this.reply(b.seq, 3, { ok: false, error: { code: 'blob_incomplete', msg: 'stalled' } });
    }
    this.loopTimer = this.clock.setTimeout(() => this.loop(), TICK_MS);
  }

  private later(ms: number, fn: () => void): void {
    this.clock.setTimeout(() => {
      if (this.out) fn();
    }, ms);
  }

  // ---- receive: one byte at a time, like a UART ISR -------------------------------------------

  onBytes(bytes: Uint8Array): void {
    if (!this.out) return;
    for (const b of bytes) {
      if (b !== 0) {
        if (this.rxLen >= MAX_RX) this.rxDrop = true;
        else this.rx[this.rxLen++] = b;
        continue;
      }
      if (!this.rxDrop && this.rxLen > 0) this.frame(unstuff(this.rx.subarray(0, this.rxLen)));
      this.rxLen = 0;
      this.rxDrop = false;
    }
  }

  private frame(raw: Uint8Array | null): void {
    if (!raw || raw.length < 6 || raw[0] !== 1) return;
    const crc = raw[raw.length - 2] | (raw[raw.length - 1] << 8);
    if (crc !== this.crc(raw.subarray(0, raw.length - 2))) return;
    const type = raw[1];
    if (type < 1 || type > 7) return;
    this.lastHost = this.clock.now();
    this.state.resting = false;
    const seq = this.bugs.seq8 ? raw[2] : raw[2] | (raw[3] << 8);
    const payload = raw.subarray(4, raw.length - 2);
    if (type === 5) this.send(6, seq, new Uint8Array(0));
    else if (type === 1) this.request(seq, payload);
    else if (type === 7) this.blobChunk(seq, payload);
  }

  private request(seq: number, payload: Uint8Array): void {
    type Msg = { method?: unknown; params?: unknown };
    let msg: Msg | null = null;
    try {
      const v: unknown = JSON.parse(new TextDecoder().decode(payload));
      if (v && typeof v === 'object' && !Array.isArray(v)) msg = v as Msg;
    } catch {
      msg = null;
    }
    const hash = fnv1a(payload);
    if (this.bugs.wrapUnsafe) {
      if (msg?.method === 'sys.hello') this.newest = seq;
      else if (seq <= this.newest) {
        const again = this.ring.find((m) => m.seq === seq);
        if (again?.ack) this.emit(again.ack);
        if (again?.done) this.emit(again.done);
        return;
      } else this.newest = seq;
    }
    const known = this.bugs.forgetsDuplicates ? undefined : this.ring.find((m) => m.seq === seq && m.hash === hash && m.len === payload.length);
    if (known && msg?.method !== 'sys.hello') {
      if (known.ack) this.emit(known.ack);
      if (known.done) this.emit(known.done);
      return;
    }
    this.ring.push({ seq, hash, len: payload.length, ack: null, done: null });
    if (this.ring.length > MEMORY) this.ring.shift();
    if (!msg || typeof msg.method !== 'string') return this.nak(seq, 'bad_json', 'want {"method":…,"params":{…}}');
    const p = (msg.params && typeof msg.params === 'object' && !Array.isArray(msg.params) ? msg.params : {}) as Record<string, unknown>;
    this.dispatch(seq, msg.method, p);
  }

  // ---- commands ------------------------------------------------------------------------------

  private dispatch(seq: number, method: string, p: Record<string, unknown>): void {
    switch (method) {
      case 'sys.hello':
        this.ring = this.ring.filter((m) => m.seq === seq);
        this.ack(seq, 0);
        this.hello();
        return this.reply(seq, 3, { ok: true });
      case 'sys.stop':
        this.stop();
        return this.immediate(seq, 20);
      case 'sys.idle':
        this.stop();
        this.state.face = null;
        this.state.drawing = null;
        this.state.card = null;
        return this.immediate(seq, 200);
      case 'face.set':
        if (typeof p.expr !== 'string') return this.nak(seq, 'bad_params', 'expr');
        if (!EXPRESSIONS.includes(p.expr)) return this.nak(seq, 'unsupported', p.expr);
        this.state.face = p.expr;
        return this.immediate(seq, 60);
      case 'face.clear':
        this.state.face = null;
        return this.immediate(seq, 40);
      case 'head.gesture':
        return this.gesture(seq, p);
      case 'head.home':
        return this.queue(seq, 'head', 250, 6);
      case 'draw.begin': {
        if (typeof p.id !== 'string' || p.id.length === 0 || new TextEncoder().encode(p.id).length > 32) return this.nak(seq, 'bad_params', 'id');
        if (p.color !== undefined && (typeof p.color !== 'string' || !/^#[0-9a-f]{6}$/i.test(p.color))) return this.nak(seq, 'bad_params', 'color');
        if (p.width !== undefined && !int(p.width, 1, 20)) return this.nak(seq, 'bad_params', 'width');
        if (p.animate !== undefined && typeof p.animate !== 'boolean') return this.nak(seq, 'bad_params', 'animate');
        const id = p.id;
        this.drawId = id;
        this.animate = p.animate !== false;
        return this.queue(seq, 'screen', 15, 128, () => (this.state.drawing = { id, strokes: 0, complete: false }));
      }
      case 'draw.stroke': {
        if (p.id !== this.drawId) return this.nak(seq, 'bad_params', 'id');
        const pts = p.pts;
        if (!Array.isArray(pts) || pts.length < 1 || pts.length > 64 || !pts.every((q) => Array.isArray(q) && q.length === 2 && int(q[0], 0, 239) && int(q[1], 0, 239)))
          return this.nak(seq, 'bad_params', 'pts');
        return this.queue(seq, 'screen', this.animate ? 20 * pts.length : 2, 128, undefined, () => {
          if (this.state.drawing) this.state.drawing.strokes++;
        });
      }
      case 'draw.end':
        if (p.id !== this.drawId) return this.nak(seq, 'bad_params', 'id');
        if (p.label !== undefined && (typeof p.label !== 'string' || new TextEncoder().encode(p.label).length > 60)) return this.nak(seq, 'bad_params', 'label');
        return this.queue(seq, 'screen', 5, 128, undefined, () => {
          if (this.state.drawing) this.state.drawing.complete = true;
        });
      case 'screen.progress':
        if (!int(p.current, 0, 999) || !int(p.total, 1, 999)) return this.nak(seq, 'bad_params', 'current/total');
        if (p.label !== undefined && (typeof p.label !== 'string' || new TextEncoder().encode(p.label).length > 60)) return this.nak(seq, 'bad_params', 'label');
        return this.queue(seq, 'screen', 40, 128, () => (this.state.card = `${String(p.current)}/${String(p.total)}`));
      case 'screen.text':
        if (typeof p.text !== 'string' || new TextEncoder().encode(p.text).length > 200) return this.nak(seq, 'bad_params', 'text');
        return this.queue(seq, 'screen', 40, 128, () => (this.state.card = p.text as string));
      case 'screen.image':
        // This robot shows no images (its hello lists none).
        return this.nak(seq, 'unsupported', 'no image formats');
      default:
        return this.nak(seq, 'unknown_method', method);
    }
  }

  private animate = true;
  private blob: { seq: number; last: number } | null = null;

  private blobChunk(_seq: number, _payload: Uint8Array): void {
    // No image support: Blob frames are ignored.
  }

  private gesture(seq: number, p: Record<string, unknown>): void {
    if (typeof p.name !== 'string') return this.nak(seq, 'bad_params', 'name');
    const d = GESTURES[p.name];
    if (!d || !Object.hasOwn(GESTURES, p.name)) return this.nak(seq, 'unsupported', p.name);
    const times = p.times ?? d.times;
    const amp = p.amp ?? d.amp;
    const period = p.period ?? d.period;
    if (!int(times, 1, 5) || !int(amp, 1, 45) || !int(period, 250, 2000)) return this.nak(seq, 'bad_params', 'times/amp/period');
    const name = p.name;
    this.queue(seq, 'head', times * period, 6, () => this.state.gestures.push(name));
  }

  private immediate(seq: number, ms: number): void {
    this.ack(seq, ms);
    this.later(ms, () => this.reply(seq, 3, { ok: true }));
  }

  private queue(seq: number, lane: Lane, ms: number, limit: number, onStart?: () => void, onEnd?: () => void): void {
    const mine = this.jobs.filter((j) => j.lane === lane);
    if (mine.filter((j) => j.started < 0).length >= limit) return this.nak(seq, 'busy', `${lane} queue full`);
    const now = this.clock.now();
    // Time until done: what is ahead in this lane, the loop's tick, then this job.
    const ahead = mine.reduce((t, j) => t + (j.started < 0 ? j.ms : Math.max(0, j.ms - (now - j.started))), 0);
    this.jobs.push({ seq, lane, ms, started: -1, onStart, onEnd });
    this.ack(seq, ahead + ms + TICK_MS * 2);
  }

  private stop(): void {
    for (const j of this.jobs) this.reply(j.seq, 3, { ok: false, error: { code: 'stopped', msg: 'stop' } });
    this.jobs = [];
  }

  private rest(): void {
    this.state.resting = true;
    this.stop();
    this.state.face = null;
  }

  // ---- send ------------------------------------------------------------------------------------

  private hello(): void {
    if (!this.bugs.noHelloDelimiter) this.emitNow(new Uint8Array([0]));
    this.event({
      event: 'hello',
      proto: 1,
      fw: '2.3.1-indep',
      model: 'kit-bot-mini',
      serial: this.opts.serial ?? 'OTHER001',
      boot: this.boot,
      screen: { w: 240, h: 240, shape: 'rect', fmt: 'rgb565' },
      servos: ['pitch', 'yaw'],
      expressions: EXPRESSIONS,
      gestures: Object.keys(GESTURES),
      draw: { strokes: true, maxPoints: 64 },
      images: [],
      maxFrame: 2048,
      battery: 87,
    });
  }

  private event(body: Record<string, unknown>): void {
    this.evt = this.evt >= 0xffff ? 1 : this.evt + 1;
    this.emitNow(this.frameBytes(4, this.evt, new TextEncoder().encode(JSON.stringify(body))));
  }

  private ack(seq: number, ms: number): void {
    const bytes = this.frameBytes(2, seq, new TextEncoder().encode(JSON.stringify({ ms })));
    this.remember(seq, 'ack', bytes);
    this.emit(bytes);
  }

  private nak(seq: number, code: string, msg: string): void {
    const bytes = this.frameBytes(2, seq, new TextEncoder().encode(JSON.stringify({ error: { code, msg } })));
    this.remember(seq, 'ack', bytes);
    this.emit(bytes);
  }

  private reply(seq: number, type: 3, body: unknown): void {
    if (this.bugs.noDone) return;
    const bytes = this.frameBytes(type, seq, new TextEncoder().encode(JSON.stringify(body)));
    this.remember(seq, 'done', bytes);
    this.emit(bytes);
    if (this.bugs.doubleDone) this.emit(bytes);
  }

  private remember(seq: number, what: 'ack' | 'done', bytes: Uint8Array): void {
    const m = [...this.ring].reverse().find((r) => r.seq === seq);
    if (m) m[what] = bytes;
  }

  private send(type: number, seq: number, payload: Uint8Array): void {
    this.emit(this.frameBytes(type, seq, payload));
  }

  /** Replies leave on the next USB poll, a few ms later, in order. */
  private emit(bytes: Uint8Array): void {
    const latency = this.bugs.slowAckMs ?? ACK_LATENCY_MS;
    const last = this.pendingOut.at(-1)?.at ?? 0;
    this.pendingOut.push({ at: Math.max(last, this.clock.now() + latency), bytes });
    if (this.pendingOut.length === 1) this.later(latency, () => this.flush());
  }

  private flush(): void {
    const now = this.clock.now();
    const due = this.pendingOut.filter((p) => p.at <= now);
    this.pendingOut = this.pendingOut.filter((p) => p.at > now);
    for (const p of due) this.emitNow(p.bytes);
    if (this.pendingOut.length) this.later(Math.max(1, this.pendingOut[0].at - now), () => this.flush());
  }

  private emitNow(bytes: Uint8Array): void {
    this.out?.(bytes);
  }

  private frameBytes(type: number, seq: number, payload: Uint8Array): Uint8Array {
    const raw = new Uint8Array(payload.length + 6);
    raw[0] = 1;
    raw[1] = type;
    raw[2] = seq & 0xff;
    raw[3] = (seq >> 8) & 0xff;
    raw.set(payload, 4);
    const c = this.crc(raw.subarray(0, raw.length - 2));
    // The bug: big-endian on the way out.
    raw[raw.length - 2] = this.bugs.crc ? c >> 8 : c & 0xff;
    raw[raw.length - 1] = this.bugs.crc ? c & 0xff : c >> 8;
    return stuff(raw);
  }

  /** CRC-16/CCITT-FALSE, bit by bit as in the document's C code. */
  private crc(p: Uint8Array): number {
    let crc = 0xffff;
    for (const b of p) {
      crc ^= b << 8;
      for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc;
  }
}

const int = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** COBS encode + the 00 delimiter. */
function stuff(raw: Uint8Array): Uint8Array {
  const out: number[] = [];
  let block: number[] = [];
  const flush = (code: number) => {
    out.push(code, ...block);
    block = [];
  };
  for (const b of raw) {
    if (b === 0) flush(block.length + 1);
    else {
      block.push(b);
      if (block.length === 254) flush(255);
    }
  }
  flush(block.length + 1);
  out.push(0);
  return Uint8Array.from(out);
}

/** COBS decode; null when the block is not valid COBS. */
function unstuff(block: Uint8Array): Uint8Array | null {
  const out: number[] = [];
  let i = 0;
  while (i < block.length) {
    const code = block[i++];
    if (code === 0 || i + code - 1 > block.length) return null;
    for (let k = 1; k < code; k++) out.push(block[i++]);
    if (code < 255 && i < block.length) out.push(0);
  }
  return Uint8Array.from(out);
}
