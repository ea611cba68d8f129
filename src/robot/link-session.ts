/**
 * One session over one open port (docs/robot-protocol.md §2–5): opens the port (its streams:
 * port-streams.ts), reads frames, asks for the hello, keeps the heartbeat, matches acks and
 * dones, and closes the port. A session never reopens its port: when the port goes away it fails
 * what is in flight, closes, and reports `lost`; finding a port again is `port-discovery.ts`'s job
 * and deciding what to do is `RobotLink`'s (link.ts).
 */
import type { Clock } from './clock.ts';
import type { RobotErrorCode } from './errors.ts';
import { encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload, nextSeq, type Frame } from '../core/robot/frame.ts';
import type { LinkStats } from '../core/robot/link-health.ts';
import { isHello, LIMITS, PROTOCOL_VERSION, type Command, type Hello, type TIMING } from '../core/robot/messages.ts';
import { openPortStreams, type PortStreams } from './port-streams.ts';
import { RequestTracker, type CommandHandle } from './requests.ts';
import type { SerialPortLike } from './serial-port.ts';

export type LinkTiming = Record<keyof typeof TIMING, number>;

interface SessionOptions {
  clock: Clock;
  timing: LinkTiming;
  baudRate: number;
  /** The request window (docs/robot-protocol.md §3); default LIMITS.hostWindow. */
  window?: number;
  /** Counted into by every session of a link (line problems, frames, resends, timeouts, losses). */
  stats: LinkStats;
  /** A device event other than hello (fault, log, state). */
  onEvent(body: Record<string, unknown>): void;
  /** A hello with a new boot id while ready: the robot restarted; commands in flight failed with `robot_rebooted`. */
  onRebooted(hello: Hello): void;
  /** The port went away while ready (unplug, write failure, stale heartbeat); commands in flight failed with `code`. `closed` settles once the port is closed. */
  onLost(code: RobotErrorCode, closed: Promise<void>): void;
}

/** Why opening failed; no `error` when the port opened without streams (nothing to tell the user). */
type OpenResult = { ok: true; hello: Hello } | { ok: false; error?: { code: RobotErrorCode; detail: string } };

export class LinkSession {
  private phase: 'opening' | 'ready' = 'opening';
  /** Set the moment closing starts (never cleared: a session is not reopened). */
  private closed = false;
  private streams: PortStreams | null = null;
  private readonly tracker: RequestTracker;
  private readonly decoder: FrameDecoder;
  private lastRx = 0;
  private pingSeq = 0;
  private heartbeat: unknown;
  private helloWaiter: { resolve(h: Hello | null): void } | null = null;
  private closing: Promise<void> | null = null;
  private hello: Hello | null = null;
  /** Waiting for the next frame the robot sends (see `nextFrame`). */
  private frameWaiters: Array<() => void> = [];

  constructor(
    readonly port: SerialPortLike,
    private readonly opts: SessionOptions,
  ) {
    const t = opts.timing;
    this.tracker = new RequestTracker(
      opts.clock,
      (b) => this.writeRaw(b),
      { ackTimeout: t.ackTimeout, ackTimeoutMax: t.ackTimeoutMax, ackRetries: t.ackRetries, doneMargin: t.doneMargin, window: opts.window ?? LIMITS.hostWindow },
      opts.stats,
    );
    // Line problems count into the link's stats (the decoder classifies them).
    this.decoder = new FrameDecoder((p) => {
      if (p === 'crc') opts.stats.crcErrors++;
      else opts.stats.junk++;
    });
  }

  /** Opens the port and waits for the robot's hello (asking for it). On failure the port is closed again. */
  async open(): Promise<OpenResult> {
    const opening = await openPortStreams(this.port, this.opts.baudRate);
    if ('failed' in opening) {
      this.closed = true;
      this.closing = Promise.resolve();
      return opening.failed === 'open' ? { ok: false, error: { code: 'robot_port_busy', detail: String(opening.error) } } : { ok: false };
    }
    this.streams = opening.streams;
    // Closed while the port was opening (close() found no streams to close): nothing to tell, as after any close.
    if (this.closed) {
      await opening.streams.close();
      return { ok: false };
    }
    opening.streams.read(
      (bytes) => this.onBytes(bytes),
      () => this.lose('robot_unplugged'),
    );
    // A lone delimiter: ends whatever partial input the robot may hold, so our first frame is clean.
    this.writeRaw(new Uint8Array([0]));
    const hello = await this.waitForHello();
    // Lost or closed while the hello was on its way: not a session to use.
    if (!hello || this.closed) {
      await this.close();
      return { ok: false, error: { code: 'robot_no_hello', detail: 'no hello within timeout' } };
    }
    if (Math.floor(hello.proto) !== PROTOCOL_VERSION) {
      await this.close();
      return { ok: false, error: { code: 'robot_protocol_mismatch', detail: `robot proto ${hello.proto}, app ${PROTOCOL_VERSION}` } };
    }
    this.hello = hello;
    return { ok: true, hello };
  }

  /** After a successful open: the session is in use; the heartbeat starts and reboots are watched. */
  start(): void {
    if (this.closed || this.phase !== 'opening' || !this.hello) return;
    this.phase = 'ready';
    this.lastRx = this.opts.clock.now();
    this.startHeartbeat();
  }

  get ready(): boolean {
    return this.phase === 'ready' && !this.closed;
  }

  send(command: Command): CommandHandle {
    return this.tracker.send(command);
  }

  /**
   * Settles after the next valid frame from the robot has been handled (a Pong, an Ack, a hello:
   * a new hello's reboot handling has run by then), or when the session ends. Within a ready
   * session it settles in about `pingInterval` (the heartbeat's Pong) or `staleAfter` (lost).
   */
  nextFrame(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.frameWaiters.push(resolve));
  }

  /** Fails every command in flight. */
  failAll(code: RobotErrorCode, detail?: string): void {
    this.tracker.failAll(code, detail);
  }

  /** Stops the heartbeat and closes the port (port-streams.ts keeps the order Web Serial needs). */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      this.closing = this.closePort();
    }
    return this.closing;
  }

  // ---- hello ----------------------------------------------------------------------------------

  private waitForHello(): Promise<Hello | null> {
    const { clock } = this.opts;
    return new Promise((resolve) => {
      const deadline = clock.now() + this.opts.timing.helloTimeout;
      let timer: unknown;
      const finish = (h: Hello | null) => {
        clock.clearTimeout(timer);
        this.helloWaiter = null;
        resolve(h);
      };
      this.helloWaiter = { resolve: finish };
      // A robot that booted long ago will not greet on its own: ask, and ask again (boot garbage, DTR reset).
      const ask = () => {
        if (!this.helloWaiter || this.closed) return finish(null);
        if (clock.now() >= deadline) return finish(null);
        const seq = this.tracker.allocSeq();
        this.writeRaw(encodeJsonFrame(FrameType.Request, seq, { method: 'sys.hello', params: {} }));
        timer = clock.setTimeout(ask, this.opts.timing.helloRetry);
      };
      ask();
    });
  }

  // ---- reading ----------------------------------------------------------------------------------

  private onBytes(bytes: Uint8Array): void {
    let framed = false;
    for (const f of this.decoder.push(bytes)) {
      framed = true;
      this.onFrame(f);
    }
    if (framed) this.wakeFrameWaiters();
  }

  private wakeFrameWaiters(): void {
    for (const wake of this.frameWaiters.splice(0)) wake();
  }

  private onFrame(frame: Frame): void {
    this.opts.stats.frames++;
    this.lastRx = this.opts.clock.now();
    if (frame.type === FrameType.Ack || frame.type === FrameType.Done) {
      this.tracker.onFrame(frame);
      return;
    }
    if (frame.type !== FrameType.Event) return; // Pong: lastRx is all it is for
    const body = jsonPayload(frame);
    if (!body) return;
    if (isHello(body)) {
      if (this.helloWaiter) return this.helloWaiter.resolve(body);
      if (this.ready && this.hello && body.boot !== this.hello.boot) {
        // The robot restarted under us: whatever it was doing is gone.
        this.opts.stats.reboots++;
        this.tracker.failAll('robot_rebooted', 'the robot sent a new hello (new boot id)');
        this.hello = body;
        this.opts.onRebooted(body);
      }
      return;
    }
    this.opts.onEvent(body);
  }

  // ---- heartbeat and writing ----------------------------------------------------------------------

  private startHeartbeat(): void {
    const { clock, timing } = this.opts;
    clock.clearTimeout(this.heartbeat);
    const beat = () => {
      if (!this.ready) return;
      if (clock.now() - this.lastRx > timing.staleAfter) return this.lose('robot_link_stale');
      this.pingSeq = nextSeq(this.pingSeq);
      this.writeRaw(encodeFrame(FrameType.Ping, this.pingSeq));
      this.heartbeat = clock.setTimeout(beat, timing.pingInterval);
    };
    this.heartbeat = clock.setTimeout(beat, timing.pingInterval);
  }

  /** A write that fails means the port went away; once the session is closing, lose() does nothing. */
  private writeRaw(bytes: Uint8Array): void {
    void this.streams?.write(bytes).catch(() => this.lose('robot_unplugged'));
  }

  // ---- losing and closing -------------------------------------------------------------------------

  /** The port went away: fail what is in flight, close, and (when the session was in use) report it. */
  private lose(code: RobotErrorCode): void {
    if (this.closed) return;
    const wasReady = this.ready;
    if (wasReady && code === 'robot_link_stale') this.opts.stats.stale++;
    else if (wasReady) this.opts.stats.unplugs++;
    this.opts.clock.clearTimeout(this.heartbeat);
    this.tracker.failAll(code);
    this.helloWaiter?.resolve(null);
    const closed = this.close();
    if (wasReady) this.opts.onLost(code, closed);
  }

  private async closePort(): Promise<void> {
    this.opts.clock.clearTimeout(this.heartbeat);
    this.wakeFrameWaiters();
    this.helloWaiter?.resolve(null);
    if (this.streams) await this.streams.close();
    else await this.port.close().catch(() => {});
    this.decoder.reset();
  }
}
