import type { TraceEvent } from '../../../src/core/trace/types.ts';

/** A clock the tests move by hand. */
export function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

export function ids(prefix = 'r') {
  let n = 0;
  return () => `${prefix}${++n}`;
}

export const ev = (e: Partial<TraceEvent> & Pick<TraceEvent, 'kind' | 'at'>): TraceEvent => ({ source: 'main', ...e });
