/**
 * The body of a game worker entry (workers/*.ts stay thin): waits for the host's `init`, builds the
 * game agent, serves it on the `a2a` port and reports `ready` or `init-error`.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { GameHandler } from '../core/protocol/handler.ts';
import type { GameWorkerInit, GameWorkerStatus } from './game-host.ts';
import { serveGameAgent, type ServeGameAgentOptions } from './worker-server.ts';

type GameAgentFactory = (init: Omit<GameWorkerInit, 'type' | 'maxTasks'>) => Promise<{ card: AgentCard; handler: GameHandler } & Partial<ServeGameAgentOptions>>;

/** What the entry needs of the worker's global scope. */
interface WorkerScope {
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  postMessage(message: unknown): void;
}

export function hostGameAgent(scope: WorkerScope, create: GameAgentFactory): void {
  let started = false;
  scope.addEventListener('message', (ev: MessageEvent) => {
    const init = ev.data as GameWorkerInit | undefined;
    if (init?.type !== 'init' || started) return;
    started = true;
    void (async () => {
      let status: GameWorkerStatus;
      try {
        const port = init.ports?.a2a;
        if (!port) throw new Error('init carries no a2a port');
        const agent = await create({ gameId: init.gameId, engine: init.engine, seed: init.seed, ports: init.ports, ...(init.lab ? { lab: init.lab } : {}) });
        // The host's setting applies unless the game's factory chose its own.
        serveGameAgent(port, { ...agent, maxTasks: agent.maxTasks ?? init.maxTasks });
        status = { type: 'ready', gameId: init.gameId };
      } catch (e) {
        status = { type: 'init-error', gameId: init.gameId, message: e instanceof Error ? e.message : String(e) };
      }
      scope.postMessage(status);
    })();
  });
}
