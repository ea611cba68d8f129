/**
 * What the model layer does about a request that did not come back well (src/llm/decide-step.ts
 * asks a provider again through this): which failures are transient — HTTP 5xx and 429, a cut or
 * garbled stream, a network error, a stall — and are worth asking again after a short pause, and the
 * watch over one attempt that notices a stall (nothing for `firstByteMs`, silence for `idleMs`
 * mid-answer, `totalMs` in all) and the step's deadline (the turn's budget); a step run in the
 * background (no one waits for its words) is not watched: only its caller stops it. Malformed output is
 * not here: it gets a correction message instead (decide-step.ts).
 */
import type { StepTimeouts } from '../core/arcade/turn-budget.ts';
import type { ModelError } from '../core/llm/types.ts';
import { modelError } from './errors.ts';

export interface RetryOptions {
  /** Transient failures asked again per step (default 2: three tries in all). */
  transientRetries?: number;
  /** The pause before each retry, ms (default 250, then 800). */
  backoffMs?: readonly number[];
  /** Per-attempt limits (read at every attempt); none: only the deadline and the provider's own. */
  timeouts?: () => StepTimeouts | undefined;
}

const DEFAULT_BACKOFF_MS = [250, 800] as const;
/** An attempt that could not last this long before the deadline is not started. */
export const MIN_ATTEMPT_MS = 600;

/** A failure of the server or of the way to it, likely gone on the next try. */
export function isTransient(e: ModelError): boolean {
  switch (e.code) {
    case 'model_remote_network':
    case 'model_remote_timeout':
    case 'model_remote_bad_stream':
      return true;
    case 'model_remote_http': {
      // No status: an error event inside a stream that had started (the server failed mid-answer).
      if (e.status === undefined) return true;
      return e.status >= 500 || e.status === 429 || e.status === 408;
    }
    default:
      return false;
  }
}

export function backoffBefore(retry: number, opts: RetryOptions): number {
  const steps = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  return steps[Math.min(retry, steps.length - 1)] ?? 0;
}

export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The watch over one attempt: its signal aborts when the caller's does, or when the attempt stalls
 * (no first piece in time, silence mid-answer, too long in all) or the step's deadline passes.
 * `expired` then says which (a timeout the caller reports as a ModelError). Once `background`
 * aborts (no one waits for the words: StepRequest.background), the stall limits and the deadline
 * are off and only the caller's signal ends the attempt.
 */
export class AttemptWatch {
  private readonly ac = new AbortController();
  private readonly timers: Array<ReturnType<typeof setTimeout>> = [];
  private readonly stallTimers: Array<ReturnType<typeof setTimeout>> = [];
  private idle: ReturnType<typeof setTimeout> | undefined;
  private gotFirst = false;
  private unwatched = false;
  expired: ModelError | null = null;
  private readonly onParentAbort = () => this.ac.abort();
  private readonly onBackground = () => this.unwatch();

  constructor(
    private readonly limits: StepTimeouts | undefined,
    deadline: number | undefined,
    private readonly parent: AbortSignal | undefined,
    now: () => number = Date.now,
    private readonly background?: AbortSignal,
  ) {
    if (parent?.aborted) this.ac.abort();
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
    if (background?.aborted) this.unwatched = true;
    else background?.addEventListener('abort', this.onBackground, { once: true });
    if (deadline !== undefined && !this.unwatched) this.after(this.stallTimers, Math.max(0, deadline - now()), () => modelError('model_too_slow', '这一步没有在这一轮的时限内想好'));
    if (limits && !this.unwatched) {
      this.after(this.stallTimers, limits.totalMs, () => modelError('model_remote_timeout', `这一次请求超过 ${limits.totalMs / 1000} 秒`));
      this.after(this.stallTimers, limits.firstByteMs, () => (this.gotFirst ? null : modelError('model_remote_timeout', `${limits.firstByteMs / 1000} 秒内没有收到回答的第一个字`)));
    }
  }

  get signal(): AbortSignal {
    return this.ac.signal;
  }

  /** A piece of the answer arrived: the attempt is alive. */
  alive(): void {
    this.gotFirst = true;
    if (!this.limits || this.expired || this.unwatched) return;
    clearTimeout(this.idle);
    const ms = this.limits.idleMs;
    this.idle = setTimeout(() => this.expire(modelError('model_remote_timeout', `回答中途停了 ${ms / 1000} 秒`)), ms);
  }

  /** No one waits for the words any more: no stall limit and no deadline from now on. */
  private unwatch(): void {
    this.unwatched = true;
    for (const t of this.stallTimers) clearTimeout(t);
    clearTimeout(this.idle);
  }

  dispose(): void {
    for (const t of [...this.timers, ...this.stallTimers]) clearTimeout(t);
    clearTimeout(this.idle);
    this.parent?.removeEventListener('abort', this.onParentAbort);
    this.background?.removeEventListener('abort', this.onBackground);
  }

  private after(into: Array<ReturnType<typeof setTimeout>>, ms: number, why: () => ModelError | null): void {
    into.push(
      setTimeout(() => {
        const e = why();
        if (e) this.expire(e);
      }, ms),
    );
  }

  private expire(e: ModelError): void {
    if (this.expired || this.ac.signal.aborted) return;
    this.expired = e;
    this.ac.abort();
  }
}
