/**
 * A ChatModel across a MessagePort (Comlink, like the device and trace ports): `exposeModel` on the
 * main thread (the hub's model), `connectModel` inside a game worker. The step's streamed text comes
 * back through a proxied callback; every piece is acknowledged before the step itself resolves, so
 * the worker hears the whole text before the step (two ports keep no order between them). Aborting
 * the signal in the worker calls `cancel` for the step's id, which aborts the step on the main
 * thread (and so its place in the queue or its generation); its `background` signal crosses the
 * same way (`background`). A prewarm crosses the same way
 * (ChatModel.prewarm). Errors keep their code and name.
 */
import * as Comlink from 'comlink';
import { abortError } from './errors.ts';
import { DEFAULT_TRAITS, ModelError, type ChatMessage, type ChatModel, type EngineTraits, type Step, type StepRequest } from '../core/llm/types.ts';
import { isErrorCode } from '../core/errors/catalogue.ts';

type WireRequest = Omit<StepRequest, 'signal' | 'onStream' | 'background'>;
type OnStream = NonNullable<StepRequest['onStream']>;

/** A step's outcome as it crosses the port (a thrown error would lose its code). */
type WireOutcome = { ok: true; step: Step } | { ok: false; name: string; code?: string; message: string };

/** The object exposed on the main side of the port. */
interface ModelPortApi {
  label(): string;
  traits(): Promise<EngineTraits>;
  step(id: number, req: WireRequest, onStream?: OnStream): Promise<WireOutcome>;
  /** Resolves when the prewarm is done or stopped; never rejects. */
  prewarm(id: number, agent: string, messages: ChatMessage[]): Promise<void>;
  cancel(id: number): void;
  /** The step now runs in the background (StepRequest.background). */
  background(id: number): void;
}

/**
 * Serves `model` on `port` until the returned dispose function is called. A MessagePort has no
 * close event, so the owner (the hub's `openPort().close`, called when the game host stops the
 * worker) must dispose: that aborts every step of this port, running or still queued, so a dead
 * worker never holds the one shared model queue.
 */
export function exposeModel(model: ChatModel, port: MessagePort): () => void {
  // Every step this port asked for and that has not settled, whether queued or running.
  const running = new Map<number, AbortController>();
  // The background signal of every step asked for that has not settled.
  const background = new Map<number, AbortController>();
  let disposed = false;
  const api: ModelPortApi = {
    label: () => model.label,
    traits: async () => (await model.traits?.()) ?? DEFAULT_TRAITS,
    cancel(id) {
      running.get(id)?.abort();
    },
    background(id) {
      background.get(id)?.abort();
    },
    async prewarm(id, agent, messages) {
      const ac = new AbortController();
      running.set(id, ac);
      try {
        await model.prewarm?.(agent, messages, ac.signal);
      } catch {
      } finally {
        running.delete(id);
      }
    },
    async step(id, req, onStream) {
      const ac = new AbortController();
      const bg = new AbortController();
      running.set(id, ac);
      background.set(id, bg);
      // The last piece's acknowledgement: the worker has heard every piece once it resolves.
      let heard: unknown = undefined;
      try {
        const step = await model.step({
          ...req,
          signal: ac.signal,
          background: bg.signal,
          onStream: onStream && ((delta, attempt) => void (heard = (onStream(delta, attempt) as unknown as Promise<void>).catch(() => undefined))),
        });
        await heard;
        return { ok: true, step };
      } catch (err) {
        await heard;
        const e = err as { name?: string; code?: string; message?: string };
        return { ok: false, name: e?.name ?? 'Error', code: e?.code, message: e?.message ?? String(err) };
      } finally {
        running.delete(id);
        background.delete(id);
        (onStream as Comlink.Remote<OnStream> | undefined)?.[Comlink.releaseProxy]();
      }
    },
  };
  Comlink.expose(api, port);
  return () => {
    if (disposed) return;
    disposed = true;
    for (const ac of running.values()) ac.abort();
    running.clear();
    background.clear();
    port.close();
  };
}

/** The ChatModel on the other end of a port given to a worker. */
export function connectModel(port: MessagePort): ChatModel {
  const remote = Comlink.wrap<ModelPortApi>(port);
  let label = '模型';
  void remote.label().then(
    (l) => (label = l),
    () => undefined,
  );
  let nextId = 1;
  return {
    get label() {
      return label;
    },
    traits: async () => (await remote.traits().catch(() => undefined)) ?? DEFAULT_TRAITS,
    /** Asks the hub to read `messages` into the engine's cache (a no-op for a model without a prefix cache). */
    async prewarm(agent: string, messages: ChatMessage[], signal: AbortSignal): Promise<void> {
      if (signal.aborted) return;
      const id = nextId++;
      const onAbort = () => void remote.cancel(id);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await remote.prewarm(id, agent, messages);
      } catch {
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    async step(req: StepRequest): Promise<Step> {
      const { signal, onStream, background, ...wire } = req;
      if (signal?.aborted) throw abortError();
      const id = nextId++;
      const onAbort = () => void remote.cancel(id);
      const onBackground = () => void remote.background(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const asked = remote.step(id, wire, onStream ? Comlink.proxy(onStream) : undefined);
        // After the step's own message: the main side knows its id by then (one port keeps its order).
        if (background?.aborted) onBackground();
        else background?.addEventListener('abort', onBackground, { once: true });
        const out = await asked;
        if (out.ok) return out.step;
        if (out.name === 'AbortError') throw new DOMException(out.message, 'AbortError');
        if (out.code) throw new ModelError(isErrorCode(out.code) ? out.code : 'unknown', out.message);
        throw Object.assign(new Error(out.message), { name: out.name });
      } finally {
        signal?.removeEventListener('abort', onAbort);
        background?.removeEventListener('abort', onBackground);
      }
    },
  };
}
