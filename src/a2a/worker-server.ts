/**
 * Worker side of the in-browser A2A transport: the SDK's DefaultRequestHandler behind its
 * JsonRpcTransportHandler, served on a MessagePort (frames in ./frames.ts).
 *
 * A client that stops reading a stream only detaches: the SDK's stream generator is drained to
 * its end regardless, because that generator is what writes the task to the store; calling
 * `.return()` on it would freeze the stored task in WORKING (the SDK writes the task from that generator). Only CancelTask
 * stops work.
 */
import type { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  type A2ARequestHandler,
} from '@a2a-js/sdk/server';
import type { GameHandler } from '../core/protocol/handler.ts';
import { BoundedTaskStore, DEFAULT_MAX_FINISHED_TASKS } from './bounded-task-store.ts';
import type { ClientFrame, JsonRpcResponse, RpcId, ServerFrame } from './frames.ts';
import { GameExecutor } from './game-executor.ts';

export interface ServeGameAgentOptions {
  card: AgentCard;
  handler: GameHandler;
  /** Finished tasks kept for GetTask (default 64, seed 000 §Trace); older ones are evicted. */
  maxTasks?: number;
}

export interface ServedAgent {
  close(): void;
}

export function serveGameAgent(port: MessagePort, opts: ServeGameAgentOptions): ServedAgent {
  const store = new BoundedTaskStore(opts.maxTasks ?? DEFAULT_MAX_FINISHED_TASKS);
  const executor = new GameExecutor(opts.handler);
  return serveA2AOverPort(port, new DefaultRequestHandler(opts.card, store, executor));
}

/** Serves any SDK request handler on a port (the game agent is one use). */
function serveA2AOverPort(port: MessagePort, requestHandler: A2ARequestHandler): ServedAgent {
  const rpc = new JsonRpcTransportHandler(requestHandler);
  /** Streams whose client is still reading. */
  const attached = new Set<RpcId>();
  let closed = false;
  const post = (frame: ServerFrame): void => {
    if (!closed) port.postMessage(frame);
  };

  const onFrame = async (frame: ClientFrame): Promise<void> => {
    if (frame.t === 'ping') return post({ t: 'pong', n: frame.n });
    if (frame.t === 'abort') {
      attached.delete(frame.id);
      return;
    }
    if (frame.t !== 'rpc') return;
    const id = frame.rpc?.id ?? null;
    let out: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
    try {
      out = await rpc.handle(frame.rpc as unknown as Record<string, unknown>, new ServerCallContext({ requestedVersion: '1.0' }));
    } catch (e) {
      return post({ t: 'result', id: id ?? '', rpc: errorResponse(id, e) });
    }
    if (!isAsyncIterable(out)) return post({ t: 'result', id: id ?? '', rpc: out as JsonRpcResponse });
    if (id === null) return;
    attached.add(id);
    try {
      for await (const item of out) {
        if (attached.has(id)) post({ t: 'event', id, rpc: item as JsonRpcResponse });
      }
    } catch (e) {
      if (attached.has(id)) post({ t: 'result', id, rpc: errorResponse(id, e) });
    } finally {
      if (attached.delete(id)) post({ t: 'end', id });
    }
  };

  port.onmessage = (ev: MessageEvent) => void onFrame(ev.data as ClientFrame);
  return {
    close() {
      closed = true;
      port.onmessage = null;
      port.close();
    },
  };
}

function errorResponse(id: RpcId | null, e: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(e) };
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === 'object' && v !== null && Symbol.asyncIterator in v;
}
