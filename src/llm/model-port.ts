/**
 * A ChatModel across a MessagePort: `exposeModel` on the main thread (the hub's model),
 * `connectModel` inside a game worker. Each step carries a request id; aborting the signal in
 * the worker sends `cancel` for that id, which aborts the step on the main thread (and so its
 * place in the queue or its generation). A prewarm crosses the same way (ChatModel.prewarm).
 * Errors keep their code and name.
 */
import { abortError } from './errors.ts';
import { ModelError, type ChatMessage, type ChatModel, type Step, type StepRequest } from '../core/llm/types.ts';

type WireRequest = Omit<StepRequest, 'signal' | 'onStream'> & { stream: boolean };

type ToModel =
  | { type: 'step'; id: number; req: WireRequest }
  | { type: 'prewarm'; id: number; agent: string; messages: ChatMessage[] }
  | { type: 'cancel'; id: number };
type FromModel =
  | { type: 'hello'; label: string }
  | { type: 'delta'; id: number; delta: string; attempt: number }
  | { type: 'step'; id: number; step: Step }
  | { type: 'warmed'; id: number }
  | { type: 'error'; id: number; name: string; code?: string; message: string };

/**
 * Serves `model` on `port` until the returned dispose function is called. A MessagePort has no
 * close event, so the owner (the hub's `openPort().close`, called when the game host stops the
 * worker) must dispose: that aborts every step of this port, running or still queued, so a dead
 * worker never holds the one shared model queue.
 */
export function exposeModel(model: ChatModel, port: MessagePort): () => void {
  // Every step this port asked for and that has not settled, whether queued or running.
  const running = new Map<number, AbortController>();
  let disposed = false;
  const post = (m: FromModel) => {
    if (!disposed) port.postMessage(m);
  };
  const onMessage = async (ev: MessageEvent<ToModel>) => {
    if (disposed) return;
    const msg = ev.data;
    if (msg.type === 'cancel') {
      running.get(msg.id)?.abort();
      return;
    }
    if (msg.type === 'prewarm') {
      const ac = new AbortController();
      running.set(msg.id, ac);
      void Promise.resolve(model.prewarm?.(msg.agent, msg.messages, ac.signal))
        .catch(() => undefined)
        .finally(() => {
          running.delete(msg.id);
          post({ type: 'warmed', id: msg.id });
        });
      return;
    }
    if (msg.type !== 'step') return;
    const ac = new AbortController();
    running.set(msg.id, ac);
    try {
      const { stream, ...req } = msg.req;
      const onStream = stream ? (delta: string, attempt: number) => post({ type: 'delta', id: msg.id, delta, attempt }) : undefined;
      const step = await model.step({ ...req, signal: ac.signal, onStream });
      post({ type: 'step', id: msg.id, step });
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      post({ type: 'error', id: msg.id, name: e?.name ?? 'Error', code: e?.code, message: e?.message ?? String(err) });
    } finally {
      running.delete(msg.id);
    }
  };
  port.addEventListener('message', onMessage as unknown as EventListener);
  port.start();
  post({ type: 'hello', label: model.label });
  return () => {
    if (disposed) return;
    disposed = true;
    port.removeEventListener('message', onMessage as unknown as EventListener);
    for (const ac of running.values()) ac.abort();
    running.clear();
    port.close();
  };
}

/** The ChatModel on the other end of a port given to a worker. */
export function connectModel(port: MessagePort): ChatModel {
  let label = '模型';
  let nextId = 1;
  const pending = new Map<number, { resolve: (s: Step) => void; reject: (e: unknown) => void; onStream?: StepRequest['onStream'] }>();
  const warming = new Map<number, () => void>();
  port.addEventListener('message', ((ev: MessageEvent<FromModel>) => {
    const msg = ev.data;
    if (msg.type === 'hello') {
      label = msg.label;
      return;
    }
    if (msg.type === 'warmed') {
      warming.get(msg.id)?.();
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'delta') {
      p.onStream?.(msg.delta, msg.attempt);
      return;
    }
    pending.delete(msg.id);
    if (msg.type === 'step') p.resolve(msg.step);
    else if (msg.name === 'AbortError') p.reject(new DOMException(msg.message, 'AbortError'));
    else if (msg.code) p.reject(new ModelError(msg.code, msg.message));
    else p.reject(Object.assign(new Error(msg.message), { name: msg.name }));
  }) as EventListener);
  port.start();
  return {
    get label() {
      return label;
    },
    /** Asks the hub to read `messages` into the engine's cache (a no-op for a model without a prefix cache). */
    prewarm(agent: string, messages: ChatMessage[], signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.resolve();
      const id = nextId++;
      return new Promise<void>((resolve) => {
        const onAbort = () => port.postMessage({ type: 'cancel', id } satisfies ToModel);
        signal.addEventListener('abort', onAbort, { once: true });
        warming.set(id, () => {
          warming.delete(id);
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
        port.postMessage({ type: 'prewarm', id, agent, messages } satisfies ToModel);
      });
    },
    step(req: StepRequest): Promise<Step> {
      const { signal, onStream, ...rest } = req;
      const wire: WireRequest = { ...rest, stream: !!onStream };
      if (signal?.aborted) return Promise.reject(abortError());
      const id = nextId++;
      return new Promise<Step>((resolve, reject) => {
        const onAbort = () => port.postMessage({ type: 'cancel', id } satisfies ToModel);
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          onStream,
          resolve: (s) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(s);
          },
          reject: (e) => {
            signal?.removeEventListener('abort', onAbort);
            reject(e);
          },
        });
        port.postMessage({ type: 'step', id, req: wire } satisfies ToModel);
      });
    },
  };
}
