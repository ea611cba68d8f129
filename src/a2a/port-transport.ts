/**
 * Main-thread side of the in-browser A2A transport: an SDK `Transport` whose wire is a MessagePort
 * (frames in ./frames.ts), and its `TransportFactory`, registered with the SDK's ClientFactory under
 * the binding `urn:x-a2a-binding:messageport`. Main code talks to game agents through the SDK's
 * `Client` only; this file does the encoding with the SDK's own codecs and error mapping.
 */
import {
  A2A_PROTOCOL_VERSION,
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  type MessageFns,
  type SendMessageResult,
} from '@a2a-js/sdk';
import type { RequestOptions, Transport, TransportFactory } from '@a2a-js/sdk/client';
import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { MESSAGEPORT_BINDING } from './card.ts';
import { isServerFrame, type ClientFrame, type JsonRpcRequest, type JsonRpcResponse, type RpcId, type ServerFrame } from './frames.ts';

type StreamSink = { push(f: ServerFrame): void; fail(e: unknown): void };

/** One end of a client–agent MessageChannel: JSON-RPC calls and streams multiplexed by id, plus ping. */
export class PortConnection {
  private nextId = 1;
  private nextPing = 1;
  private readonly calls = new Map<RpcId, { resolve(r: JsonRpcResponse): void; reject(e: unknown): void }>();
  private readonly streams = new Map<RpcId, StreamSink>();
  private readonly pings = new Map<number, () => void>();
  private closedBy: Error | undefined;

  constructor(private readonly port: MessagePort) {
    port.onmessage = (ev: MessageEvent) => {
      if (isServerFrame(ev.data)) this.onFrame(ev.data);
    };
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  newId(): number {
    return this.nextId++;
  }

  /** A unary call; rejects on a JSON-RPC error (as the SDK's typed errors) or when the connection closes. */
  call(rpc: JsonRpcRequest, signal?: AbortSignal): Promise<JsonRpcResponse> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.calls.delete(rpc.id);
        reject(signal!.reason ?? abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.calls.set(rpc.id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          if (r.error) reject(fromJsonRpcErrorResponse(r as Parameters<typeof fromJsonRpcErrorResponse>[0]));
          else resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      this.send({ t: 'rpc', rpc });
    });
  }

  /**
   * A streaming call. Leaving the loop early (break, return, abort) sends `abort`, which only
   * detaches: the agent keeps working and keeps its task store up to date.
   */
  async *stream(rpc: JsonRpcRequest, signal?: AbortSignal): AsyncGenerator<JsonRpcResponse, void, undefined> {
    if (this.closedBy) throw this.closedBy;
    signal?.throwIfAborted();
    const queue: ServerFrame[] = [];
    let wake: (() => void) | undefined;
    let failure: unknown;
    let finished = false;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const onAbort = () => {
      failure = signal!.reason ?? abortError();
      notify();
    };
    this.streams.set(rpc.id, {
      push: (f) => {
        queue.push(f);
        notify();
      },
      fail: (e) => {
        failure = e;
        notify();
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      this.send({ t: 'rpc', rpc });
      for (;;) {
        if (failure) throw failure;
        const f = queue.shift();
        if (!f) {
          await new Promise<void>((r) => (wake = r));
          continue;
        }
        if (f.t === 'end') {
          finished = true;
          return;
        }
        if (f.t === 'result') {
          finished = true;
          if (f.rpc.error) throw fromJsonRpcErrorResponse(f.rpc as Parameters<typeof fromJsonRpcErrorResponse>[0]);
          return; // a non-stream answer to a stream request: nothing to yield
        }
        if (f.t === 'event') {
          if (f.rpc.error) {
            finished = true;
            throw fromJsonRpcErrorResponse(f.rpc as Parameters<typeof fromJsonRpcErrorResponse>[0]);
          }
          yield f.rpc;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.streams.delete(rpc.id);
      if (!finished && !this.closedBy) this.send({ t: 'abort', id: rpc.id });
    }
  }

  /** true when the agent's event loop answered within timeoutMs. */
  ping(timeoutMs: number): Promise<boolean> {
    if (this.closedBy) return Promise.resolve(false);
    const n = this.nextPing++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pings.delete(n);
        resolve(false);
      }, timeoutMs);
      this.pings.set(n, () => {
        clearTimeout(timer);
        resolve(true);
      });
      this.send({ t: 'ping', n });
    });
  }

  /** Fails every open call and stream with `reason` and closes the port. */
  close(reason: Error = new Error('the A2A connection was closed')): void {
    if (this.closedBy) return;
    this.closedBy = reason;
    for (const c of this.calls.values()) c.reject(reason);
    this.calls.clear();
    for (const s of this.streams.values()) s.fail(reason);
    for (const p of this.pings.values()) p();
    this.pings.clear();
    this.port.onmessage = null;
    this.port.close();
  }

  private send(frame: ClientFrame): void {
    this.port.postMessage(frame);
  }

  private onFrame(f: ServerFrame): void {
    if (f.t === 'pong') {
      this.pings.get(f.n)?.();
      this.pings.delete(f.n);
      return;
    }
    const stream = this.streams.get(f.id);
    if (stream) return stream.push(f);
    if (f.t === 'result') {
      const call = this.calls.get(f.id);
      this.calls.delete(f.id);
      call?.resolve(f.rpc);
    }
  }
}

function abortError(): DOMException {
  return new DOMException('The request was aborted', 'AbortError');
}

/** An SDK Transport over a PortConnection. */
class MessagePortTransport implements Transport {
  constructor(private readonly conn: PortConnection) {}

  get protocolName(): string {
    return MESSAGEPORT_BINDING;
  }
  get protocolVersion(): string {
    return A2A_PROTOCOL_VERSION;
  }

  private async unary<P>(method: string, params: P, codec: MessageFns<P>, options?: RequestOptions): Promise<unknown> {
    const rpc: JsonRpcRequest = { jsonrpc: '2.0', id: this.conn.newId(), method, params: codec.toJSON(params) };
    const res = await this.conn.call(rpc, options?.signal);
    return res.result;
  }

  async getExtendedAgentCard(params: GetExtendedAgentCardRequest, options?: RequestOptions): Promise<AgentCard> {
    return AgentCard.fromJSON(await this.unary('GetExtendedAgentCard', params, GetExtendedAgentCardRequest, options));
  }

  async sendMessage(params: SendMessageRequest, options?: RequestOptions): Promise<SendMessageResult> {
    const res = SendMessageResponse.fromJSON(await this.unary('SendMessage', params, SendMessageRequest, options));
    if (!res.payload) throw new Error('Invalid SendMessage response: missing payload');
    return res.payload.value;
  }

  sendMessageStream(params: SendMessageRequest, options?: RequestOptions): AsyncGenerator<StreamResponse, void, undefined> {
    return this.streamOf('SendStreamingMessage', SendMessageRequest.toJSON(params), options);
  }

  resubscribeTask(params: SubscribeToTaskRequest, options?: RequestOptions): AsyncGenerator<StreamResponse, void, undefined> {
    return this.streamOf('SubscribeToTask', SubscribeToTaskRequest.toJSON(params), options);
  }

  private async *streamOf(method: string, params: unknown, options?: RequestOptions): AsyncGenerator<StreamResponse, void, undefined> {
    const rpc: JsonRpcRequest = { jsonrpc: '2.0', id: this.conn.newId(), method, params };
    for await (const item of this.conn.stream(rpc, options?.signal)) {
      if (item.result === undefined) throw new Error(`${method}: a stream item has no result`);
      yield StreamResponse.fromJSON(item.result);
    }
  }

  async getTask(params: GetTaskRequest, options?: RequestOptions): Promise<Task> {
    return Task.fromJSON(await this.unary('GetTask', params, GetTaskRequest, options));
  }

  async cancelTask(params: CancelTaskRequest, options?: RequestOptions): Promise<Task> {
    return Task.fromJSON(await this.unary('CancelTask', params, CancelTaskRequest, options));
  }

  async listTasks(params: ListTasksRequest, options?: RequestOptions): Promise<ListTasksResponse> {
    return ListTasksResponse.fromJSON(await this.unary('ListTasks', params, ListTasksRequest, options));
  }

  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig, options?: RequestOptions): Promise<TaskPushNotificationConfig> {
    return TaskPushNotificationConfig.fromJSON(
      await this.unary('CreateTaskPushNotificationConfig', params, TaskPushNotificationConfig, options),
    );
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    return TaskPushNotificationConfig.fromJSON(
      await this.unary('GetTaskPushNotificationConfig', params, GetTaskPushNotificationConfigRequest, options),
    );
  }

  async listTaskPushNotificationConfig(
    params: ListTaskPushNotificationConfigsRequest,
    options?: RequestOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return ListTaskPushNotificationConfigsResponse.fromJSON(
      await this.unary('ListTaskPushNotificationConfigs', params, ListTaskPushNotificationConfigsRequest, options),
    );
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest, options?: RequestOptions): Promise<void> {
    await this.unary('DeleteTaskPushNotificationConfig', params, DeleteTaskPushNotificationConfigRequest, options);
  }
}

/**
 * Creates MessagePort transports for agent interfaces with the messageport binding. The URL of an
 * interface (e.g. `worker://game/guess-number`) names a connection registered here.
 */
export class MessagePortTransportFactory implements TransportFactory {
  private readonly connections = new Map<string, PortConnection>();

  get protocolName(): string {
    return MESSAGEPORT_BINDING;
  }

  /** Registers (or replaces) the connection for an interface URL; a port is wrapped in a new PortConnection. */
  register(url: string, target: MessagePort | PortConnection): PortConnection {
    const conn = target instanceof PortConnection ? target : new PortConnection(target);
    this.connections.set(url, conn);
    return conn;
  }

  async create(url: string, _card: AgentCard): Promise<Transport> {
    const conn = this.connections.get(url);
    if (!conn) throw new Error(`No MessagePort is registered for the agent interface ${url}`);
    return new MessagePortTransport(conn);
  }
}
