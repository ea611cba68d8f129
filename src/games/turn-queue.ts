/**
 * One session's requests, handled one at a time in arrival order (seed 000: 游戏服务按到达顺序逐条处理
 * 同一局的请求). This is the only place that orders a session's turns.
 *
 * Each turn gets its own AbortController, linked to its request's signal, so an `end` (or a new
 * `start`) can cancel every running or queued turn of the session:
 * - a queued turn that is cancelled rejects at once with the reason and never runs;
 * - a running turn that is cancelled rejects at once with the reason; the turn after it waits for
 *   it to settle, but at most `graceMs`: a turn that ignores its signal cannot hold the session.
 */
export class TurnCancelled extends Error {
  override name = 'AbortError';
}

export interface TurnQueueOptions {
  /** How long the next turn waits for a cancelled running turn to settle (default 2 s). */
  graceMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

export class TurnQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending = new Set<AbortController>();
  private readonly graceMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;

  constructor(opts: TurnQueueOptions = {}) {
    this.graceMs = opts.graceMs ?? 2000;
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  }

  /** Settles when every turn queued so far has settled or been let go (whether it succeeded or not). */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Cancels every running or queued turn. */
  cancelAll(why: string): void {
    for (const c of [...this.pending]) c.abort(new TurnCancelled(why));
  }

  /** Queues a turn behind the earlier ones; `turn` gets a signal aborted by `request` or by cancelAll. */
  run<T>(request: AbortSignal, turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const previous = this.tail;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    this.tail = released;
    this.pending.add(controller);
    const fromRequest = () => controller.abort(request.reason ?? new TurnCancelled('request cancelled'));
    if (request.aborted) fromRequest();
    else request.addEventListener('abort', fromRequest, { once: true });
    const done = () => {
      this.pending.delete(controller);
      request.removeEventListener('abort', fromRequest);
    };

    return new Promise<T>((resolve, reject) => {
      let started = false;
      const onCancel = () => {
        if (started) {
          // The turn is given up at once; the next one waits for it to settle, at most the grace time.
          reject(controller.signal.reason);
          this.setTimer(release, this.graceMs);
          return;
        }
        done();
        reject(controller.signal.reason);
        void previous.then(release);
      };
      if (controller.signal.aborted) {
        onCancel();
        return;
      }
      controller.signal.addEventListener('abort', onCancel, { once: true });
      void previous.then(() => {
        if (controller.signal.aborted) return;
        started = true;
        let run: Promise<T>;
        try {
          run = turn(controller.signal);
        } catch (e) {
          run = Promise.reject(e);
        }
        run.then(resolve, reject).finally(() => {
          controller.signal.removeEventListener('abort', onCancel);
          done();
          release();
        });
      });
    });
  }
}
