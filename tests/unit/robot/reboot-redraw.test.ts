/**
 * A robot that reboots in the middle of a drawing (brown-out: the port stays open and a new hello
 * comes) gets the current picture again exactly once: the host drops what was in flight, replays
 * the screen state (picture without animation, the held face) once, and the game hears the picture
 * is there. Checked at every point of the fish and the peacock from 你画我猜's catalogue.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { outcome, tick } from './harness.ts';
import { ANIMALS } from '../../../skills/draw-guess/animals.ts';
import { RobotLink } from '../../../src/robot/link.ts';
import { createOnScreenEngine } from '../../../src/robot/on-screen.ts';
import { RobotOutput } from '../../../src/robot/output-module.ts';
import { nativeSerialSource } from '../../../src/robot/serial-port.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
import { pictureCommands, pictureLimits } from '../../../src/core/robot/pictures.ts';
import type { DeviceResult, Drawing } from '../../../src/core/robot/types.ts';
import { RebootingFirmware } from '../../support/robot/rebooting-firmware.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { SimSerial } from '../../support/robot/sim-serial.ts';
import { TimedSpeech } from '../../support/robot/timed-speech.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const drawingOf = (id: string): Drawing => ANIMALS.find((a) => a.id === id)!.drawing;

async function rebootRig(bootMs?: number) {
  const sim = new FirmwareSim({ random: steppingRandom(), bootMs });
  const fw = new RebootingFirmware(sim);
  const port = new SimPort(fw);
  const serial = new SimSerial(port);
  const link = new RobotLink({ source: nativeSerialSource(serial as unknown as Serial) });
  const ok = link.connectByTap();
  await tick(1200 + (bootMs ?? 0));
  expect(await ok).toBe(true);
  const screen = createOnScreenEngine({ random: steppingRandom() });
  const speech = new TimedSpeech(undefined, 200);
  const output = new RobotOutput({ speech, screen: screen.link, robot: link });
  await tick(400);
  /** Closes both links and stops both robots, so the next rig's timers are not run alongside this one's. */
  const close = async () => {
    output.dispose();
    await Promise.all([link.close(), screen.link.close()]);
    sim.powerOff();
    screen.sim.powerOff();
  };
  return { sim, fw, link, output, speech, close };
}

/** What the game does (skills/draw-guess/game.ts): a picture stuck half-way is drawn once more. */
async function gameShows(output: RobotOutput, drawing: Drawing): Promise<{ result: DeviceResult; redrawn: boolean }> {
  let result = await output.showDrawing(drawing);
  let redrawn = false;
  if (!result.device_completed && result.error?.startsWith('robot_picture_incomplete')) {
    result = await output.showDrawing(drawing);
    redrawn = true;
  }
  return { result, redrawn };
}

interface Row {
  at: number;
  pieces: number;
  drawn: number;
  complete: boolean;
  strokes: number;
  drawEnds: number;
  busy: number;
  ms: number;
  completed: boolean;
}

/** Reboots at drawing request `at` (`on: 'request'`) or once `at` strokes are on the screen (`on: 'drawn'`); 0: no reboot. */
async function rebootAt(animal: string, at: number, on: 'request' | 'drawn' = 'request', bootMs?: number): Promise<Row> {
  const { sim, fw, link, output, close } = await rebootRig(bootMs);
  const drawing = drawingOf(animal);
  const pieces = pictureCommands({ kind: 'drawing', drawing }, true, pictureLimits(link.hello)).length - 2;
  if (on === 'request') fw.arm(at);
  else fw.armDrawn(at);
  const busy0 = link.stats.busy;
  const t0 = Date.now();
  const shown = outcome(gameShows(output, drawing));
  for (let waited = 0; !shown.settled && waited < 60_000; waited += 100) await tick(100);
  const ms = Date.now() - t0;
  await tick(1000); // anything still on its way arrives now
  const c = sim.state.content;
  await close();
  return {
    at,
    pieces,
    strokes: fw.counts.strokes,
    drawEnds: fw.counts.drawEnds,
    busy: link.stats.busy - busy0,
    ms,
    completed: shown.value?.result.device_completed ?? false,
    drawn: c.kind === 'drawing' ? c.strokes.length : -1,
    complete: c.kind === 'drawing' && c.complete,
  };
}

/** Reboots at every point of `animal`'s drawing: as each request arrives (draw.begin = 1 … draw.end), and as each stroke appears on the screen. */
async function everyRebootPoint(animal: string, bootMs?: number): Promise<{ rows: Row[]; plain: Row; pieces: number }> {
  const plain = await rebootAt(animal, 0);
  const rows: Row[] = [];
  for (let at = 1; at <= plain.pieces + 2; at++) rows.push(await rebootAt(animal, at, 'request', bootMs));
  for (let at = 1; at < plain.pieces; at++) rows.push({ ...(await rebootAt(animal, at, 'drawn', bootMs)), at: -at });
  return { rows, plain, pieces: plain.pieces };
}

const where = (at: number) => (at > 0 ? `request ${at}` : `stroke ${-at} drawn`);

/** The picture is whole on the robot and the game was told so; what was sent before the reboot plus one replay, no busy NAKs. */
function expectOneReplay(rows: Row[]): void {
  for (const r of rows) {
    const at = `reboot at ${where(r.at)}`;
    expect(r.completed, at).toBe(true);
    expect(r.drawn, at).toBe(r.pieces);
    expect(r.complete, at).toBe(true);
    // Strokes before the reboot + one replay: never more than two streams' worth, one draw.end each.
    expect(r.strokes, at).toBeLessThanOrEqual(2 * r.pieces);
    expect(r.drawEnds, at).toBeLessThanOrEqual(2);
    expect(r.busy, at).toBe(0);
  }
}

describe('one redraw after a reset', () => {
  for (const animal of ['fish', 'peacock']) {
    it(`${animal}: a reboot at any point of the drawing gets the picture replayed exactly once, no busy NAKs`, async () => {
      const { rows, plain, pieces } = await everyRebootPoint(animal);
      const worst = rows.reduce((a, b) => (b.strokes > a.strokes ? b : a));
      const slowest = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
      const mean = (k: 'strokes' | 'ms') => rows.reduce((s, r) => s + r[k], 0) / rows.length;
      console.log(
        `[reboot] ${animal}: ${pieces} pieces, no reboot ${plain.ms} ms; ${rows.length} reboot points; stroke requests per piece mean ${(mean('strokes') / pieces).toFixed(2)}, worst ${(worst.strokes / pieces).toFixed(2)} (at ${where(worst.at)}); ` +
          `draw.end worst ${Math.max(...rows.map((r) => r.drawEnds))}; busy NAKs ${rows.reduce((s, r) => s + r.busy, 0)}; time to done mean ${Math.round(mean('ms'))} ms, worst ${slowest.ms} ms (at ${where(slowest.at)})`,
      );
      expectOneReplay(rows);
    }, 120_000);
  }
});

describe('the held face after a reset', () => {
  it('a reboot while a face is held puts the face back once, over the replayed picture', async () => {
    const { sim, fw, output } = await rebootRig();
    const shown = outcome(output.showDrawing(drawingOf('fish')));
    await tick(3000);
    expect(shown.value).toEqual({ device_completed: true });
    void output.react('happy', 'none');
    await tick(300);
    expect(sim.state.face).toBe('happy');
    const before = fw.counts.frames;
    sim.reboot();
    await tick(1500);
    expect(sim.state.face).toBe('happy');
    expect(sim.state.content).toMatchObject({ kind: 'drawing', complete: true });
    // draw.begin + 12 pieces + draw.end + face.set: the replay, once.
    expect(fw.counts.frames - before).toBe(1 + 12 + 1 + 1);
  });
});

describe('a robot slow to come back after a reset', () => {
  // The ack give-up is 900 ms (300 ms × 3 tries): a hello later than that comes after the drawing's
  // requests have failed with a timeout, and must still lead to one replay, not a replay plus a redraw.
  for (const bootMs of [600, 1500, 2500]) {
    it(`${bootMs} ms to the hello: a reboot at any point of the fish is still one replay, no busy NAKs`, async () => {
      const { rows, pieces } = await everyRebootPoint('fish', bootMs);
      console.log(
        `[reboot] fish, ${bootMs} ms boot: stroke requests per piece worst ${(Math.max(...rows.map((r) => r.strokes)) / pieces).toFixed(2)}; ` +
          `draw.end worst ${Math.max(...rows.map((r) => r.drawEnds))}; busy ${rows.reduce((s, r) => s + r.busy, 0)}; time to done worst ${Math.max(...rows.map((r) => r.ms))} ms`,
      );
      expectOneReplay(rows);
    }, 60_000);
  }
});
