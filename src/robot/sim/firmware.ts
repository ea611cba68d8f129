/**
 * The robot side of protocol v1 in plain TypeScript (no DOM): what a firmware author builds,
 * runnable in tests, in the e2e fake `navigator.serial`, and behind the on-screen robot.
 * Bytes in through `onBytes`, bytes out through the wire callback given to `powerOn`.
 * Time comes from an injected clock; faults can be injected to test the host.
 */
import { systemClock, type Clock } from '../clock.ts';
import { encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload, type Frame } from '../../core/robot/frame.ts';
import { EXPRESSIONS, LIMITS, PROTOCOL_VERSION, TIMING, type DeviceErrorCode, type Hello, type Point } from '../../core/robot/messages.ts';
import type { Expression } from '../../core/robot/types.ts';
import { MOTION, strokeMs } from './motion.ts';
import type { RobotState, ScreenContent } from './state.ts';

export interface SimFaults {
  /** Corrupt the next N frames the robot sends (the host sees CRC errors). */
  corruptOut: number;
  /** Drop the next N frames the robot receives, as if their CRC were bad. */
  corruptIn: number;
  /** Extra delay before every command is read and acked (ms). */
  ackDelay: number;
  /** Never report done (commands still run). */
  noDone: boolean;
  /** Hung firmware: reads nothing, answers nothing (not even pings). */
  mute: boolean;
}

export interface SimOptions {
  clock?: Clock;
  serial?: string;
  /** Overrides for the hello (e.g. a robot without a head: `{gestures: [], servos: []}`). */
  hello?: Partial<Hello>;
  /** Random source for boot ids (tests pass a fixed one). */
  random?: () => number;
  /** Print a ROM boot banner before the hello, like an ESP32 does (default true). */
  bootBanner?: boolean;
}

const BOOT_BANNER = 'ESP-ROM:esp32s3-20210327\r\nBuild:Mar 27 2021\r\nrst:0x1 (POWERON),boot:0x8 (SPI_FAST_FLASH_BOOT)\r\nentry 0x403c9880\r\n';

interface Job {
  seq: number;
  ms: number;
  start(): void;
  finish(): void;
}

interface Channel {
  queue: Job[];
  busy: Job | null;
  busyEnds: number;
  timer: unknown;
  limit: number;
}

interface Recent {
  key: string;
  ack?: Uint8Array;
  done?: Uint8Array;
}

type Params = Record<string, unknown>;
type Reply = { ok: true } | { ok: false; code: DeviceErrorCode; msg?: string };

const isInt = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

function initialState(): RobotState {
  return {
    powered: false,
    booted: false,
    boot: 0,
    face: null,
    content: { kind: 'idle' },
    head: { gesture: null, seq: 0, times: 0, period: 0, amp: 0 },
    gestures: [],
    hostLost: false,
    commands: 0,
    badFrames: 0,
  };
}

export class FirmwareSim {
  state: RobotState = initialState();
  readonly faults: SimFaults = { corruptOut: 0, corruptIn: 0, ackDelay: 0, noDone: false, mute: false };
  private readonly clock: Clock;
  private readonly random: () => number;
  private wire: ((bytes: Uint8Array) => void) | null = null;
  private decoder = new FrameDecoder(() => this.bad());
  private listeners = new Set<(s: RobotState) => void>();
  private generation = 0;
  private timers = new Set<unknown>();
  private evtSeq = 0;
  private recent: Recent[] = [];
  private screen: Channel = { queue: [], busy: null, busyEnds: 0, timer: undefined, limit: LIMITS.screenQueue };
  private head: Channel = { queue: [], busy: null, busyEnds: 0, timer: undefined, limit: LIMITS.headQueue };
  private lastHostRx = 0;
  /** The drawing the latest draw.begin announced (strokes are checked against it on arrival). */
  private drawId: string | null = null;
  private drawAnimate = true;
  private blob: { seq: number; w: number; h: number; len: number; data: Uint8Array; got: number; timer: unknown } | null = null;

  constructor(private readonly opts: SimOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
  }

  subscribe(cb: (s: RobotState) => void): () => void {
    this.listeners.add(cb);
    cb(this.state);
    return () => this.listeners.delete(cb);
  }

  /** The hello this robot sends. */
  helloBody(): Hello {
    return {
      event: 'hello',
      proto: PROTOCOL_VERSION,
      fw: 'sim-1.0.0',
      model: 'agentcade-sim',
      serial: this.opts.serial ?? 'SIM00001',
      boot: this.state.boot,
      screen: { w: LIMITS.screenSize, h: LIMITS.screenSize, shape: 'round', fmt: 'rgb565' },
      servos: ['pitch', 'yaw'],
      expressions: [...EXPRESSIONS],
      gestures: ['nod', 'shake'],
      draw: { strokes: true, maxPoints: LIMITS.maxPointsPerStroke },
      images: ['mono1'],
      maxFrame: LIMITS.defaultMaxFrame,
      ...this.opts.hello,
    };
  }

  // ---- power ----------------------------------------------------------------------------------

  /** USB power on: boot banner, then the hello after MOTION.boot ms. */
  powerOn(wire: (bytes: Uint8Array) => void): void {
    this.wire = wire;
    this.boot();
  }

  powerOff(): void {
    this.reset();
    this.wire = null;
    this.set({ powered: false, booted: false });
  }

  /** A firmware crash or watchdog reset: everything in progress is forgotten. */
  reboot(): void {
    if (!this.wire) return;
    this.boot();
  }

  private boot(): void {
    this.reset();
    this.state = { ...initialState(), gestures: this.state.gestures, powered: true, boot: Math.floor(this.random() * 0xffffffff) >>> 0 || 1 };
    this.notify();
    if (this.opts.bootBanner !== false) this.wire?.(new TextEncoder().encode(BOOT_BANNER));
    this.after(MOTION.boot, () => {
      this.set({ booted: true });
      this.lastHostRx = this.clock.now();
      this.sendHello();
      this.startWatchdog();
    });
  }

  private reset(): void {
    this.generation++;
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers.clear();
    this.screen = { queue: [], busy: null, busyEnds: 0, timer: undefined, limit: LIMITS.screenQueue };
    this.head = { queue: [], busy: null, busyEnds: 0, timer: undefined, limit: LIMITS.headQueue };
    this.recent = [];
    this.recentSeqs = [];
    this.decoder = new FrameDecoder(() => this.bad());
    this.drawId = null;
    this.blob = null;
  }

  // ---- input ----------------------------------------------------------------------------------

  onBytes(bytes: Uint8Array): void {
    if (!this.state.powered || this.faults.mute) return;
    for (const frame of this.decoder.push(bytes)) {
      if (this.faults.corruptIn > 0) {
        this.faults.corruptIn--;
        this.bad();
        continue;
      }
      if (!this.state.booted) continue; // still in the ROM: nobody listens yet
      this.lastHostRx = this.clock.now();
      if (this.state.hostLost) this.set({ hostLost: false });
      this.onFrame(frame);
    }
  }

  private bad(): void {
    this.set({ badFrames: this.state.badFrames + 1 });
  }

  private onFrame(frame: Frame): void {
    switch (frame.type) {
      case FrameType.Ping:
        return this.send(encodeFrame(FrameType.Pong, frame.seq));
      case FrameType.Request:
        return this.onRequest(frame);
      case FrameType.Blob:
        return this.onBlob(frame);
      default:
        return; // frames meant for the host are ignored
    }
  }

  private onRequest(frame: Frame): void {
    const key = Array.from(frame.payload, (b) => b.toString(16)).join('');
    const prev = this.recentFor(frame.seq);
    if (prev && prev.key === key) {
      // A retransmission (the host missed our ack): answer again, never run twice.
      if (prev.ack) this.send(prev.ack);
      if (prev.done) this.send(prev.done);
      return;
    }
    const recent: Recent = { key };
    this.remember(frame.seq, recent);
    const body = jsonPayload(frame);
    if (!body || typeof body.method !== 'string') return this.nak(frame.seq, recent, 'bad_json', 'payload is not {method, params}');
    const params = (body.params && typeof body.params === 'object' ? body.params : {}) as Params;
    const run = () => {
      this.set({ commands: this.state.commands + 1 });
      this.execute(frame.seq, recent, body.method as string, params);
    };
    // A slow robot: the command sits unread for a while (retransmissions meanwhile are duplicates).
    if (this.faults.ackDelay > 0) this.after(this.faults.ackDelay, run);
    else run();
  }

  private recentSeqs: number[] = [];
  private recentFor(seq: number): Recent | undefined {
    const i = this.recentSeqs.lastIndexOf(seq);
    return i >= 0 ? this.recent[i] : undefined;
  }

  private remember(seq: number, r: Recent): void {
    this.recentSeqs.push(seq);
    this.recent.push(r);
    if (this.recent.length > LIMITS.deviceDedupe) {
      this.recent.shift();
      this.recentSeqs.shift();
    }
  }

  // ---- commands -------------------------------------------------------------------------------

  private execute(seq: number, recent: Recent, method: string, p: Params): void {
    const now = () => this.ack(seq, recent, 0);
    switch (method) {
      case 'sys.hello':
        // A new host session: forget duplicates from the previous one.
        this.recent = [recent];
        this.recentSeqs = [seq];
        now();
        this.sendHello();
        return this.done(seq, recent, { ok: true });
      case 'sys.stop':
        this.stopAll();
        this.ack(seq, recent, MOTION.stop);
        return this.doneAfter(seq, recent, MOTION.stop);
      case 'sys.idle':
        this.stopAll();
        this.set({ face: null, content: { kind: 'idle' } });
        this.ack(seq, recent, MOTION.idle);
        return this.doneAfter(seq, recent, MOTION.idle);
      case 'face.set': {
        const expr = p.expr as Expression;
        if (!(this.helloBody().expressions as string[]).includes(expr)) return this.nak(seq, recent, 'unsupported', `no expression ${String(expr)}`);
        this.set({ face: expr });
        this.ack(seq, recent, MOTION.faceSet);
        return this.doneAfter(seq, recent, MOTION.faceSet);
      }
      case 'face.clear':
        this.set({ face: null });
        this.ack(seq, recent, MOTION.faceClear);
        return this.doneAfter(seq, recent, MOTION.faceClear);
      case 'head.gesture': {
        const name = p.name;
        if (name !== 'nod' && name !== 'shake') return this.nak(seq, recent, 'bad_params', 'name must be nod or shake');
        if (!this.helloBody().gestures.includes(name)) return this.nak(seq, recent, 'unsupported', `no ${name}`);
        const d = MOTION[name];
        const times = p.times === undefined ? d.times : p.times;
        const period = p.period === undefined ? d.period : p.period;
        const amp = p.amp === undefined ? d.amp : p.amp;
        if (!isInt(times, 1, 5) || !isInt(period, 250, 2000) || !isInt(amp, 1, 45)) return this.nak(seq, recent, 'bad_params', 'times 1–5, period 250–2000, amp 1–45');
        return this.enqueue(this.head, seq, recent, times * period, () => {
          const h = this.state.head;
          this.set({ head: { gesture: name, seq: h.seq + 1, times, period, amp }, gestures: [...this.state.gestures, name] });
        }, () => this.set({ head: { ...this.state.head, gesture: null } }));
      }
      case 'head.home':
        return this.enqueue(this.head, seq, recent, MOTION.headHome, () => {}, () => {});
      case 'draw.begin': {
        if (typeof p.id !== 'string' || !p.id) return this.nak(seq, recent, 'bad_params', 'id required');
        const color = typeof p.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(p.color) ? p.color : '#222222';
        const width = isInt(p.width, 1, 20) ? p.width : 6;
        const id = p.id;
        this.drawId = id;
        this.drawAnimate = p.animate !== false;
        return this.enqueue(this.screen, seq, recent, MOTION.drawBegin, () =>
          this.set({ content: { kind: 'drawing', id, color, width, strokes: [], drawn: 0, drawing: null, complete: false } }), () => {});
      }
      case 'draw.stroke': {
        if (p.id !== this.drawId) return this.nak(seq, recent, 'bad_params', 'stroke for a drawing that was not begun');
        const pts = p.pts;
        const max = LIMITS.screenSize - 1;
        if (!Array.isArray(pts) || pts.length < 1 || pts.length > LIMITS.maxPointsPerStroke || !pts.every((q) => Array.isArray(q) && q.length === 2 && isInt(q[0], 0, max) && isInt(q[1], 0, max)))
          return this.nak(seq, recent, 'bad_params', `pts: 1–${LIMITS.maxPointsPerStroke} points [x,y] in 0–${max}`);
        const stroke = pts as Point[];
        // Hidden under a face, or asked not to animate: the stroke appears at once.
        const ms = strokeMs(stroke.length, this.drawAnimate && !this.state.face);
        return this.enqueue(this.screen, seq, recent, ms, () => {
          const c = this.state.content;
          if (c.kind !== 'drawing') return;
          this.set({ content: { ...c, strokes: [...c.strokes, stroke], drawing: { index: c.strokes.length, ms } } });
        }, () => {
          const c = this.state.content;
          if (c.kind !== 'drawing') return;
          this.set({ content: { ...c, drawn: c.drawn + 1, drawing: null } });
        });
      }
      case 'draw.end': {
        if (p.id !== this.drawId) return this.nak(seq, recent, 'bad_params', 'end for a drawing that was not begun');
        const label = typeof p.label === 'string' ? p.label : undefined;
        return this.enqueue(this.screen, seq, recent, MOTION.drawEnd, () => {}, () => {
          const c = this.state.content;
          if (c.kind === 'drawing') this.set({ content: { ...c, complete: true, label } });
        });
      }
      case 'screen.progress': {
        if (!isInt(p.current, 0, 999) || !isInt(p.total, 1, 999)) return this.nak(seq, recent, 'bad_params', 'current 0–999, total 1–999');
        const content: ScreenContent = { kind: 'progress', current: p.current, total: p.total, label: typeof p.label === 'string' ? p.label : undefined };
        return this.enqueue(this.screen, seq, recent, MOTION.card, () => this.set({ content }), () => {});
      }
      case 'screen.text': {
        if (typeof p.text !== 'string' || new TextEncoder().encode(p.text).length > LIMITS.maxTextBytes) return this.nak(seq, recent, 'bad_params', `text: at most ${LIMITS.maxTextBytes} UTF-8 bytes`);
        const content: ScreenContent = { kind: 'text', text: p.text };
        return this.enqueue(this.screen, seq, recent, MOTION.card, () => this.set({ content }), () => {});
      }
      case 'screen.image': {
        const { w, h, fmt, len } = p;
        if (fmt !== 'mono1') return this.nak(seq, recent, 'unsupported', 'fmt must be mono1');
        if (!isInt(w, 1, LIMITS.screenSize) || !isInt(h, 1, LIMITS.screenSize) || len !== Math.ceil((w * h) / 8)) return this.nak(seq, recent, 'bad_params', 'w,h 1–240 and len = ceil(w*h/8)');
        this.ack(seq, recent, TIMING.blobStall + MOTION.image);
        this.blob = { seq, w, h, len, data: new Uint8Array(len), got: 0, timer: undefined };
        return this.armBlobStall(recent);
      }
      default:
        return this.nak(seq, recent, 'unknown_method', method);
    }
  }

  private onBlob(frame: Frame): void {
    const b = this.blob;
    if (!b || frame.seq !== b.seq || frame.payload.length < 4) return;
    const off = frame.payload[0] | (frame.payload[1] << 8) | (frame.payload[2] << 16) | (frame.payload[3] << 24);
    const chunk = frame.payload.subarray(4);
    if (off !== b.got || off + chunk.length > b.len) return; // out of order or duplicate: wait for the stall timer
    b.data.set(chunk, off);
    b.got += chunk.length;
    const recent = this.recentFor(b.seq);
    if (!recent) return;
    this.clock.clearTimeout(b.timer);
    if (b.got < b.len) return this.armBlobStall(recent);
    this.blob = null;
    const content: ScreenContent = { kind: 'image', w: b.w, h: b.h, bits: b.data };
    this.after(MOTION.image, () => {
      this.set({ content });
      this.done(b.seq, recent, { ok: true });
    });
  }

  private armBlobStall(recent: Recent): void {
    const b = this.blob!;
    b.timer = this.after(TIMING.blobStall, () => {
      if (this.blob !== b) return;
      this.blob = null;
      this.done(b.seq, recent, { ok: false, code: 'blob_incomplete', msg: `${b.got}/${b.len} bytes` });
    });
  }

  private enqueue(ch: Channel, seq: number, recent: Recent, ms: number, start: () => void, finish: () => void): void {
    if (ch.queue.length >= ch.limit) return this.nak(seq, recent, 'busy', 'queue full');
    const wait = (ch.busy ? Math.max(0, ch.busyEnds - this.clock.now()) : 0) + ch.queue.reduce((a, j) => a + j.ms, 0);
    ch.queue.push({ seq, ms, start, finish: () => { finish(); this.done(seq, recent, { ok: true }); } });
    this.ack(seq, recent, wait + ms);
    this.pump(ch);
  }

  private pump(ch: Channel): void {
    if (ch.busy || ch.queue.length === 0) return;
    const job = ch.queue.shift()!;
    ch.busy = job;
    ch.busyEnds = this.clock.now() + job.ms;
    job.start();
    ch.timer = this.after(job.ms, () => {
      if (ch.busy !== job) return;
      ch.busy = null;
      job.finish();
      this.pump(ch);
    });
  }

  /** Stops motion and drops queued work (each dropped command reports done with `stopped`). */
  private stopAll(): void {
    for (const ch of [this.head, this.screen]) {
      const dropped = [...(ch.busy ? [ch.busy] : []), ...ch.queue];
      this.clock.clearTimeout(ch.timer);
      this.timers.delete(ch.timer);
      ch.busy = null;
      ch.queue = [];
      for (const job of dropped) {
        const r = this.recentFor(job.seq);
        if (r) this.done(job.seq, r, { ok: false, code: 'stopped', msg: 'sys.stop or sys.idle' });
      }
    }
    const c = this.state.content;
    // A drawing in progress is completed at once, so the picture is never left half-drawn.
    this.set({
      head: { ...this.state.head, gesture: null },
      content: c.kind === 'drawing' ? { ...c, drawn: c.strokes.length, drawing: null } : c,
    });
  }

  private startWatchdog(): void {
    const check = () => {
      if (!this.state.hostLost && this.clock.now() - this.lastHostRx > TIMING.deviceWatchdog) {
        // The host went away: rest (no face overlay, idle screen, head home).
        this.stopAll();
        this.set({ hostLost: true, face: null, content: { kind: 'idle' } });
      }
      this.after(1000, check);
    };
    this.after(1000, check);
  }

  // ---- output ---------------------------------------------------------------------------------

  private ack(seq: number, recent: Recent, ms: number): void {
    const bytes = encodeJsonFrame(FrameType.Ack, seq, { ms: Math.round(ms) });
    recent.ack = bytes;
    this.send(bytes);
  }

  private nak(seq: number, recent: Recent, code: DeviceErrorCode, msg: string): void {
    const bytes = encodeJsonFrame(FrameType.Ack, seq, { error: { code, msg } });
    recent.ack = bytes;
    this.send(bytes);
  }

  private doneAfter(seq: number, recent: Recent, ms: number): void {
    this.after(ms, () => this.done(seq, recent, { ok: true }));
  }

  private done(seq: number, recent: Recent, reply: Reply): void {
    if (this.faults.noDone) return;
    const body = reply.ok ? { ok: true } : { ok: false, error: { code: reply.code, msg: reply.msg } };
    const bytes = encodeJsonFrame(FrameType.Done, seq, body);
    recent.done = bytes;
    this.send(bytes);
  }

  private sendHello(): void {
    this.evtSeq = (this.evtSeq + 1) & 0xffff;
    // A lone delimiter first: ends any boot text in the host's buffer so the hello is not glued to it.
    this.wire?.(new Uint8Array([0]));
    this.send(encodeJsonFrame(FrameType.Event, this.evtSeq, this.helloBody()));
  }

  private send(bytes: Uint8Array): void {
    if (!this.wire || this.faults.mute) return;
    if (this.faults.corruptOut > 0) {
      this.faults.corruptOut--;
      bytes = bytes.slice();
      const i = Math.floor(bytes.length / 2);
      bytes[i] = bytes[i] ^ 0x55 || 0x01; // never a 0x00: the frame keeps its length
    }
    this.wire(bytes);
  }

  // ---- helpers --------------------------------------------------------------------------------

  private after(ms: number, fn: () => void): unknown {
    const gen = this.generation;
    const t = this.clock.setTimeout(() => {
      this.timers.delete(t);
      if (gen === this.generation) fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private set(patch: Partial<RobotState>): void {
    this.state = { ...this.state, ...patch };
    this.notify();
  }

  private notify(): void {
    for (const cb of [...this.listeners]) cb(this.state);
  }
}
