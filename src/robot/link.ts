/**
 * The host side of the robot link (docs/robot-protocol.md): one robot, found by
 * `PortDiscovery` (port-discovery.ts: granted ports, the chooser, re-plugs, retries) and talked
 * to through one `LinkSession` per open port (link-session.ts: hello, heartbeat, acks and
 * dones). RobotLink keeps the state the app sees and decides what happens when a session ends.
 * Nothing here waits forever: every command ends in done, an error, or a timeout, and a lost
 * port fails what is in flight.
 */
import type { Capabilities } from '../core/robot/capabilities.ts';
import { capabilitiesFromHello } from '../core/robot/capabilities.ts';
import { systemClock, type Clock } from './clock.ts';
import { Emitter } from './emitter.ts';
import type { RobotErrorCode } from './errors.ts';
import { emptyLinkStats, type LinkState, type LinkStats } from '../core/robot/link-health.ts';
import { LinkSession, type LinkTiming } from './link-session.ts';
import { TIMING, type Command, type Hello } from '../core/robot/messages.ts';
import { PortDiscovery } from './port-discovery.ts';
import { robotError, type CommandHandle } from './requests.ts';
import type { SerialPortLike, SerialSource } from './serial-port.ts';

export type { LinkState };

interface LinkEvents extends Record<string, unknown> {
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
  timing?: Partial<LinkTiming>;
  /** The request window (docs/robot-protocol.md §3); default LIMITS.hostWindow. */
  window?: number;
}

export class RobotLink extends Emitter<LinkEvents> {
  state: LinkState = 'none';
  hello: Hello | null = null;
  capabilities: Capabilities = new Set();
  /** Link health since this link was created (the app session): shown in 设置 and the trace. */
  readonly stats: LinkStats;
  /** When the counters started (clock ms). */
  readonly statsSince: number;

  private readonly clock: Clock;
  private readonly t: LinkTiming;
  private readonly discovery: PortDiscovery;
  /** The session on the port in use (opening, ready, or closing after a loss). */
  private session: LinkSession | null = null;
  private attaching = false;

  constructor(private readonly opts: LinkOptions) {
    super();
    this.clock = opts.clock ?? systemClock;
    this.t = { ...TIMING, ...opts.timing };
    this.stats = emptyLinkStats(this.t.ackTimeout);
    this.statsSince = this.clock.now();
    this.discovery = new PortDiscovery({
      source: opts.source,
      clock: this.clock,
      retryMs: this.t.reconnectRetry,
      filters: opts.filters,
      attach: (port) => this.attach(port, true),
      state: () => this.state,
    });
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Listens for re-plugs and tries the ports granted earlier (page reload). Call once. */
  async start(): Promise<void> {
    this.discovery.watch();
    await this.discovery.tryGranted();
  }

  /** Connect from a tap: shows the chooser (must be called synchronously from the click handler). */
  async connectByTap(): Promise<boolean> {
    this.discovery.watch();
    let port: SerialPortLike;
    try {
      port = await this.discovery.pick();
    } catch (e) {
      this.emit('error', { code: 'robot_pick_cancelled', detail: String(e) });
      return false;
    }
    const current = this.session;
    if (current?.port === port && this.state === 'ready') return true;
    if (current) {
      // Another port was picked: the commands on the old one cannot finish there.
      current.failAll('robot_not_connected', 'another port was picked');
      await current.close();
      if (this.session === current) this.session = null;
    }
    return this.attach(port);
  }

  /** Sends one command. Rejects (via the handle) at once when no robot is ready. */
  send(command: Command): CommandHandle {
    if (this.state !== 'ready' || !this.session) {
      const e = robotError('robot_not_connected', `${command.method}: link is ${this.state}`);
      const acked = Promise.reject(e);
      const done = Promise.reject(e);
      acked.catch(() => {});
      done.catch(() => {});
      return { seq: 0, method: command.method, acked, done };
    }
    return this.session.send(command);
  }

  /**
   * Settles after the robot's next frame has been handled (a hello's reboot handling included),
   * or at once when no robot is ready, or when the session ends. After a request timed out this
   * tells a robot that is restarting (its next frame is a hello with a new boot id) from one that
   * is still there (a Pong of the same boot) or gone (the link is lost).
   */
  nextFrame(): Promise<void> {
    if (this.state !== 'ready' || !this.session) return Promise.resolve();
    return this.session.nextFrame();
  }

  /** Closes the port for good (no reconnect). */
  async close(): Promise<void> {
    this.discovery.stop();
    const session = this.session;
    session?.failAll('robot_not_connected', 'link closed');
    await session?.close();
    if (this.session === session) this.session = null;
    this.setState('none');
  }

  // ---- sessions -----------------------------------------------------------------------------

  /** Opens a session on `port`; `quiet` (granted ports, retries) reports no error for a port that is busy or silent. */
  private async attach(port: SerialPortLike, quiet = false): Promise<boolean> {
    if (this.attaching) return false;
    this.attaching = true;
    const wasLost = this.state === 'lost';
    try {
      this.setState('connecting');
      const session: LinkSession = new LinkSession(port, {
        clock: this.clock,
        timing: this.t,
        baudRate: this.opts.baudRate ?? 115200,
        window: this.opts.window,
        stats: this.stats,
        onEvent: (body) => this.emit('event', body),
        onRebooted: (hello) => this.rebooted(session, hello),
        onLost: (code, closed) => this.lost(session, code, closed),
      });
      this.session = session;
      const r = await session.open();
      if (!r.ok) {
        if (this.session === session) this.session = null;
        if (this.discovery.stopped) return false; // closed meanwhile: close() has set the state
        if (r.error?.code === 'robot_protocol_mismatch') {
          this.emit('error', r.error);
          this.setState('none');
          return false;
        }
        if (r.error && !quiet) this.emit('error', r.error);
        this.setState(wasLost ? 'lost' : 'none');
        return false;
      }
      session.start();
      this.becomeReady(r.hello, wasLost);
      return true;
    } finally {
      this.attaching = false;
    }
  }

  private becomeReady(hello: Hello, again: boolean): void {
    this.hello = hello;
    this.capabilities = capabilitiesFromHello(hello);
    this.stats.connects++;
    if (again) this.stats.reconnects++;
    this.discovery.cancelRetry();
    this.setState('ready');
    this.emit('ready', { hello, rebooted: false });
  }

  /** The robot restarted under a ready session (commands in flight already failed). */
  private rebooted(session: LinkSession, hello: Hello): void {
    if (session !== this.session) return;
    this.hello = hello;
    this.capabilities = capabilitiesFromHello(hello);
    this.stats.reconnects++;
    this.emit('ready', { hello, rebooted: true });
  }

  /** The ready session lost its port: 'lost' at once, the `lost` event and a retry once the port is closed. */
  private lost(session: LinkSession, code: RobotErrorCode, closed: Promise<void>): void {
    if (session !== this.session) return;
    void closed.then(() => {
      if (this.session !== session && this.session !== null) return; // a newer session has the link now
      this.session = null;
      if (this.discovery.stopped) return;
      this.setState('lost');
      this.emit('lost', { code });
      this.discovery.retryLater();
    });
    this.setState('lost');
  }

  private setState(s: LinkState): void {
    if (this.state === s) return;
    this.state = s;
    this.emit('state', s);
  }
}
