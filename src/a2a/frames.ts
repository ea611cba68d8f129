/**
 * The small frame protocol that carries spec-shaped JSON-RPC 2.0 envelopes over one MessagePort
 * (one channel per client–agent pair). The envelopes themselves are exactly what the SDK's
 * JsonRpcTransportHandler reads and writes; frames only add streaming and liveness:
 *
 *   client → worker: rpc (a request), abort (the client stopped reading a stream: detach, NOT cancel),
 *                    ping (liveness of the worker's event loop)
 *   worker → client: result (a unary reply, or an error before/while streaming), event (one stream item),
 *                    end (the stream finished), pong
 */
export type RpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: string;
  id: RpcId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type ClientFrame =
  | { t: 'rpc'; rpc: JsonRpcRequest }
  | { t: 'abort'; id: RpcId }
  | { t: 'ping'; n: number };

export type ServerFrame =
  | { t: 'result'; id: RpcId; rpc: JsonRpcResponse }
  | { t: 'event'; id: RpcId; rpc: JsonRpcResponse }
  | { t: 'end'; id: RpcId }
  | { t: 'pong'; n: number };

export function isServerFrame(v: unknown): v is ServerFrame {
  return typeof v === 'object' && v !== null && typeof (v as { t?: unknown }).t === 'string';
}
