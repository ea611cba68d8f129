/**
 * The conformance kit on a real port (docs/robot-protocol.md §1): opens any `SerialPortLike` —
 * Web Serial, the WebUSB polyfill, or the simulator's port — the way the app's link does (115200
 * 8N1, DTR and RTS cleared), records every byte read into the kit's wire log, and closes in the
 * order Web Serial needs. The suite itself (src/core/robot/conformance/suite.ts) is pure.
 */
import { systemClock, type Clock } from '../clock.ts';
import type { SerialPortLike } from '../serial-port.ts';
import { WireLog } from '../../core/robot/conformance/wire-log.ts';
import type { ProbeIO } from '../../core/robot/conformance/probe.ts';
import { runConformance, type RunOptions } from '../../core/robot/conformance/suite.ts';
import type { ConformanceReport } from '../../core/robot/conformance/report.ts';

interface PortWire extends ProbeIO {
  close(): Promise<void>;
}

export async function openPortWire(port: SerialPortLike, clock: Clock = systemClock): Promise<PortWire> {
  await port.open({ baudRate: 115200, bufferSize: 16384 });
  await port.setSignals?.({ dataTerminalReady: false, requestToSend: false }).catch(() => {});
  if (!port.readable || !port.writable) {
    await port.close().catch(() => {});
    throw new Error('the port opened without streams');
  }
  const log = new WireLog();
  const writer = port.writable.getWriter();
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let closed = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };

  const readLoop = (async () => {
    // Non-fatal line errors replace port.readable; an unplug sets it to null.
    while (port.readable && !closed) {
      const r = port.readable.getReader();
      reader = r;
      try {
        for (;;) {
          const { value, done } = await r.read();
          if (done) break;
          if (value) log.received(value, clock.now());
          wake();
        }
      } catch {
        // next stream, or the end
      } finally {
        r.releaseLock();
        reader = null;
      }
    }
  })();

  return {
    log,
    now: () => clock.now(),
    async write(bytes) {
      await writer.ready;
      await writer.write(bytes);
    },
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
      if (closed) return;
      closed = true;
      const r = reader as ReadableStreamDefaultReader<Uint8Array> | null;
      if (r) await r.cancel().catch(() => {});
      await readLoop.catch(() => {});
      await writer.close().catch(() => writer.abort().catch(() => {}));
      writer.releaseLock();
      await port.close().catch(() => {});
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
