/**
 * The conformance kit on a real port (docs/robot-protocol.md §1): opens any `SerialPortLike` —
 * Web Serial, the WebUSB polyfill, or the simulator's port — through the same port streams as the
 * app's link (port-streams.ts: 115200 8N1, DTR and RTS cleared, the close order Web Serial needs)
 * and records every byte read into the kit's wire log. The suite itself
 * (src/core/robot/conformance/suite.ts) is pure.
 */
import { systemClock, type Clock } from '../clock.ts';
import { openPortStreams } from '../port-streams.ts';
import type { SerialPortLike } from '../serial-port.ts';
import { WireLog } from '../../core/robot/conformance/wire-log.ts';
import type { ProbeIO } from '../../core/robot/conformance/probe.ts';
import { runConformance, type RunOptions } from '../../core/robot/conformance/suite.ts';
import type { ConformanceReport } from '../../core/robot/conformance/report.ts';

interface PortWire extends ProbeIO {
  close(): Promise<void>;
}

export async function openPortWire(port: SerialPortLike, clock: Clock = systemClock): Promise<PortWire> {
  const opening = await openPortStreams(port, 115200);
  if ('failed' in opening) throw opening.failed === 'open' ? opening.error : new Error('the port opened without streams');
  const { streams } = opening;
  const log = new WireLog();
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  streams.read((bytes) => {
    log.received(bytes, clock.now());
    wake();
  });

  return {
    log,
    now: () => clock.now(),
    write: (bytes) => streams.write(bytes),
    waitRx(ms) {
      return new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clock.clearTimeout(timer);
          resolve();
        };
        const timer = clock.setTimeout(done, ms);
        waiters.add(done);
      });
    },
    async close() {
      await streams.close();
      wake();
    },
  };
}

/** Opens `port`, runs the whole suite on it and closes it again. */
export async function runKitOnPort(port: SerialPortLike, opts: RunOptions & { clock?: Clock } = {}): Promise<ConformanceReport> {
  const wire = await openPortWire(port, opts.clock);
  try {
    return await runConformance(wire, opts);
  } finally {
    await wire.close();
  }
}
