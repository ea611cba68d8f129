/**
 * Records one tool call (or device execution) with its arguments, result or error, and duration.
 * For producers: `await traced(trace, { kind: 'game_tool', source: 'game:guess-number', name: 'judge',
 * requestId, contextId }, args, () => tool(args))`.
 */
import type { TraceEvent, TraceSink } from './types.ts';

export type TracedBase = Omit<TraceEvent, 'at' | 'durationMs' | 'data'> & { data?: Record<string, unknown> };

export async function traced<T>(sink: TraceSink, base: TracedBase, args: unknown, fn: () => T | Promise<T>, now: () => number = Date.now): Promise<T> {
  const at = now();
  try {
    const result = await fn();
    sink.record({ ...base, at, durationMs: now() - at, data: { ...base.data, args, result } });
    return result;
  } catch (err) {
    sink.record({ ...base, at, durationMs: now() - at, data: { ...base.data, args, error: err } });
    throw err;
  }
}
