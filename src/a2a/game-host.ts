/**
 * The main thread's GameClient (./types.ts): starts a game's worker on the first request, talks to
 * it only through the SDK's Client over the MessagePort transport, and watches it.
 *
 * - Crash: the worker's `error` / `messageerror` event (or a failed init) fails every open request
 *   with `game_crashed` and drops the worker; the next request starts a fresh one.
 * - Hang: when an open request hears nothing for `hangTimeoutMs`, the worker is pinged. No pong within
 *   `pingTimeoutMs`: the worker is stuck, it is dropped and its open requests fail with
 *   `game_timeout_lost` (the game's state went with it).
 *   A pong: the worker lives but this turn is stuck; the task is cancelled and the request fails
 *   with `game_timeout` (the game keeps its state).
 */
import { TaskState, type AgentCard } from '@a2a-js/sdk';
import { Client, ClientFactory } from '@a2a-js/sdk/client';
import type { ErrorCode } from '../core/errors/catalogue.ts';
import { ProtocolError, type GameInput } from '../core/protocol/game-protocol.ts';
import type { GameLab } from '../core/games/engine-host.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';
import { gameInputMessage, statusDetail } from './game-parts.ts';
import { MessagePortTransportFactory, PortConnection } from './port-transport.ts';
import { openRequest, settleRequest, type OpenRequest } from './open-request.ts';
import { ReplyStreamReader, applyStep } from './reply-stream.ts';
import { GameRequestError, type GameClient, type GameRequest, type GameRequestOptions } from './types.ts';

/** What the host needs of a Worker (a real `Worker` fits; tests pass a fake over MessageChannel). */
export type GameWorker = Pick<Worker, 'postMessage' | 'terminate' | 'addEventListener'>;

/** The first message a game worker receives (workers/game-agent.ts). */
export interface GameWorkerInit {
  type: 'init';
  gameId: string;
  /** The engine kind that plays the game (its declaration's `engine`). */
  engine: string;
  /** Seeds the worker's random source (a game's secrets and card order). */
  seed: number;
  /** `a2a` carries A2A; any others (device, trace, model) belong to the game runtime. */
  ports: Record<string, MessagePort>;
  /** Completed A2A tasks the worker's task store keeps (the trace setting; default 64). */
  maxTasks?: number;
  /** The developer switches of its games (absent or empty: the app as it ships). */
  lab?: GameLab;
}

/** What a game worker posts back after init. */
export type GameWorkerStatus = { type: 'ready'; gameId: string } | { type: 'init-error'; gameId: string; message: string };

export interface GameClientOptions {
  spawn(gameId: string): GameWorker;
  /** Extra ports handed to a new worker along with `a2a` (created fresh for every worker start). */
  ports?(gameId: string): Record<string, MessagePort>;
  /**
   * Called once whenever a worker is terminated (crash, hang, failed start, `stop`, `stopAll`),
   * before a fresh one can start: close here what `ports` opened for it (its model steps, listeners).
   */
  onStop?(gameId: string): void;
  cards(gameId: string): AgentCard | undefined;
  /** The engine kind of a game (its declaration's `engine`). */
  engineOf(gameId: string): string | undefined;
  /** A fresh seed for a new worker's random source (the app draws it from the browser's crypto). */
  seed(): number;
  /** Completed A2A tasks each new worker keeps (read at every worker start; seed 000 §Trace). */
  maxTasks?(): number;
  /** The developer switches of new workers' games (read at every worker start; default none). */
  lab?(): GameLab;
  /** Silence on an open request before the worker is pinged (default 45 s). */
  hangTimeoutMs?: number;
  /** How long a ping may take (default 3 s). */
  pingTimeoutMs?: number;
  /**
   * Where worker-level failures (crash, hang, failed start) are recorded. Requests and replies are
   * recorded by the caller (the main agent), which knows their round.
   */
  trace?: TraceSink;
}

interface GameProcess {
  readonly gameId: string;
  readonly worker: GameWorker;
  readonly conn: PortConnection;
  readonly client: Promise<Client>;
  readonly open: Set<OpenRequest>;
  dead: boolean;
  /** Started ahead (warm) and not asked anything yet. */
  ahead?: boolean;
  readonly seed: number;
}

/** CancelTask through the SDK client of a worker. */
function cancelTaskOf(proc: GameProcess, taskId: string) {
  return proc.client.then((c) => c.cancelTask({ tenant: '', id: taskId, metadata: undefined }));
}

/** What the worker client's parts share: its options, the transports and the running game workers. */
interface Host {
  readonly opts: GameClientOptions;
  readonly hangTimeoutMs: number;
  readonly pingTimeoutMs: number;
  readonly trace: TraceSink;
  readonly factory: MessagePortTransportFactory;
  readonly clientFactory: ClientFactory;
  readonly processes: Map<string, GameProcess>;
  /** The seed of a worker started ahead and stopped unused: the next worker gets it (each played worker gets the seed it would have had). */
  spareSeed?: number;
}

/** Starts the game's worker and sends it its init (the ports, the engine kind, a seed); its crash or failed start kills it. */
function startWorker(h: Host, gameId: string, card: AgentCard): GameProcess {
  const url = card.supportedInterfaces.find((i) => i.protocolBinding.toLowerCase() === h.factory.protocolName)?.url;
  if (!url) throw new GameRequestError('game_failed', `the Agent Card of ${gameId} has no ${h.factory.protocolName} interface`);
  const worker = h.opts.spawn(gameId);
  const channel = new MessageChannel();
  const extra = h.opts.ports?.(gameId) ?? {};
  const conn = h.factory.register(url, channel.port1);
  const seed = h.spareSeed ?? h.opts.seed();
  h.spareSeed = undefined;
  const proc: GameProcess = {
    gameId,
    seed,
    worker,
    conn,
    client: h.clientFactory.createFromAgentCard(card),
    open: new Set(),
    dead: false,
  };
  void proc.client.catch(() => undefined);
  worker.addEventListener('error', (ev: Event) => {
    (ev as ErrorEvent).preventDefault?.();
    const detail = (ev as ErrorEvent).message || 'uncaught error in the game worker';
    killWorker(h, proc, 'game_crashed', `The worker of ${gameId} crashed: ${detail}`);
  });
  worker.addEventListener('messageerror', () =>
    killWorker(h, proc, 'game_crashed', `The worker of ${gameId} sent a message that could not be read`),
  );
  worker.addEventListener('message', (ev: Event) => {
    const status = (ev as MessageEvent).data as GameWorkerStatus | undefined;
    if (status?.type === 'init-error') killWorker(h, proc, 'game_failed', `The game ${gameId} could not start: ${status.message}`);
  });
  const init: GameWorkerInit = { type: 'init', gameId, engine: h.opts.engineOf(gameId) ?? '', seed, ports: { ...extra, a2a: channel.port2 } };
  const maxTasks = h.opts.maxTasks?.();
  if (maxTasks !== undefined) init.maxTasks = maxTasks;
  const lab = h.opts.lab?.();
  if (lab && Object.keys(lab).length) init.lab = lab;
  worker.postMessage(init, [channel.port2, ...Object.values(extra)]);
  h.processes.set(gameId, proc);
  return proc;
}

/** Drops a worker: its open requests fail with `code`, and the next request starts a fresh one. */
function killWorker(h: Host, proc: GameProcess, code: ErrorCode, detail: string, record = true): void {
  if (proc.dead) return;
  proc.dead = true;
  if (h.processes.get(proc.gameId) === proc) h.processes.delete(proc.gameId);
  const error = () => new GameRequestError(code, detail, { sessionLost: true });
  for (const req of proc.open) finish(req, error());
  proc.open.clear();
  proc.conn.close(error());
  proc.worker.terminate();
  try {
    h.opts.onStop?.(proc.gameId);
  } catch {
    /* the worker is gone either way */
  }
  if (record) h.trace.record({ kind: 'error', at: Date.now(), source: `game:${proc.gameId}`, name: code, data: { detail } });
}

function finish(req: OpenRequest, error?: GameRequestError): void {
  settleRequest(req, error);
  if (error) req.abort.abort(); // stop reading (a detach, not a cancel); a finished stream ends by itself
}

function arm(h: Host, proc: GameProcess, req: OpenRequest): void {
  clearTimeout(req.watchdog);
  if (req.channel.settled) return;
  req.watchdog = setTimeout(() => void onSilence(h, proc, req), h.hangTimeoutMs);
}

async function onSilence(h: Host, proc: GameProcess, req: OpenRequest): Promise<void> {
  if (req.channel.settled || proc.dead) return;
  const alive = await proc.conn.ping(h.pingTimeoutMs);
  if (req.channel.settled || proc.dead) return;
  if (!alive) {
    killWorker(h, proc, 'game_timeout_lost', `The worker of ${proc.gameId} stopped answering (no pong within ${h.pingTimeoutMs} ms)`);
    return;
  }
  const taskId = req.taskId;
  finish(req, new GameRequestError('game_timeout', `The game ${proc.gameId} sent nothing for ${h.hangTimeoutMs} ms; the turn was cancelled`));
  if (taskId) void cancelTaskOf(proc, taskId).catch(() => undefined);
}

async function pump(h: Host, proc: GameProcess, req: OpenRequest, contextId: string, input: GameInput, ropts?: GameRequestOptions): Promise<void> {
  const reader = new ReplyStreamReader(proc.gameId);
  try {
    const client = await proc.client;
    const stream = client.sendMessageStream(
      { tenant: '', message: gameInputMessage(input, contextId, req.requestId, ropts?.budgetMs, ropts?.colourMs), configuration: undefined, metadata: undefined },
      { signal: req.abort.signal },
    );
    for await (const ev of stream) {
      if (req.channel.settled) continue; // after the final reply the stream ends by itself
      arm(h, proc, req);
      applyStep(req, reader, reader.read(ev), finish);
    }
    if (!req.channel.settled)
      finish(req, new GameRequestError('game_protocol', `The stream of ${proc.gameId} ended without a final reply`));
  } catch (e) {
    if (req.channel.settled) return;
    if (e instanceof ProtocolError) {
      const taskId = req.taskId;
      finish(req, new GameRequestError('game_protocol', `${proc.gameId}: ${e.message}`, { cause: e }));
      if (taskId) void cancelTaskOf(proc, taskId).catch(() => undefined);
    } else {
      finish(req, new GameRequestError('game_failed', `${proc.gameId}: ${e instanceof Error ? e.message : String(e)}`, { cause: e }));
    }
  } finally {
    proc.open.delete(req);
  }
}

export function createGameClient(opts: GameClientOptions): GameClient {
  const factory = new MessagePortTransportFactory();
  const h: Host = {
    opts,
    hangTimeoutMs: opts.hangTimeoutMs ?? 45_000,
    pingTimeoutMs: opts.pingTimeoutMs ?? 3_000,
    trace: opts.trace ?? nullTrace,
    factory,
    clientFactory: new ClientFactory({ transports: [factory] }),
    processes: new Map<string, GameProcess>(),
  };

  function request(gameId: string, contextId: string, input: GameInput, ropts?: GameRequestOptions): GameRequest {
    const requestId = ropts?.requestId ?? crypto.randomUUID();
    const req = openRequest(requestId);
    let proc: GameProcess | undefined;
    const card = h.opts.cards(gameId);
    if (!card) {
      finish(req, new GameRequestError('game_not_found', `No game with id "${gameId}" is installed`));
    } else {
      try {
        proc = h.processes.get(gameId);
        if (!proc) {
          stopUnused(h);
          proc = startWorker(h, gameId, card);
        }
        proc.ahead = false;
        proc.open.add(req);
        arm(h, proc, req);
        void pump(h, proc, req, contextId, input, ropts);
      } catch (e) {
        finish(req, e instanceof GameRequestError ? e : new GameRequestError('game_crashed', `${gameId}: ${String(e)}`, { sessionLost: true }));
      }
    }
    return {
      requestId,
      replies: req.channel,
      async cancel() {
        if (!proc || req.channel.settled) return;
        const taskId = await req.taskKnown;
        if (!taskId || req.channel.settled || proc.dead) return;
        try {
          const task = await cancelTaskOf(proc, taskId);
          if (task.status?.state === TaskState.TASK_STATE_CANCELED)
            finish(req, new GameRequestError('game_cancelled', statusDetail(task.status.message) || 'The request was cancelled'));
        } catch {
          // Already finished (TaskNotCancelable), or the worker died: the request settles by itself.
        }
      },
    };
  }

  function stop(gameId: string): void {
    const proc = h.processes.get(gameId);
    if (proc) killWorker(h, proc, 'game_cancelled', `The game ${gameId} was stopped`);
  }

  return {
    request,
    stop,
    stopAll() {
      for (const id of [...h.processes.keys()]) stop(id);
    },
    warm(gameId) {
      const card = h.opts.cards(gameId);
      if (!card || h.processes.size > 0) return;
      try {
        startWorker(h, gameId, card).ahead = true;
      } catch {
        // No worker interface: its first request says why.
      }
    },
  };
}

/** A worker started ahead that no request used goes once another game is asked for (memory stays as without it). */
function stopUnused(h: Host): void {
  for (const proc of [...h.processes.values()]) {
    if (!proc.ahead) continue;
    killWorker(h, proc, 'game_cancelled', `The game ${proc.gameId} was started ahead and not played`, false);
    h.spareSeed = proc.seed;
  }
}
