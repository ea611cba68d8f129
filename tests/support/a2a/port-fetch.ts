/**
 * A `fetch` that carries the SDK's own JSON-RPC-over-HTTP client (JsonRpcTransportFactory) to an
 * agent served on a MessagePort by ./worker-server.ts: a unary answer becomes a JSON Response, a
 * stream becomes a `text/event-stream` body. It exists as a test oracle: the same scenarios run
 * through the SDK's real client code path and through our MessagePortTransport, so a divergence
 * from the SDK shows. Not used by the app.
 */
import { isServerFrame, type ClientFrame, type JsonRpcRequest, type RpcId, type ServerFrame } from '../../../src/a2a/frames.ts';

export function createPortFetch(port: MessagePort): typeof fetch {
  const routes = new Map<RpcId, (f: ServerFrame) => void>();
  let nextId = 1;
  port.onmessage = (ev: MessageEvent) => {
    const f = ev.data;
    if (isServerFrame(f) && f.t !== 'pong') routes.get(f.id)?.(f);
  };
  const send = (f: ClientFrame) => port.postMessage(f);
  const encoder = new TextEncoder();

  return (async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const rpc = JSON.parse(String(init?.body)) as JsonRpcRequest;
    const callerId = rpc.id;
    const id = nextId++; // ids are per port here, per transport in the SDK client
    rpc.id = id;
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const restore = (r: object) => JSON.stringify({ ...r, id: callerId });

    return new Promise<Response>((resolve, reject) => {
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      const finish = () => {
        routes.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        send({ t: 'abort', id });
        const reason = signal?.reason ?? new DOMException('aborted', 'AbortError');
        if (controller) controller.error(reason);
        else reject(reason);
        finish();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      routes.set(id, (f) => {
        if (!controller) {
          if (f.t === 'result') {
            finish();
            resolve(new Response(restore(f.rpc), { status: 200, headers: { 'Content-Type': 'application/json' } }));
            return;
          }
          const body = new ReadableStream<Uint8Array>({
            start(c) {
              controller = c;
            },
            cancel() {
              send({ t: 'abort', id });
              finish();
            },
          });
          resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
        }
        if (f.t === 'event' || f.t === 'result') controller!.enqueue(encoder.encode(`data: ${restore(f.rpc)}\n\n`));
        if (f.t === 'end') {
          controller!.close();
          finish();
        }
      });
      send({ t: 'rpc', rpc });
    });
  }) as typeof fetch;
}
