/**
 * Finding the robot's port (docs/robot-protocol.md §1, §9): the ports granted earlier (page
 * reload), the browser's chooser on a tap, `connect` events on re-plug, and a retry timer while
 * a robot that was there is lost. Each port found is handed to `attach` (RobotLink, link.ts),
 * which opens a session on it; nothing here reads or writes a port.
 */
import type { Clock } from './clock.ts';
import type { LinkState } from '../core/robot/link-health.ts';
import type { SerialPortLike, SerialSource } from './serial-port.ts';

interface DiscoveryOptions {
  source: SerialSource;
  clock: Clock;
  /** How long to wait before trying the granted ports again while the robot is lost (ms). */
  retryMs: number;
  /** USB filters for the chooser (none: list every serial port). */
  filters?: SerialPortFilter[];
  /** Opens a session on a port; resolves true when a robot is ready on it. */
  attach(port: SerialPortLike): Promise<boolean>;
  /** The link's state now: plugs and retries matter only while no robot is ready or connecting. */
  state(): LinkState;
}

export class PortDiscovery {
  private unsubConnect: (() => void) | null = null;
  private retryTimer: unknown;
  private closed = false;

  constructor(private readonly opts: DiscoveryOptions) {}

  /** True after `stop()` until the next `watch()`. */
  get stopped(): boolean {
    return this.closed;
  }

  /** Listens for granted robots being plugged in (once, however often it is called). */
  watch(): void {
    this.closed = false;
    this.unsubConnect ??= this.opts.source.onConnect(() => {
      const s = this.opts.state();
      if (s !== 'ready' && s !== 'connecting') void this.tryGranted();
    });
  }

  /** The browser's chooser: must be called synchronously from a tap handler (user activation). */
  pick(): Promise<SerialPortLike> {
    return this.opts.source.requestPort(this.opts.filters);
  }

  /**
   * Tries every port granted earlier until a robot is ready on one; true when one is. When none
   * answers and the link is lost, tries again after `retryMs`.
   */
  async tryGranted(): Promise<boolean> {
    if (this.opts.state() === 'connecting' || this.closed) return false;
    let ports: SerialPortLike[];
    try {
      ports = await this.opts.source.getPorts();
    } catch {
      ports = [];
    }
    for (const port of ports) {
      if (this.closed || this.opts.state() === 'ready') return true;
      if (await this.opts.attach(port)) return true;
    }
    if (this.opts.state() === 'lost') this.retryLater();
    return false;
  }

  /** Tries the granted ports again after `retryMs` (replacing a retry already planned). */
  retryLater(): void {
    this.cancelRetry();
    if (this.closed) return;
    this.retryTimer = this.opts.clock.setTimeout(() => void this.tryGranted(), this.opts.retryMs);
  }

  cancelRetry(): void {
    this.opts.clock.clearTimeout(this.retryTimer);
  }

  /** Stops listening and retrying (the link was closed). */
  stop(): void {
    this.closed = true;
    this.unsubConnect?.();
    this.unsubConnect = null;
    this.cancelRetry();
  }
}
