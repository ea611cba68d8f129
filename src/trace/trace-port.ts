/**
 * Trace events across a MessagePort (Comlink): a game worker records into `connectTrace(port)`,
 * the main thread forwards what arrives to its recorder with `exposeTrace(recorder, port)`.
 * Recording never blocks or throws in the worker: events are batched and sent fire-and-forget.
 */
import * as Comlink from 'comlink';
import { sanitizeTraceData } from '../core/trace/redact.ts';
import type { TraceEvent, TraceSink } from '../core/trace/types.ts';

/** The object exposed on the main side of the port. */
interface TracePortApi {
  recordBatch(events: TraceEvent[]): void;
}

/** Main thread: forwards every event arriving on `port` to `sink`. Returns a function that stops it. */
export function exposeTrace(sink: TraceSink, port: MessagePort): () => void {
  const api: TracePortApi = {
    recordBatch(events) {
      if (!Array.isArray(events)) return;
      for (const e of events) {
        if (e && typeof e === 'object' && typeof e.kind === 'string' && typeof e.source === 'string') sink.record(e);
      }
    },
  };
  Comlink.expose(api, port);
  return () => port.close();
}

interface PortTraceSink extends TraceSink {
  /** Sends what is buffered now (e.g. before the worker reports its final reply). */
  flush(): void;
}

interface ConnectTraceOptions {
  /** Fields stamped on every event unless set (e.g. `{ source: 'game:draw-guess' }`). */
  defaults?: Partial<TraceEvent>;
  /** Batch window in ms (0: the next task). */
  delayMs?: number;
  /** Buffer cap: past it the batch is sent at once. */
  maxBatch?: number;
}

/** Game worker: a TraceSink whose events go to the main thread over `port`. */
export function connectTrace(port: MessagePort, opts: ConnectTraceOptions = {}): PortTraceSink {
  const remote = Comlink.wrap<TracePortApi>(port);
  let buffer: TraceEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    // Fire-and-forget: a closed port or a clone failure must not disturb the game.
    remote.recordBatch(batch).catch(() => {});
  };
  return {
    record(event) {
      const e = { ...opts.defaults } as TraceEvent;
      for (const [k, v] of Object.entries(event)) if (v !== undefined) (e as unknown as Record<string, unknown>)[k] = v;
      // Plain JSON before it crosses the port (functions, signals… cannot be cloned).
      if (e.data !== undefined) e.data = sanitizeTraceData(e.data);
      buffer.push(e);
      if (buffer.length >= (opts.maxBatch ?? 64)) flush();
      else if (timer === undefined) timer = setTimeout(flush, opts.delayMs ?? 20);
    },
    flush,
  };
}
