/**
 * A firmware double that reboots (a brown-out reset: the port stays open, a new hello with a new
 * boot id follows) when it receives its N-th drawing request (`draw.begin`, `draw.stroke` or
 * `draw.end`, counted from `arm()`), or when its screen has drawn the N-th stroke (`armDrawn()`). It passes every byte to a FirmwareSim and counts what the host
 * sent: distinct stroke requests, `draw.end` requests and `draw.begin`s, so a test can tell one
 * replay from a duplicate stream.
 */
import { FrameDecoder, FrameType, jsonPayload } from '../../../src/core/robot/frame.ts';
import type { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import type { WireDevice } from '../../../src/robot/sim/sim-port.ts';

export interface RebootCounts {
  /** Distinct `draw.stroke` Requests (first transmissions, by seq; resends of one seq count once). */
  strokes: number;
  drawBegins: number;
  drawEnds: number;
  /** Every Request frame, resends included. */
  frames: number;
}

export class RebootingFirmware implements WireDevice {
  counts: RebootCounts = { strokes: 0, drawBegins: 0, drawEnds: 0, frames: 0 };
  /** Reboot when this many drawing requests have arrived since `arm()` (0: never). */
  private rebootAt = 0;
  private drawingRequests = 0;
  private seen = new Set<number>();
  private readonly decoder = new FrameDecoder();
  rebooted = false;

  /** Reboot once the screen shows this many strokes of a drawing (0: never). */
  private rebootDrawn = 0;

  constructor(readonly sim: FirmwareSim) {
    sim.subscribe((state) => {
      const c = state.content;
      if (this.rebootDrawn > 0 && !this.rebooted && c.kind === 'drawing' && c.drawn >= this.rebootDrawn) {
        this.rebooted = true;
        queueMicrotask(() => this.sim.reboot());
      }
    });
  }

  /** Counts from zero and reboots when the `n`-th stroke of a drawing has been drawn on the screen. */
  armDrawn(n: number): void {
    this.arm(0);
    this.rebootDrawn = n;
  }

  /** Counts from zero and reboots at the `at`-th drawing request (1 = on `draw.begin`). */
  arm(at: number): void {
    this.rebootAt = at;
    this.rebootDrawn = 0;
    this.drawingRequests = 0;
    this.rebooted = false;
    this.counts = { strokes: 0, drawBegins: 0, drawEnds: 0, frames: 0 };
    this.seen.clear();
  }

  powerOn(wire: (bytes: Uint8Array) => void): void {
    this.sim.powerOn(wire);
  }

  powerOff(): void {
    this.sim.powerOff();
  }

  onBytes(bytes: Uint8Array): void {
    let trigger = false;
    for (const f of this.decoder.push(bytes)) {
      if (f.type !== FrameType.Request) continue;
      this.counts.frames++;
      const method = jsonPayload(f)?.method;
      if (typeof method !== 'string' || !method.startsWith('draw.')) continue;
      const first = !this.seen.has(f.seq);
      this.seen.add(f.seq);
      if (!first) continue;
      if (method === 'draw.stroke') this.counts.strokes++;
      if (method === 'draw.begin') this.counts.drawBegins++;
      if (method === 'draw.end') this.counts.drawEnds++;
      if (!this.rebooted && this.rebootAt > 0 && ++this.drawingRequests === this.rebootAt) trigger = true;
    }
    this.sim.onBytes(bytes);
    if (trigger) {
      this.rebooted = true;
      this.sim.reboot();
    }
  }
}
