/**
 * Matches commands with their ack and done (docs/robot-protocol.md §3): sequence numbers,
 * retransmission on a lost ack, the ack and done timeouts, and failing everything in flight
 * when the link goes away. Pure apart from the injected clock and `write`.
 */
import { AgentcadeError } from '../core/errors/catalogue.ts';
import type { Clock } from './clock.ts';
import type { RobotErrorCode } from './errors.ts';
import './errors.ts';
import { encodeJsonFrame, FrameType, jsonPayload, type Frame } from '../core/robot/frame.ts';
import { TIMING, type Command, type DeviceError } from '../core/robot/messages.ts';

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
  ackRetries: number;
  doneMargin: number;
}

interface Pending {
  seq: number;
  method: string;
  bytes: Uint8Array;
  tries: number;
  acked: boolean;
  timer: unknown;
  ack: { resolve(ms: number): void; reject(e: Error): void };
  done: { resolve(): void; reject(e: Error): void };
}

export function robotError(code: RobotErrorCode, detail?: string): AgentcadeError {
  return new AgentcadeError(code, detail);
}

function deviceErrorText(e: unknown): string {
  const err = e as DeviceError | undefined;
  if (!err || typeof err !== 'object') return 'unknown';
  return err.msg ? `${err.code}: ${err.msg}` : String(err.code);
}

export class RequestTracker {
  private pending = new Map<number, Pending>();
  private nextSeq = 1;
  private readonly timing: TrackerTiming;

  constructor(
    private readonly clock: Clock,
    private readonly write: (bytes: Uint8Array) => void,
    timing: Partial<TrackerTiming> = {},
  ) {
    this.timing = { ackTimeout: TIMING.ackTimeout, ackRetries: TIMING.ackRetries, doneMargin: TIMING.doneMargin, ...timing };
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Next free sequence number (1…65535, never 0, never one still in flight). */
  allocSeq(): number {
    for (;;) {
      const seq = this.nextSeq;
      this.nextSeq = seq >= 0xffff ? 1 : seq + 1;
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
    const p: Pending = { seq, method: command.method, bytes, tries: 1, acked: false, timer: undefined, ack, done };
    this.pending.set(seq, p);
    this.armAck(p);
    this.write(bytes);
    return { seq, method: command.method, acked, done: donePromise };
  }

  /** Feeds an Ack or Done frame; returns false when it matched nothing (late, duplicate, or foreign). */
  onFrame(frame: Frame): boolean {
    const p = this.pending.get(frame.seq);
    if (!p) return false;
    const body = jsonPayload(frame) ?? {};
    if (frame.type === FrameType.Ack) {
      if (p.acked) return true; // duplicate ack after a retransmit
      if (body.error !== undefined) {
        this.finish(p, robotError('robot_refused', `${p.method} refused: ${deviceErrorText(body.error)}`));
        return true;
      }
      const ms = typeof body.ms === 'number' && body.ms >= 0 ? body.ms : 0;
      p.acked = true;
      p.ack.resolve(ms);
      this.clock.clearTimeout(p.timer);
      p.timer = this.clock.setTimeout(
        () => this.finish(p, robotError('robot_done_timeout', `${p.method} not done within ${ms} + ${this.timing.doneMargin} ms`)),
        ms + this.timing.doneMargin,
      );
      return true;
    }
    if (frame.type === FrameType.Done) {
      if (!p.acked) {
        p.acked = true; // the ack was lost but the done says it all
        p.ack.resolve(0);
      }
      if (body.ok === false) this.finish(p, robotError('robot_failed', `${p.method} failed: ${deviceErrorText(body.error)}`));
      else this.finish(p);
      return true;
    }
    return false;
  }

  /** Fails every command in flight (unplug, stale link, reboot, close). */
  failAll(code: RobotErrorCode, detail?: string): void {
    for (const p of [...this.pending.values()]) this.finish(p, robotError(code, detail ?? `${p.method}: ${code}`));
  }

  private armAck(p: Pending): void {
    p.timer = this.clock.setTimeout(() => {
      if (p.acked || !this.pending.has(p.seq)) return;
      if (p.tries <= this.timing.ackRetries) {
        p.tries++;
        this.armAck(p);
        this.write(p.bytes); // same seq: the device answers a duplicate without running it twice
      } else {
        this.finish(p, robotError('robot_ack_timeout', `${p.method}: no ack after ${p.tries} tries`));
      }
    }, this.timing.ackTimeout);
  }

  private finish(p: Pending, error?: Error): void {
    if (this.pending.get(p.seq) !== p) return;
    this.pending.delete(p.seq);
    this.clock.clearTimeout(p.timer);
    if (error) {
      if (!p.acked) p.ack.reject(error);
      p.done.reject(error);
    } else p.done.resolve();
  }
}
