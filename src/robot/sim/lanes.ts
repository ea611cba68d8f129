/**
 * A lane of the firmware simulator (./firmware.ts; docs/robot-protocol.md §9): the screen and the
 * head each run one command at a time, the rest queued up to the lane's limit, on the sim's clock.
 */
import type { Clock } from '../clock.ts';

export interface Job {
  seq: number;
  ms: number;
  start(): void;
  finish(): void;
}

export class Lane {
  queue: Job[] = [];
  busy: Job | null = null;
  private busyEnds = 0;
  private timer: unknown = undefined;

  constructor(
    readonly limit: number,
    private readonly clock: Pick<Clock, 'now'>,
    /** A timer on the sim's clock (dropped when the sim resets). */
    private readonly after: (ms: number, fn: () => void) => unknown,
    private readonly cancel: (timer: unknown) => void,
  ) {}

  get full(): boolean {
    return this.queue.length >= this.limit;
  }

  /** How long until the lane has finished everything it holds (ms). */
  wait(): number {
    return (this.busy ? Math.max(0, this.busyEnds - this.clock.now()) : 0) + this.queue.reduce((a, j) => a + j.ms, 0);
  }

  push(job: Job): void {
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.busy = job;
    this.busyEnds = this.clock.now() + job.ms;
    job.start();
    this.timer = this.after(job.ms, () => {
      if (this.busy !== job) return;
      this.busy = null;
      job.finish();
      this.pump();
    });
  }

  /** Stops the running job and drops the queue: what it held, the running one first. */
  drop(): Job[] {
    const dropped = [...(this.busy ? [this.busy] : []), ...this.queue];
    this.cancel(this.timer);
    this.busy = null;
    this.queue = [];
    return dropped;
  }
}
