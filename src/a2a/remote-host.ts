/**
 * The GameClient (./types.ts) of remote game agents: A2A servers elsewhere that serve
 * `desktop-game/5`, reached through the SDK's own HTTP client transports (JSON-RPC and HTTP+JSON,
 * chosen by the SDK's ClientFactory from the card; an interface that speaks A2A 0.3 gets the SDK's
 * 0.3 transport, `message/stream` and all) with streaming. Replies are read by the same
 * ReplyStreamReader as a worker game's, so the same protocol checks apply.
 *
 * What can go wrong with a server elsewhere, and what the request ends with:
 * - the agent cannot be reached (refused, DNS, CORS, offline): `game_unreachable`; the game is
 *   reported unreachable (`onReach`), the session stays for a `message` (seed 000 §出错处理);
 * - the connection breaks (or the stream just ends) after the task started: the task is read back
 *   with GetTask. A COMPLETED task still gives its final reply; a FAILED one `game_failed`; a task
 *   still working is cancelled (`game_unreachable`, session kept). When GetTask gets no answer, the
 *   server went away with the game's state: `game_unreachable` with `sessionLost`;
 * - the agent stays silent for `stallTimeoutMs`: `game_timeout`, and the task is cancelled;
 * - the agent answers with an A2A error: `game_failed`; outside the protocol: `game_protocol`.
 */
import { TaskState, type AgentCard, type StreamResponse, type Task } from '@a2a-js/sdk';
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { ProtocolError, type GameInput } from '../core/protocol/game-protocol.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';
import { gameInputMessage, statusDetail } from './game-parts.ts';
import { openRequest, settleRequest, type OpenRequest } from './open-request.ts';
import { ReplyStreamReader, applyStep } from './reply-stream.ts';
import { GameRequestError, type GameClient, type GameRequest, type GameRequestOptions } from './types.ts';
import { remoteAgentCard, type RemoteGame } from './remote-agent-card.ts';

export { remoteAgentCard, type RemoteGame };

export interface RemoteGameClientOptions {
  game(gameId: string): RemoteGame | undefined;
  fetchImpl?: typeof fetch;
  /** Silence on an open request before it fails with `game_timeout` (read at every request; default 30 s). */
  stallTimeoutMs?: () => number;
  /** How long GetTask / CancelTask may take while a request is being settled (default 5 s). */
  checkTimeoutMs?: number;
  /** What requests found out about a game's server: unreachable (with why), or answering again. */
  onReach?(gameId: string, reachable: boolean, detail: string): void;
  /** Where transport-level failures are recorded (requests and replies are recorded by the main agent). */
  trace?: TraceSink;
}

export const DEFAULT_STALL_MS = 30_000;

/** A request to one remote game (the game it went to, for the error lines). */
interface RemoteRequest extends OpenRequest {
  readonly gameId: string;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** fetch failed before or while reading the body (refused, reset, DNS, CORS, offline). */
function isNetworkError(e: unknown): boolean {
  return e instanceof TypeError || (e as { name?: unknown } | null)?.name === 'TypeError';
}

/** What the remote client's parts share: its options, the SDK's client factory, each game's client and the open requests. */
interface Host {
  readonly opts: RemoteGameClientOptions;
  readonly checkMs: number;
  readonly trace: TraceSink;
  readonly factory: ClientFactory;
  readonly clients: Map<string, { card: AgentCard; client: Promise<Client> }>;
  readonly open: Set<RemoteRequest>;
}

function clientOf(h: Host, game: RemoteGame): Promise<Client> {
  const known = h.clients.get(game.id);
  if (known && known.card === game.card) return known.client;
  const client = h.factory.createFromAgentCard(game.card);
  h.clients.set(game.id, { card: game.card, client });
  void client.catch(() => h.clients.delete(game.id));
  return client;
}

function reached(h: Host, game: RemoteGame, ok: boolean, detail = ''): void {
  try {
    h.opts.onReach?.(game.id, ok, detail);
  } catch {
    /* a listener's failure is not the request's */
  }
  if (!ok) h.trace.record({ kind: 'error', at: Date.now(), source: `game:${game.id}`, name: 'game_unreachable', data: { host: game.host, detail } });
}

function finish(h: Host, req: RemoteRequest, error?: GameRequestError): void {
  settleRequest(req, error);
  req.abort.abort(); // closes the HTTP stream (a detach: only CancelTask stops the agent's work)
  h.open.delete(req);
}

function arm(h: Host, game: RemoteGame, req: RemoteRequest): void {
  clearTimeout(req.watchdog);
  if (req.channel.settled) return;
  const ms = h.opts.stallTimeoutMs?.() ?? DEFAULT_STALL_MS;
  req.watchdog = setTimeout(() => {
    if (req.channel.settled) return;
    const taskId = req.taskId;
    finish(h, req, new GameRequestError('game_timeout', `The game ${game.id} at ${game.host} sent nothing for ${ms} ms; the turn was cancelled`));
    if (taskId) void cancelTask(h, game, taskId);
  }, ms);
}

async function cancelTask(h: Host, game: RemoteGame, taskId: string): Promise<Task | undefined> {
  try {
    const client = await clientOf(h, game);
    return await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: AbortSignal.timeout(h.checkMs) });
  } catch {
    return undefined; // already finished (TaskNotCancelable), or the server is gone
  }
}

/** The stream broke or ended early: settle the request from what the server still knows. */
async function streamLost(h: Host, game: RemoteGame, req: RemoteRequest, reader: ReplyStreamReader, cause: unknown): Promise<void> {
  const detail = errorText(cause);
  const taskId = reader.taskId;
  if (!taskId) {
    reached(h, game, false, detail);
    finish(h, req, new GameRequestError('game_unreachable', `The game ${game.id} at ${game.host} could not be reached: ${detail}`, { cause }));
    return;
  }
  let task: Task;
  try {
    const client = await clientOf(h, game);
    task = await client.getTask({ tenant: '', id: taskId, historyLength: 0 }, { signal: AbortSignal.timeout(h.checkMs) });
  } catch (e) {
    if (req.channel.settled) return;
    reached(h, game, false, `${detail}; GetTask: ${errorText(e)}`);
    finish(
      h,
      req,
      new GameRequestError('game_unreachable', `The connection to ${game.id} at ${game.host} broke during the request (${detail}) and the server does not answer (${errorText(e)}): the game is gone`, {
        sessionLost: true,
        cause,
      }),
    );
    return;
  }
  if (req.channel.settled) return;
  reached(h, game, true);
  try {
    applyStep(req, reader, reader.readTask(task), (r, e) => finish(h, r, e));
  } catch (e) {
    finish(h, req, new GameRequestError('game_protocol', `${game.id}: ${errorText(e)}`, { cause: e }));
    return;
  }
  if (req.channel.settled) return;
  void cancelTask(h, game, taskId);
  finish(h, req, new GameRequestError('game_unreachable', `The connection to ${game.id} at ${game.host} broke during the request (${detail}); the turn was cancelled`, { cause }));
}

async function pump(h: Host, game: RemoteGame, req: RemoteRequest, contextId: string, input: GameInput, budgetMs?: number): Promise<void> {
  const reader = new ReplyStreamReader(game.id);
  try {
    const client = await clientOf(h, game);
    const stream = client.sendMessageStream(
      { tenant: '', message: gameInputMessage(input, contextId, req.requestId, budgetMs), configuration: undefined, metadata: undefined },
      { signal: req.abort.signal },
    );
    let answered = false;
    for await (const ev of stream as AsyncIterable<StreamResponse>) {
      if (req.channel.settled) continue;
      if (!answered) reached(h, game, (answered = true));
      arm(h, game, req);
      applyStep(req, reader, reader.read(ev), (r, e) => finish(h, r, e));
    }
    if (!req.channel.settled) await streamLost(h, game, req, reader, new Error('the stream ended without a final reply'));
  } catch (e) {
    if (req.channel.settled) return;
    if (e instanceof ProtocolError) {
      const taskId = req.taskId;
      finish(h, req, new GameRequestError('game_protocol', `${game.id}: ${e.message}`, { cause: e }));
      if (taskId) void cancelTask(h, game, taskId);
    } else if (isNetworkError(e)) {
      await streamLost(h, game, req, reader, e);
    } else {
      finish(h, req, new GameRequestError('game_failed', `${game.id} at ${game.host}: ${errorText(e)}`, { cause: e }));
    }
  }
}

export function createRemoteGameClient(opts: RemoteGameClientOptions): GameClient {
  const fetchImpl: typeof fetch = opts.fetchImpl ?? ((input, init) => fetch(input, init));
  const h: Host = {
    opts,
    checkMs: opts.checkTimeoutMs ?? 5_000,
    trace: opts.trace ?? nullTrace,
    // An interface that speaks A2A 0.3 gets the SDK's 0.3 transport (its compatibility layer).
    factory: new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } }), new RestTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    }),
    clients: new Map(),
    open: new Set(),
  };

  function request(gameId: string, contextId: string, input: GameInput, ropts?: GameRequestOptions): GameRequest {
    const requestId = ropts?.requestId ?? crypto.randomUUID();
    const req: RemoteRequest = { ...openRequest(requestId), gameId };
    const game = h.opts.game(gameId);
    if (!game) finish(h, req, new GameRequestError('game_not_found', `No remote game with id "${gameId}" is added`));
    else {
      h.open.add(req);
      arm(h, game, req);
      void pump(h, game, req, contextId, input, ropts?.budgetMs);
    }
    return {
      requestId,
      replies: req.channel,
      async cancel() {
        if (!game || req.channel.settled) return;
        // A server that never named the task cannot be asked to cancel it: stop reading instead.
        const taskId = await Promise.race([req.taskKnown, new Promise<undefined>((r) => setTimeout(r, h.checkMs))]);
        if (req.channel.settled) return;
        if (!taskId) {
          finish(h, req, new GameRequestError('game_cancelled', 'The request was cancelled before the agent named its task'));
          return;
        }
        const task = await cancelTask(h, game, taskId);
        if (task?.status?.state === TaskState.TASK_STATE_CANCELED)
          finish(h, req, new GameRequestError('game_cancelled', statusDetail(task.status.message) || 'The request was cancelled'));
      },
    };
  }

  function stop(gameId: string): void {
    for (const req of [...h.open]) if (req.gameId === gameId) finish(h, req, new GameRequestError('game_cancelled', `The game ${gameId} was stopped`));
    h.clients.delete(gameId);
  }

  return {
    request,
    stop,
    stopAll() {
      for (const id of new Set([...h.open].map((r) => r.gameId))) stop(id);
      h.clients.clear();
    },
  };
}
