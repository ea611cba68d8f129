/**
 * The robot side of protocol v1 in plain TypeScript (no DOM): what a firmware author builds,
 * runnable in tests, in the e2e fake `navigator.serial`, and behind the on-screen robot.
 * Bytes in through `onBytes`, bytes out through the wire callback given to `powerOn`.
 * This file is the transport side (framing, duplicates, lanes, watchdog, Blob frames); what each
 * method does is in `methods.ts`. Time comes from an injected clock; faults can be injected to
 * test the host.
 */
import { systemClock, type Clock } from '../clock.ts';
import { encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload, nextSeq, type Frame } from '../../core/robot/frame.ts';
import { EXPRESSIONS, LIMITS, PROTOCOL_VERSION, TIMING, type DeviceErrorCode, type Hello } from '../../core/robot/messages.ts';
import { LostReplies, noFaults, type SimFaults } from './faults.ts';
import { Lane } from './lanes.ts';
import { methodHandler, type Params, type Reply, type Request, type SimControls } from './methods.ts';
import { MOTION } from './motion.ts';
import { initialRobotState, type RobotState, type ScreenContent } from './state.ts';

export interface SimOptions {
  clock?: Clock;
  serial?: string;
  /** Overrides for the hello (e.g. a robot without a head: `{gestures: [], servos: []}`). */
  hello?: Partial<Hello>;
  /** Random source for the boot id (the app passes Math.random; tests a fixed or stepping one). */
  random: () => number;
  /** Print a ROM boot banner before the hello, like an ESP32 does (default true). */
  bootBanner?: boolean;
  /** From power-on (or a reset) to the hello, ms (default MOTION.boot). */
  bootMs?: number;
}

const BOOT_BANNER = 'ESP-ROM:esp32s3-20210327\r\nBuild:Mar 27 2021\r\nrst:0x1 (POWERON),boot:0x8 (SPI_FAST_FLASH_BOOT)\r\nentry 0x403c9880\r\n';

interface Recent {
  key: string;
  ack?: Uint8Array;
  done?: Uint8Array;
}

export class FirmwareSim {
  state: RobotState = initialRobotState();
  readonly faults: SimFaults = noFaults();
  private readonly lost = new LostReplies(this.faults);
  private readonly clock: Clock;
  private readonly random: () => number;
  private wire: ((bytes: Uint8Array) => void) | null = null;
  private decoder = new FrameDecoder(() => this.bad());
  private listeners = new Set<(s: RobotState) => void>();
  private generation = 0;
  private timers = new Set<unknown>();
  private evtSeq = 0;
  private recent: Recent[] = [];
  private screen: Lane = this.lane(LIMITS.screenQueue);
  private head: Lane = this.lane(LIMITS.headQueue);
  private lastHostRx = 0;
  /** The drawing the latest draw.begin announced (strokes are checked against it on arrival). */
  private readonly drawing: SimControls['drawing'] = { id: null, animate: true };
  private blob: { seq: number; w: number; h: number; len: number; data: Uint8Array; got: number; timer: unknown } | null = null;

  constructor(private readonly opts: SimOptions) {
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random;
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
    this.state = { ...initialRobotState(), gestures: this.state.gestures, powered: true, boot: Math.floor(this.random() * 0xffffffff) >>> 0 || 1 };
    this.notify();
    if (this.opts.bootBanner !== false) this.wire?.(new TextEncoder().encode(BOOT_BANNER));
    this.after(this.opts.bootMs ?? MOTION.boot, () => {
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
    this.screen = this.lane(LIMITS.screenQueue);
    this.head = this.lane(LIMITS.headQueue);
    this.recent = [];
    this.recentSeqs = [];
    this.lost.clear();
    this.decoder = new FrameDecoder(() => this.bad());
    this.drawing.id = null;
    this.blob = null;
    this.evtSeq = 0;
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
    const key = Array.from(frame.payload, (b) => b.toString(16).padStart(2, '0')).join('');
    const body = jsonPayload(frame);
    const prev = this.recentFor(frame.seq);
    // sys.hello is always answered (it is idempotent); any other repeat is a retransmission.
    if (prev && prev.key === key && body?.method !== 'sys.hello') {
      // The host missed our ack: answer again, never run twice, and do not remember it again.
      if (prev.ack) this.out(frame.seq, prev.ack);
      if (prev.done) this.out(frame.seq, prev.done);
      return;
    }
    const recent: Recent = { key };
    this.remember(frame.seq, recent);
    if (!body || typeof body.method !== 'string') return this.nak(frame.seq, recent, 'bad_json', 'payload is not {method, params}');
    this.lost.arrived(frame.seq, body.method);
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

  /** Runs a method's handler (methods.ts); a method this robot does not know is refused. */
  private execute(seq: number, recent: Recent, method: string, p: Params): void {
    const req = this.request(seq, recent);
    const handler = methodHandler(method);
    if (!handler) return req.nak('unknown_method', method);
    handler(this.fw, p, req);
  }

  /** What the handlers may do to this robot. */
  private readonly fw: SimControls = {
    state: () => this.state,
    helloBody: () => this.helloBody(),
    set: (patch) => this.set(patch),
    stopAll: () => this.stopAll(),
    laneWait: (lane) => (lane === 'head' ? this.head : this.screen).wait(),
    sendHello: () => this.sendHello(),
    drawing: this.drawing,
    receiveImage: (req, w, h, len) => {
      this.blob = { seq: req.seq, w, h, len, data: new Uint8Array(len), got: 0, timer: undefined };
      this.armBlobStall(req);
    },
  };

  private request(seq: number, recent: Recent): Request {
    return {
      seq,
      ack: (ms) => this.ack(seq, recent, ms),
      nak: (code, msg) => this.nak(seq, recent, code, msg),
      done: (reply) => this.done(seq, recent, reply),
      finishAfter: (ms) => {
        this.ack(seq, recent, ms);
        this.after(ms, () => this.done(seq, recent, { ok: true }));
      },
      queue: (lane, ms, start = () => {}, finish = () => {}) => this.enqueue(lane === 'head' ? this.head : this.screen, seq, recent, ms, start, finish),
      forgetOthers: () => {
        this.recent = [recent];
        this.recentSeqs = [seq];
      },
    };
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
    const req = this.request(b.seq, recent);
    this.clock.clearTimeout(b.timer);
    if (b.got < b.len) return this.armBlobStall(req);
    this.blob = null;
    const content: ScreenContent = { kind: 'image', w: b.w, h: b.h, bits: b.data };
    // All bytes are here: the image takes its turn in the screen lane (already acked, never refused).
    this.enqueue(this.screen, b.seq, recent, MOTION.image, () => this.set({ content }), () => {}, false);
  }

  /** Ends a screen.image with `blob_incomplete` when no in-order Blob comes for a while. */
  private armBlobStall(req: Request): void {
    const b = this.blob!;
    b.timer = this.after(TIMING.blobStall, () => {
      if (this.blob !== b) return;
      this.blob = null;
      req.done({ ok: false, code: 'blob_incomplete', msg: `${b.got}/${b.len} bytes` });
    });
  }

  /** Queues a job on a lane and acks it with the time until it will be done (`ack` false: acked already). */
  private enqueue(ch: Lane, seq: number, recent: Recent, ms: number, start: () => void, finish: () => void, ack = true): void {
    if (ack && ch.full) return this.nak(seq, recent, 'busy', 'queue full');
    const wait = ch.wait();
    ch.push({ seq, ms, start, finish: () => { finish(); this.done(seq, recent, { ok: true }); } });
    if (ack) this.ack(seq, recent, wait + ms);
  }

  private lane(limit: number): Lane {
    return new Lane(limit, { now: () => this.clock.now() }, (ms, fn) => this.after(ms, fn), (t) => {
      this.clock.clearTimeout(t);
      this.timers.delete(t);
    });
  }

  /** Stops motion and drops queued work (each dropped command reports done with `stopped`). */
  private stopAll(): void {
    for (const ch of [this.head, this.screen]) {
      for (const job of ch.drop()) {
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
    if (this.lost.loseAck(seq)) return;
    this.out(seq, bytes);
  }

  private nak(seq: number, recent: Recent, code: DeviceErrorCode, msg: string): void {
    const bytes = encodeJsonFrame(FrameType.Ack, seq, { error: { code, msg } });
    recent.ack = bytes;
    if (this.lost.loseAck(seq)) return;
    this.out(seq, bytes);
  }

  private done(seq: number, recent: Recent, reply: Reply): void {
    if (this.faults.noDone) return;
    const body = reply.ok ? { ok: true } : { ok: false, error: { code: reply.code, msg: reply.msg } };
    const bytes = encodeJsonFrame(FrameType.Done, seq, body);
    recent.done = bytes;
    if (this.lost.loseDone(seq)) return;
    this.out(seq, bytes);
  }

  /** An Ack or Done for request `seq` (unless fault injection loses every reply to it). */
  private out(seq: number, bytes: Uint8Array): void {
    if (!this.lost.silent(seq)) this.send(bytes);
  }

  private sendHello(): void {
    // Event counter: 1 for the first event after boot, then +1, wrapping from 65535 to 1.
    this.evtSeq = nextSeq(this.evtSeq);
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
