/**
 * Init script that watches the page's Web Workers at the browser API boundary, so an e2e test can
 * crash a game worker the way the browser reports a crash (the worker ends, an `error` event
 * fires) without any hook in the app. Pass to `page.addInitScript(installWorkerWatch)`; it must
 * stay self-contained (it is serialised into the page).
 *
 * A game worker is known by the first message the app posts to it,
 * `{type: 'init', gameId, …}` (src/a2a/game-host.ts). In the page, `window.__gameWorkers`:
 * - `ids()`: the game ids whose worker is running;
 * - `crash(gameId)`: terminates that worker and dispatches an `error` event on it; false when none runs.
 */
export function installWorkerWatch(): void {
  const RealWorker = window.Worker;
  const byGame = new Map<string, Worker>();
  class WatchedWorker extends RealWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      const post = this.postMessage.bind(this) as (...args: unknown[]) => void;
      this.postMessage = ((...args: unknown[]) => {
        const msg = args[0] as { type?: unknown; gameId?: unknown } | null;
        if (msg && msg.type === 'init' && typeof msg.gameId === 'string') byGame.set(msg.gameId, this);
        post(...args);
      }) as Worker['postMessage'];
    }
  }
  window.Worker = WatchedWorker;
  Object.defineProperty(window, '__gameWorkers', {
    configurable: true,
    value: {
      ids: () => [...byGame.keys()],
      crash(gameId: string): boolean {
        const w = byGame.get(gameId);
        if (!w) return false;
        byGame.delete(gameId);
        w.terminate();
        w.dispatchEvent(new ErrorEvent('error', { message: 'e2e: the game worker was ended' }));
        return true;
      },
    },
  });
}
