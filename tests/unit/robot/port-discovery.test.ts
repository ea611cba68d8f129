import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkState } from '../../../src/robot/link.ts';
import { systemClock } from '../../../src/robot/clock.ts';
import { PortDiscovery } from '../../../src/robot/port-discovery.ts';
import type { SerialPortLike, SerialSource } from '../../../src/robot/serial-port.ts';
import { tick } from './harness.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const port = (name: string) => ({ name }) as unknown as SerialPortLike;

/** A source with fixed granted ports and a plug button; `attach` succeeds on the ports listed in `answers`. */
function rig(granted: SerialPortLike[], answers: SerialPortLike[] = []) {
  let plugged: (() => void) | null = null;
  const source: SerialSource = {
    kind: 'fixed',
    requestPort: async () => granted[0],
    getPorts: async () => granted,
    onConnect: (cb) => {
      plugged = cb;
      return () => (plugged = null);
    },
  };
  let state: LinkState = 'none';
  const tried: string[] = [];
  const discovery = new PortDiscovery({
    source,
    clock: systemClock,
    retryMs: 2000,
    state: () => state,
    attach: async (p) => {
      tried.push((p as unknown as { name: string }).name);
      const ok = answers.includes(p);
      if (ok) state = 'ready';
      return ok;
    },
  });
  return { discovery, tried, plug: () => plugged?.(), setState: (s: LinkState) => (state = s), listening: () => plugged !== null };
}

describe('PortDiscovery', () => {
  it('hands the granted ports to attach in order until a robot is ready on one', async () => {
    const a = port('a');
    const b = port('b');
    const c = port('c');
    const { discovery, tried } = rig([a, b, c], [b]);
    expect(await discovery.tryGranted()).toBe(true);
    expect(tried).toEqual(['a', 'b']);
  });

  it('while the robot is lost, tries again every retry period until it is back; never while none', async () => {
    const a = port('a');
    const r = rig([a]);
    expect(await r.discovery.tryGranted()).toBe(false);
    await tick(5000);
    expect(r.tried).toEqual(['a']); // state none: no retry

    r.setState('lost');
    await r.discovery.tryGranted();
    await tick(2000);
    await tick(2000);
    expect(r.tried).toEqual(['a', 'a', 'a', 'a']);
  });

  it('a plug tries the granted ports only when no robot is ready or connecting', async () => {
    const r = rig([port('a')]);
    r.discovery.watch();
    r.discovery.watch(); // once, however often
    for (const s of ['ready', 'connecting', 'none', 'lost'] as const) {
      r.setState(s);
      r.plug();
      await tick(0);
    }
    expect(r.tried).toEqual(['a', 'a']);
  });

  it('stop: no more plugs, no more retries', async () => {
    const r = rig([port('a')]);
    r.discovery.watch();
    r.setState('lost');
    await r.discovery.tryGranted();
    r.discovery.stop();
    expect(r.listening()).toBe(false);
    expect(r.discovery.stopped).toBe(true);
    await tick(10_000);
    expect(await r.discovery.tryGranted()).toBe(false);
    expect(r.tried).toEqual(['a']);
  });
});
