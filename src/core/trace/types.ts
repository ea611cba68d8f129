/**
 * Trace records (seed 000 §Trace). Game-side records carry the request id (A2A messageId)
 * so they are filed under the round that sent the request, whenever they arrive.
 */
export type TraceKind =
  | 'user_input'
  | 'main_tool'
  | 'a2a_request'
  | 'reply'
  | 'game_tool'
  | 'model_step'
  | 'speech'
  | 'device'
  /** The child-safety check: a blocked line (the original under data) or a child's words answered with care. */
  | 'safety'
  | 'error';

export interface TraceEvent {
  kind: TraceKind;
  /** Epoch ms. */
  at: number;
  /** The round (one user input) this belongs to, when known on the producing side. */
  roundId?: string;
  /** A2A messageId of the request, for game-side records. */
  requestId?: string;
  /** Who produced it: "main", "game:<id>", "speech", "robot". */
  source: string;
  /** e.g. tool name, or "spoken". */
  name?: string;
  data?: unknown;
  durationMs?: number;
  /** A2A contextId (game session), when known; scopes secret reveals (docs/notes/trace-pwa.md). */
  contextId?: string;
  /**
   * Marks the event that reveals this source's (and contextId's) secrets recorded so far: any
   * `secret` property inside `data` stays hidden in the trace view until such an event exists.
   */
  revealsSecret?: boolean;
}

export interface TraceSink {
  record(event: TraceEvent): void;
}

export const nullTrace: TraceSink = { record() {} };

/** Records one event; a sink that throws never breaks what is being recorded (the conversation, a game). */
export function recordSafely(trace: TraceSink, event: TraceEvent): void {
  try {
    trace.record(event);
  } catch {
    // Tracing never breaks what it traces.
  }
}
