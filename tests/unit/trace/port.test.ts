import { describe, expect, it } from 'vitest';
import { connectTrace, exposeTrace } from '../../../src/trace/trace-port.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';

describe('trace over a MessagePort', () => {
  it('delivers a worker\'s events in order, stamped with its defaults, made cloneable', async () => {
    const { port1, port2 } = new MessageChannel();
    const got: TraceEvent[] = [];
    const stop = exposeTrace({ record: (e) => got.push(e) }, port1);
    const sink = connectTrace(port2, { defaults: { source: 'game:guess-number', contextId: 'c1' } });
    sink.record({ kind: 'game_tool', at: 1, source: undefined as unknown as string, requestId: 'm1', name: 'judge', data: { args: { n: 50 }, fn: () => 1, signal: new AbortController().signal } });
    for (let i = 0; i < 100; i++) sink.record({ kind: 'device', at: 2 + i, source: 'game:guess-number', requestId: 'm1', name: 'react' });
    sink.flush();
    await expect.poll(() => got.length).toBe(101);
    expect(got[0]).toMatchObject({ kind: 'game_tool', source: 'game:guess-number', contextId: 'c1', requestId: 'm1', data: { args: { n: 50 } } });
    expect(got.map((e) => e.at)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    stop();
    port2.close();
  });

  it('never throws in the worker when the main side is gone', async () => {
    const { port1, port2 } = new MessageChannel();
    port1.close();
    const sink = connectTrace(port2, { delayMs: 0 });
    expect(() => sink.record({ kind: 'reply', at: 1, source: 'game:x' })).not.toThrow();
    sink.flush();
    port2.close();
  });
});
