/**
 * The main thread's trace recorder (seed 000 §Trace): the one TraceSink every producer writes to
 * (main agent, speech, robot output, and game workers through trace-port.ts).
 *
 * - `startRound(text)` opens a round with the user's input; main-side events without a round
 *   go to the current round.
 * - Sending a request registers its id under the round (`registerRequest`, or recording an
 *   `a2a_request` event with `requestId`); game-side records carrying that `requestId` are filed
 *   under that round whenever they arrive — after the round ended, before the registration
 *   (the store files them when it comes), or after a reload (the store keeps the registrations).
 * - Data is sanitized (plain JSON, API keys removed) before it is kept; writes are batched and
 *   applied in call order.
 */
import { designOf } from '../core/trace/designs.ts';
import { sanitizeTraceData } from '../core/trace/redact.ts';
import type { TraceEvent, TraceSink } from '../core/trace/types.ts';

/** Where the recorder writes (TraceStore implements it). */
interface TraceWriter {
  append(events: readonly TraceEvent[]): Promise<void>;
  registerRequest(requestId: string, roundId: string, at?: number): Promise<void>;
}

interface RecorderOptions {
  now?: () => number;
  newId?: () => string;
  /** Batch window before a write (ms). */
  flushDelayMs?: number;
  /** Called when the store refuses a write (the trace goes on in memory for listeners). */
  onError?: (err: unknown) => void;
}

type Op = { type: 'events'; events: TraceEvent[] } | { type: 'register'; requestId: string; roundId: string; at: number };

const MAX_KNOWN_REQUESTS = 2000;

export class TraceRecorder implements TraceSink {
  private current?: string;
  private readonly requests = new Map<string, string>();
  private queue: Op[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(events: readonly TraceEvent[]) => void>();
  private writer?: TraceWriter;
  private readonly ready: Promise<void>;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    writer: TraceWriter | Promise<TraceWriter> | null,
    private readonly opts: RecorderOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? (() => crypto.randomUUID());
    this.ready = Promise.resolve(writer).then(
      (w) => void (this.writer = w ?? undefined),
      (err) => opts.onError?.(err),
    );
  }

  get currentRoundId(): string | undefined {
    return this.current;
  }

  /** Opens a round with the user's input; returns its id. */
  startRound(text: string, extra?: { source?: string; data?: Record<string, unknown>; at?: number }): string {
    const roundId = this.newId();
    this.current = roundId;
    this.record({
      kind: 'user_input',
      at: extra?.at ?? this.now(),
      roundId,
      source: extra?.source ?? 'user',
      data: { ...extra?.data, text },
    });
    return roundId;
  }

  /** Files `requestId` (an A2A messageId the round is about to send) under the round. */
  registerRequest(requestId: string, roundId = this.current): void {
    if (!roundId || this.requests.get(requestId) === roundId) return;
    this.remember(requestId, roundId);
    this.enqueue({ type: 'register', requestId, roundId, at: this.now() });
  }

  /** The round a request belongs to, when this recorder registered it. */
  roundOf(requestId: string): string | undefined {
    return this.requests.get(requestId);
  }

  record(event: TraceEvent): void {
    let roundId = event.roundId;
    if (!roundId && event.requestId) roundId = this.requests.get(event.requestId);
    // Main-side events (and the request being sent) belong to the current round; game-side
    // records with an unknown request id wait for its registration.
    // A design session's records stay with their design (src/core/trace/designs.ts).
    if (!roundId && (!event.requestId || event.kind === 'a2a_request') && !designOf(event)) roundId = this.current;
    if (event.kind === 'a2a_request' && event.requestId && roundId && !this.requests.has(event.requestId)) {
      this.remember(event.requestId, roundId);
    }
    const clean: TraceEvent = {
      kind: event.kind,
      at: typeof event.at === 'number' && Number.isFinite(event.at) ? event.at : this.now(),
      source: String(event.source ?? 'unknown'),
    };
    if (roundId) clean.roundId = roundId;
    if (event.requestId) clean.requestId = String(event.requestId);
    if (event.contextId) clean.contextId = String(event.contextId);
    if (event.name !== undefined) clean.name = String(event.name);
    if (typeof event.durationMs === 'number' && Number.isFinite(event.durationMs)) clean.durationMs = event.durationMs;
    if (event.revealsSecret) clean.revealsSecret = true;
    if (event.data !== undefined) clean.data = sanitizeTraceData(event.data);

    const last = this.queue.at(-1);
    if (last?.type === 'events') last.events.push(clean);
    else this.enqueue({ type: 'events', events: [clean] });
    this.schedule();
  }

  /** Called with each batch after it is written (the trace screen refreshes on it). */
  subscribe(listener: (events: readonly TraceEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes everything recorded so far. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ops = this.queue;
    this.queue = [];
    this.writing = this.writing.then(() => this.apply(ops));
    return this.writing;
  }

  private async apply(ops: Op[]): Promise<void> {
    await this.ready;
    for (const op of ops) {
      try {
        if (op.type === 'events') await this.writer?.append(op.events);
        else await this.writer?.registerRequest(op.requestId, op.roundId, op.at);
      } catch (err) {
        this.opts.onError?.(err);
      }
      if (op.type === 'events') for (const l of this.listeners) l(op.events);
    }
  }

  private enqueue(op: Op): void {
    this.queue.push(op);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.flush(), this.opts.flushDelayMs ?? 50);
  }

  private remember(requestId: string, roundId: string): void {
    this.requests.set(requestId, roundId);
    if (this.requests.size > MAX_KNOWN_REQUESTS) this.requests.delete(this.requests.keys().next().value!);
  }
}
