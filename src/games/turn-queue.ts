/**
 * One session's requests, handled one at a time in arrival order (seed 000: 游戏服务按到达顺序逐条处理
 * 同一局的请求). Each turn gets its own AbortController, linked to the request's signal, so an `end`
 * (or a new `start`) can cancel every running or queued turn of the session before it runs.
 * Shared by the built-in game service and the Studio's play agent.
 */
export class TurnCancelled extends Error {
  override name = 'AbortError';
}

export class TurnQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending = new Set<AbortController>();

  /** Settles when every turn queued so far has settled (whether it succeeded or not). */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Cancels every running or queued turn. */
  cancelAll(why: string): void {
    for (const c of this.pending) c.abort(new TurnCancelled(why));
  }

  /** Queues a turn behind the earlier ones; `turn` gets a signal aborted by `request` or by cancelAll. */
  run<T>(request: AbortSignal, turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(request.reason ?? new TurnCancelled('request cancelled'));
    if (request.aborted) onAbort();
    else request.addEventListener('abort', onAbort, { once: true });
    this.pending.add(controller);
    const run = this.tail.then(() => turn(controller.signal));
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      this.pending.delete(controller);
      request.removeEventListener('abort', onAbort);
    });
  }
}
