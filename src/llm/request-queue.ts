/**
 * First in, first out: one model serves every agent, one request at a time. A request whose
 * signal aborts while it waits leaves the queue at once (its promise rejects with AbortError);
 * a running request is stopped by its own job (which sees the same signal).
 */
import { abortError } from './errors.ts';

interface Entry {
  label: string;
  start: () => void;
  drop: () => void;
}

export class FifoQueue {
  private waiting: Entry[] = [];
  private current: string | undefined;

  /** `onIdle`: called each time the running request ends and nothing waits. */
  constructor(private readonly onIdle?: () => void) {}

  /** Labels of the requests waiting (not the running one), oldest first. */
  get waitingLabels(): string[] {
    return this.waiting.map((e) => e.label);
  }

  get running(): string | undefined {
    return this.current;
  }

  run<T>(job: () => Promise<T>, opts: { signal?: AbortSignal; label?: string } = {}): Promise<T> {
    const { signal, label = '' } = opts;
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) {
          this.waiting.splice(i, 1);
          reject(abortError());
        }
      };
      const entry: Entry = {
        label,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.current = label;
          let p: Promise<T>;
          try {
            p = job();
          } catch (err) {
            p = Promise.reject(err);
          }
          p.then(resolve, reject).finally(() => {
            this.current = undefined;
            this.next();
          });
        },
        drop: () => reject(abortError()),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.next();
    });
  }

  /** Rejects every waiting request (e.g. the provider changed); the running one finishes on its own. */
  clear(): void {
    const dropped = this.waiting.splice(0);
    for (const e of dropped) e.drop();
  }

  private next(): void {
    if (this.current !== undefined) return;
    const e = this.waiting.shift();
    if (e) e.start();
    else this.onIdle?.();
  }
}
