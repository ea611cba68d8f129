/**
 * Matches commands with their ack and done (docs/robot-protocol.md §3): sequence numbers, the
 * request window, retransmission on a lost ack, the ack and done timeouts, and failing
 * everything in flight when the link goes away. Pure apart from the injected clock and `write`.
 *
 * The window: counting from the oldest request still waiting for its Ack, at most `window`
 * requests have been sent; a request beyond that waits here, unsent, until an Ack (or a give-up)
 * moves the window on. A device that remembers its last 2 × `window` distinct requests therefore
 * always still knows a request the host retransmits, however fast other commands stream.
 *
 * A slow robot: an Ack that comes after the host gave up shows how slow it is; the ack timeout
 * for later requests grows to 1.5 × that delay (at most `ackTimeoutMax`).
 */
import { AgentcadeError } from '../core/errors/catalogue.ts';
import type { Clock } from './clock.ts';
import type { RobotErrorCode } from './errors.ts';
import { encodeJsonFrame, FrameType, jsonPayload, nextSeq, type Frame } from '../core/robot/frame.ts';
import { emptyLinkStats, type LinkStats } from '../core/robot/link-health.ts';
import { LIMITS, TIMING, type Command, type DeviceError } from '../core/robot/messages.ts';

export interface CommandHandle {
  seq: number;
  method: string;
  /** Resolves with the device's time estimate (ms) once acknowledged. */
  acked: Promise<number>;
  /** Resolves when the device reports the command done. */
  done: Promise<void>;
}

interface TrackerTiming {
  ackTimeout: number;
  ackTimeoutMax: number;
  ackRetries: number;
  doneMargin: number;
  /** Requests in the window (see above). */
  window: number;
}

interface Pending {
  seq: number;
  method: string;
  bytes: Uint8Array;
  tries: number;
  acked: boolean;
  /** Position in sending order (first transmission); -1 while waiting for the window. */
  order: number;
  sentAt: number;
  timer: unknown;
  ack: { resolve(ms: number): void; reject(e: Error): void };
  done: { resolve(): void; reject(e: Error): void };
}

/** A request the host gave up on: what a late Ack or Done for it is matched against. */
interface GaveUp {
  method: string;
  sentAt: number;
}

/** A command that did not complete; `device` is the robot's own error code (NAK or failed Done). */
export class RobotCommandError extends AgentcadeError {
  constructor(
    code: RobotErrorCode,
    detail?: string,
    readonly device?: string,
  ) {
    super(code, detail);
  }
}

export function robotError(code: RobotErrorCode, detail?: string, device?: string): RobotCommandError {
  return new RobotCommandError(code, detail, device);
}

/** The robot's error code (`busy`, `bad_params`, `stopped`, …) of a failed command, when it gave one. */
export function deviceCode(e: unknown): string | undefined {
  return e instanceof RobotCommandError ? e.device : undefined;
}

function deviceErrorText(e: unknown): string {
  const err = e as DeviceError | undefined;
  if (!err || typeof err !== 'object') return 'unknown';
  return err.msg ? `${err.code}: ${err.msg}` : String(err.code);
}

const GAVE_UP_KEPT = 64;

export class RequestTracker {
  private pending = new Map<number, Pending>();
  /** Waiting for the window, in call order. */
  private waiting: Pending[] = [];
  private gaveUp = new Map<number, GaveUp>();
  private upcomingSeq = 1;
  private sentCount = 0;
  private readonly timing: TrackerTiming;
  private ackTimeout: number;

  constructor(
    private readonly clock: Clock,
    private readonly write: (bytes: Uint8Array) => void,
    timing: Partial<TrackerTiming> = {},
    /** Counted into (the link's health counters). */
    readonly stats: LinkStats = emptyLinkStats(),
  ) {
    this.timing = {
      ackTimeout: TIMING.ackTimeout,
      ackTimeoutMax: TIMING.ackTimeoutMax,
      ackRetries: TIMING.ackRetries,
      doneMargin: TIMING.doneMargin,
      window: LIMITS.hostWindow,
      ...timing,
    };
    this.ackTimeout = this.timing.ackTimeout;
    stats.ackTimeoutMs = this.ackTimeout;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Next free sequence number (1…65535, never 0, never one still in flight). */
  allocSeq(): number {
    for (;;) {
      const seq = this.upcomingSeq;
      this.upcomingSeq = nextSeq(seq);
      if (!this.pending.has(seq)) return seq;
    }
  }

  send(command: Command): CommandHandle {
    const seq = this.allocSeq();
    const bytes = encodeJsonFrame(FrameType.Request, seq, command);
    let ack!: Pending['ack'];
    let done!: Pending['done'];
    const acked = new Promise<number>((resolve, reject) => (ack = { resolve, reject }));
    const donePromise = new Promise<void>((resolve, reject) => (done = { resolve, reject }));
    // Callers often await only one of the two; the other must not become an unhandled rejection.
    acked.catch(() => {});
    donePromise.catch(() => {});
    const p: Pending = { seq, method: command.method, bytes, tries: 0, acked: false, order: -1, sentAt: 0, timer: undefined, ack, done };
    this.pending.set(seq, p);
    this.waiting.push(p);
    if (!this.pump()) this.stats.windowWaits++;
    return { seq, method: command.method, acked, done: donePromise };
  }

  /** Feeds an Ack or Done frame; returns false when it matched nothing (late, duplicate, or foreign). */
  onFrame(frame: Frame): boolean {
    const p = this.pending.get(frame.seq);
    if (!p || p.order < 0) {
      this.late(frame);
      return false;
    }
    const parsed = jsonPayload(frame);
    if (!parsed) this.stats.malformed++;
    const body = parsed ?? {};
    if (frame.type === FrameType.Ack) {
      if (p.acked) return true; // duplicate ack after a retransmit
      this.noteAckDelay(this.clock.now() - p.sentAt);
      if (body.error !== undefined) {
        const device = (body.error as DeviceError | undefined)?.code;
        this.stats.refused++;
        if (device === 'busy') this.stats.busy++;
        this.finish(p, robotError('robot_refused', `${p.method} refused: ${deviceErrorText(body.error)}`, typeof device === 'string' ? device : undefined));
        return true;
      }
      const ms = typeof body.ms === 'number' && body.ms >= 0 ? body.ms : 0;
      p.acked = true;
      p.ack.resolve(ms);
      this.clock.clearTimeout(p.timer);
      p.timer = this.clock.setTimeout(() => {
        this.stats.doneTimeouts++;
        this.finish(p, robotError('robot_done_timeout', `${p.method} not done within ${ms} + ${this.timing.doneMargin} ms`), true);
      }, ms + this.timing.doneMargin);
      this.pump();
      return true;
    }
    if (frame.type === FrameType.Done) {
      if (!p.acked) {
        p.acked = true; // the ack was lost but the done says it all
        p.ack.resolve(0);
      }
      if (body.ok === false) {
        const device = (body.error as DeviceError | undefined)?.code;
        this.stats.failed++;
        this.finish(p, robotError('robot_failed', `${p.method} failed: ${deviceErrorText(body.error)}`, typeof device === 'string' ? device : undefined));
      } else this.finish(p);
      return true;
    }
    return false;
  }

  /** Fails every command in flight or waiting for the window (unplug, stale link, reboot, close). */
  failAll(code: RobotErrorCode, detail?: string): void {
    const all = [...this.pending.values()];
    this.waiting = [];
    for (const p of all) this.finish(p, robotError(code, detail ?? `${p.method}: ${code}`));
  }

  // ---- the window ---------------------------------------------------------------------------

  /** Sends what the window allows; false when a request is left waiting. */
  private pump(): boolean {
    while (this.waiting.length > 0) {
      if (!this.windowOpen()) return false;
      this.transmit(this.waiting.shift()!);
    }
    return true;
  }

  private windowOpen(): boolean {
    let oldest = Infinity;
    for (const p of this.pending.values()) if (p.order >= 0 && !p.acked && p.order < oldest) oldest = p.order;
    return oldest === Infinity || this.sentCount - oldest < this.timing.window;
  }

  private transmit(p: Pending): void {
    p.order = this.sentCount++;
    p.sentAt = this.clock.now();
    p.tries = 1;
    this.stats.requests++;
    this.armAck(p);
    this.write(p.bytes);
  }

  private armAck(p: Pending): void {
    p.timer = this.clock.setTimeout(() => {
      if (p.acked || !this.pending.has(p.seq)) return;
      if (p.tries <= this.timing.ackRetries) {
        p.tries++;
        this.stats.resends++;
        this.armAck(p);
        this.write(p.bytes); // same seq: the device answers a duplicate without running it twice
      } else {
        this.stats.ackTimeouts++;
        this.finish(p, robotError('robot_ack_timeout', `${p.method}: no ack after ${p.tries} tries (${this.ackTimeout} ms each)`), true);
      }
    }, this.ackTimeout);
  }

  // ---- slow robots ----------------------------------------------------------------------------

  private noteAckDelay(ms: number): void {
    if (ms > this.stats.slowestAckMs) this.stats.slowestAckMs = ms;
  }

  /** An Ack or Done for a request given up on: count it, and let a late Ack lengthen the ack timeout. */
  private late(frame: Frame): void {
    const g = this.gaveUp.get(frame.seq);
    if (!g) return;
    this.gaveUp.delete(frame.seq);
    this.stats.lateReplies++;
    if (frame.type !== FrameType.Ack) return;
    const delay = this.clock.now() - g.sentAt;
    this.noteAckDelay(delay);
    const longer = Math.min(this.timing.ackTimeoutMax, Math.ceil((delay * 1.5) / 100) * 100);
    if (longer > this.ackTimeout) {
      this.ackTimeout = longer;
      this.stats.ackTimeoutMs = longer;
    }
  }

  private finish(p: Pending, error?: Error, gaveUp = false): void {
    if (this.pending.get(p.seq) !== p) return;
    this.pending.delete(p.seq);
    this.clock.clearTimeout(p.timer);
    if (gaveUp) {
      this.gaveUp.set(p.seq, { method: p.method, sentAt: p.sentAt });
      if (this.gaveUp.size > GAVE_UP_KEPT) this.gaveUp.delete(this.gaveUp.keys().next().value!);
    }
    if (error) {
      if (!p.acked) p.ack.reject(error);
      p.done.reject(error);
    } else p.done.resolve();
    this.pump();
  }
}
