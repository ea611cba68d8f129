/**
 * The host side of the robot link (docs/robot-protocol.md): opens a port from any
 * `SerialSource`, waits for the hello, keeps a heartbeat, matches acks and dones, and
 * reconnects by itself (re-plug, reload, stale link). Nothing here waits forever: every
 * command ends in done, an error, or a timeout, and a lost port fails what is in flight.
 */
import type { Capabilities } from '../core/robot/capabilities.ts';
import { capabilitiesFromHello } from '../core/robot/capabilities.ts';
import { systemClock, type Clock } from './clock.ts';
import { Emitter } from './emitter.ts';
import type { RobotErrorCode } from './errors.ts';
import { encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload, type Frame } from '../core/robot/frame.ts';
import { isHello, PROTOCOL_VERSION, TIMING, type Command, type Hello } from '../core/robot/messages.ts';
import { RequestTracker, robotError, type CommandHandle } from './requests.ts';
import type { SerialPortLike, SerialSource } from './serial-port.ts';

export type LinkState =
  /** No robot: never connected, or given up. */
  | 'none'
  /** Port opening, waiting for the hello. */
  | 'connecting'
  | 'ready'
  /** Was ready, lost it (unplug, stale heartbeat); trying to get it back. */
  | 'lost';

export interface LinkEvents extends Record<string, unknown> {
  state: LinkState;
  /** The hello of a (re)connected robot; `rebooted` when the same link saw a new boot id. */
  ready: { hello: Hello; rebooted: boolean };
  /** The link dropped; in-flight commands failed with this code. */
  lost: { code: RobotErrorCode };
  /** A connect attempt failed (chooser cancelled, port busy, no hello, wrong protocol). */
  error: { code: RobotErrorCode; detail: string };
  /** Any device event other than hello (fault, log, state). */
  event: Record<string, unknown>;
}

export interface LinkOptions {
  source: SerialSource;
  clock?: Clock;
  baudRate?: number;
  /** USB filters for the chooser (none: list every serial port). */
  filters?: SerialPortFilter[];
  timing?: Partial<Record<keyof typeof TIMING, number>>;
}

export interface LinkStats {
  crcErrors: number;
  junk: number;
  frames: number;
  connects: number;
}

export class RobotLink extends Emitter<LinkEvents> {
  state: LinkState = 'none';
  hello: Hello | null = null;
  capabilities: Capabilities = new Set();
  readonly stats: LinkStats = { crcErrors: 0, junk: 0, frames: 0, connects: 0 };

  private readonly clock: Clock;
  private readonly t: Record<keyof typeof TIMING, number>;
  private port: SerialPortLike | null = null;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  private readLoop: Promise<void> = Promise.resolve();
  private writeChain: Promise<void> = Promise.resolve();
  private tracker: RequestTracker;
  private decoder = this.newDecoder();
  private lastRx = 0;
  private pingSeq = 0;
  private heartbeat: unknown;
  private retryTimer: unknown;
  private helloWaiter: { resolve(h: Hello | null): void } | null = null;
  private detaching: Promise<void> | null = null;
  private unsubConnect: (() => void) | null = null;
  private onPortDisconnect = () => this.lose('robot_unplugged');
  private attaching = false;
  private stopped = false;

  constructor(private readonly opts: LinkOptions) {
    super();
    this.clock = opts.clock ?? systemClock;
    this.t = { ...TIMING, ...opts.timing };
    this.tracker = this.newTracker();
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Listens for re-plugs and tries the ports granted earlier (page reload). Call once. */
  async start(): Promise<void> {
    this.stopped = false;
    this.watchPlugs();
    await this.tryGranted();
  }

  private watchPlugs(): void {
    this.unsubConnect ??= this.opts.source.onConnect(() => {
      if (this.state !== 'ready' && this.state !== 'connecting') void this.tryGranted();
    });
  }

  /** Connect from a tap: shows the chooser (must be called synchronously from the click handler). */
  async connectByTap(): Promise<boolean> {
    this.stopped = false;
    this.watchPlugs();
    let port: SerialPortLike;
    try {
      port = await this.opts.source.requestPort(this.opts.filters);
    } catch (e) {
      this.emit('error', { code: 'robot_pick_cancelled', detail: String(e) });
      return false;
    }
    if (this.port === port && this.state === 'ready') return true;
    if (this.port) await this.detach();
    return this.attach(port);
  }

  /** Sends one command. Rejects (via the handle) at once when no robot is ready. */
  send(command: Command): CommandHandle {
    if (this.state !== 'ready') {
      const e = robotError('robot_not_connected', `${command.method}: link is ${this.state}`);
      const acked = Promise.reject(e);
      const done = Promise.reject(e);
      acked.catch(() => {});
      done.catch(() => {});
      return { seq: 0, method: command.method, acked, done };
    }
    return this.tracker.send(command);
  }

  /** Closes the port for good (no reconnect). */
  async close(): Promise<void> {
    this.stopped = true;
    this.unsubConnect?.();
    this.unsubConnect = null;
    this.clock.clearTimeout(this.retryTimer);
    this.tracker.failAll('robot_not_connected', 'link closed');
    await this.detach();
    this.setState('none');
  }

  // ---- connecting ---------------------------------------------------------------------------

  private async tryGranted(): Promise<boolean> {
    if (this.attaching || this.stopped) return false;
    let ports: SerialPortLike[];
    try {
      ports = await this.opts.source.getPorts();
    } catch {
      ports = [];
    }
    for (const port of ports) {
      if (this.stopped || this.state === 'ready') return true;
      if (await this.attach(port, true)) return true;
    }
    if (this.state === 'lost') this.scheduleRetry();
    return false;
  }

  private scheduleRetry(): void {
    this.clock.clearTimeout(this.retryTimer);
    if (this.stopped) return;
    this.retryTimer = this.clock.setTimeout(() => void this.tryGranted(), this.t.reconnectRetry);
  }

  private async attach(port: SerialPortLike, quiet = false): Promise<boolean> {
    if (this.attaching) return false;
    this.attaching = true;
    const wasLost = this.state === 'lost';
    try {
      this.setState('connecting');
      try {
        await port.open({ baudRate: this.opts.baudRate ?? 115200, bufferSize: 16384 });
      } catch (e) {
        if (!quiet) this.emit('error', { code: 'robot_port_busy', detail: String(e) });
        this.setState(wasLost ? 'lost' : 'none');
        return false;
      }
      // USB-UART bridges reset ESP32/Arduino boards on DTR/RTS; native CDC firmware must not depend on them.
      await port.setSignals?.({ dataTerminalReady: false, requestToSend: false }).catch(() => {});
      if (!port.readable || !port.writable) {
        await port.close().catch(() => {});
        this.setState(wasLost ? 'lost' : 'none');
        return false;
      }
      this.port = port;
      this.tracker = this.newTracker();
      this.decoder = this.newDecoder();
      this.writer = port.writable.getWriter();
      this.writeChain = Promise.resolve();
      port.addEventListener?.('disconnect', this.onPortDisconnect);
      this.readLoop = this.runReadLoop(port);
      // A lone delimiter: ends whatever partial input the robot may hold, so our first frame is clean.
      this.writeRaw(new Uint8Array([0]));
      const hello = await this.waitForHello();
      if (!hello) {
        await this.detach();
        if (!quiet) this.emit('error', { code: 'robot_no_hello', detail: 'no hello within timeout' });
        this.setState(wasLost ? 'lost' : 'none');
        return false;
      }
      if (Math.floor(hello.proto) !== PROTOCOL_VERSION) {
        await this.detach();
        this.emit('error', { code: 'robot_protocol_mismatch', detail: `robot proto ${hello.proto}, app ${PROTOCOL_VERSION}` });
        this.setState('none');
        return false;
      }
      this.becomeReady(hello, false);
      return true;
    } finally {
      this.attaching = false;
    }
  }

  private waitForHello(): Promise<Hello | null> {
    return new Promise((resolve) => {
      const deadline = this.clock.now() + this.t.helloTimeout;
      let timer: unknown;
      const finish = (h: Hello | null) => {
        this.clock.clearTimeout(timer);
        this.helloWaiter = null;
        resolve(h);
      };
      this.helloWaiter = { resolve: finish };
      // A robot that booted long ago will not greet on its own: ask, and ask again (boot garbage, DTR reset).
      const ask = () => {
        if (!this.helloWaiter || !this.port) return finish(null);
        if (this.clock.now() >= deadline) return finish(null);
        const seq = this.tracker.allocSeq();
        this.writeRaw(encodeJsonFrame(FrameType.Request, seq, { method: 'sys.hello', params: {} }));
        timer = this.clock.setTimeout(ask, this.t.helloRetry);
      };
      ask();
    });
  }

  private becomeReady(hello: Hello, rebooted: boolean): void {
    this.hello = hello;
    this.capabilities = capabilitiesFromHello(hello);
    this.lastRx = this.clock.now();
    this.stats.connects++;
    this.clock.clearTimeout(this.retryTimer);
    this.startHeartbeat();
    this.setState('ready');
    this.emit('ready', { hello, rebooted });
  }

  // ---- running ------------------------------------------------------------------------------

  private async runReadLoop(port: SerialPortLike): Promise<void> {
    // Non-fatal errors (framing, overrun) replace port.readable; a lost device sets it to null.
    while (port.readable && this.port === port) {
      const reader = port.readable.getReader();
      this.reader = reader;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value) this.onBytes(value);
        }
      } catch {
        // fall through: the outer loop decides (readable null → lost)
      } finally {
        reader.releaseLock();
        if (this.reader === reader) this.reader = null;
      }
      if (this.port !== port || this.closingPort === port) return;
    }
    if (this.port === port && this.closingPort !== port) this.lose('robot_unplugged');
  }

  private closingPort: SerialPortLike | null = null;

  /** A decoder whose line problems count into the link's stats (the decoder classifies them). */
  private newDecoder(): FrameDecoder {
    return new FrameDecoder((p) => {
      if (p === 'crc') this.stats.crcErrors++;
      else this.stats.junk++;
    });
  }

  private onBytes(bytes: Uint8Array): void {
    for (const f of this.decoder.push(bytes)) this.onFrame(f);
  }

  private onFrame(frame: Frame): void {
    this.stats.frames++;
    this.lastRx = this.clock.now();
    if (frame.type === FrameType.Ack || frame.type === FrameType.Done) {
      this.tracker.onFrame(frame);
      return;
    }
    if (frame.type !== FrameType.Event) return; // Pong: lastRx is all it is for
    const body = jsonPayload(frame);
    if (!body) return;
    if (isHello(body)) {
      if (this.helloWaiter) return this.helloWaiter.resolve(body);
      if (this.state === 'ready' && this.hello && body.boot !== this.hello.boot) {
        // The robot restarted under us: whatever it was doing is gone.
        this.tracker.failAll('robot_rebooted', 'the robot sent a new hello (new boot id)');
        this.becomeReadyAgain(body);
      }
      return;
    }
    this.emit('event', body);
  }

  private becomeReadyAgain(hello: Hello): void {
    this.hello = hello;
    this.capabilities = capabilitiesFromHello(hello);
    this.emit('ready', { hello, rebooted: true });
  }

  private startHeartbeat(): void {
    this.clock.clearTimeout(this.heartbeat);
    const beat = () => {
      if (this.state !== 'ready') return;
      if (this.clock.now() - this.lastRx > this.t.staleAfter) return this.lose('robot_link_stale');
      this.pingSeq = this.pingSeq >= 0xffff ? 1 : this.pingSeq + 1;
      this.writeRaw(encodeFrame(FrameType.Ping, this.pingSeq));
      this.heartbeat = this.clock.setTimeout(beat, this.t.pingInterval);
    };
    this.heartbeat = this.clock.setTimeout(beat, this.t.pingInterval);
  }

  private writeRaw(bytes: Uint8Array): void {
    const writer = this.writer;
    if (!writer) return;
    this.writeChain = this.writeChain.then(async () => {
      try {
        await writer.ready;
        await writer.write(bytes);
      } catch {
        if (this.writer === writer) this.lose('robot_unplugged');
      }
    });
  }

  private newTracker(): RequestTracker {
    return new RequestTracker(this.clock, (b) => this.writeRaw(b), {
      ackTimeout: this.t.ackTimeout,
      ackRetries: this.t.ackRetries,
      doneMargin: this.t.doneMargin,
    });
  }

  // ---- losing and closing -------------------------------------------------------------------

  private lose(code: RobotErrorCode): void {
    if (!this.port || this.closingPort === this.port) return;
    const wasReady = this.state === 'ready';
    this.clock.clearTimeout(this.heartbeat);
    this.tracker.failAll(code);
    this.helloWaiter?.resolve(null);
    void this.detach().then(() => {
      if (this.stopped) return;
      if (wasReady) {
        this.setState('lost');
        this.emit('lost', { code });
        this.scheduleRetry();
      }
    });
    if (wasReady) this.setState('lost');
  }

  /** Close order matters (WICG/serial): reader cancel → release → writer close → release → port close. */
  private detach(): Promise<void> {
    this.detaching ??= this.closePort().finally(() => (this.detaching = null));
    return this.detaching;
  }

  private async closePort(): Promise<void> {
    const port = this.port;
    if (!port) return;
    this.closingPort = port;
    this.clock.clearTimeout(this.heartbeat);
    port.removeEventListener?.('disconnect', this.onPortDisconnect);
    const reader = this.reader;
    if (reader) {
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    await this.readLoop.catch(() => {});
    const writer = this.writer;
    this.writer = null;
    if (writer) {
      await this.writeChain.catch(() => {});
      await writer.close().catch(() => writer.abort().catch(() => {}));
      writer.releaseLock();
    }
    await port.close().catch(() => {});
    this.port = null;
    this.closingPort = null;
    this.decoder.reset();
  }

  private setState(s: LinkState): void {
    if (this.state === s) return;
    this.state = s;
    this.emit('state', s);
  }
}
