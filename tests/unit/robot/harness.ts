/** Shared set-up for robot tests: a simulated robot on real byte streams, fake timers. */
import { vi } from 'vitest';
import { RobotLink, type LinkOptions } from '../../../src/robot/link.ts';
import { nativeSerialSource } from '../../../src/robot/serial-port.ts';
import { FirmwareSim, type SimOptions } from '../../../src/robot/sim/firmware.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { SimSerial } from '../../support/robot/sim-serial.ts';
import { TimedSpeech } from '../../support/robot/timed-speech.ts';
import { createOnScreenEngine } from '../../../src/robot/on-screen.ts';
import { RobotOutput } from '../../../src/robot/output-module.ts';
import type { Drawing } from '../../../src/core/robot/types.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';

export function robotRig(opts: { sim?: Partial<SimOptions>; granted?: boolean; link?: Partial<LinkOptions> } = {}) {
  const sim = new FirmwareSim({ random: steppingRandom(), ...opts.sim });
  const port = new SimPort(sim);
  const serial = new SimSerial(port, { granted: opts.granted });
  const link = new RobotLink({ source: nativeSerialSource(serial as unknown as Serial), ...opts.link });
  const events: string[] = [];
  link.on('state', (s) => events.push(`state:${s}`));
  link.on('lost', (l) => events.push(`lost:${l.code}`));
  link.on('error', (e) => events.push(`error:${e.code}`));
  link.on('ready', (r) => events.push(`ready${r.rebooted ? ':rebooted' : ''}`));
  return { sim, port, serial, link, events };
}

export const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Connects by "tap" and lets the robot boot and greet. */
export async function connected(opts: Parameters<typeof robotRig>[0] = {}) {
  const rig = robotRig(opts);
  const ok = rig.link.connectByTap();
  await tick(1200);
  if (!(await ok)) throw new Error(`did not connect: ${rig.events.join(' ')}`);
  return rig;
}

/** Settles a promise into a plain outcome so tests can assert without racing. */
export function outcome<T>(p: Promise<T>): { value?: T; error?: { code?: string; message: string }; settled: boolean } {
  const o: { value?: T; error?: { code?: string; message: string }; settled: boolean } = { settled: false };
  p.then(
    (v) => Object.assign(o, { value: v, settled: true }),
    (e: { code?: string; message: string }) => Object.assign(o, { error: { code: e.code, message: e.message }, settled: true }),
  );
  return o;
}

/** A connected USB robot, the on-screen robot and the output module over both, with a pretend speaker. */
export async function outputRig(opts: Parameters<typeof robotRig>[0] = {}) {
  const rig = await connected(opts);
  const screen = createOnScreenEngine({ random: steppingRandom() });
  const speech = new TimedSpeech(undefined, 200);
  const trace: TraceEvent[] = [];
  const output = new RobotOutput({ speech, screen: screen.link, robot: rig.link, trace: { record: (e) => trace.push(e) } });
  const notices: string[] = [];
  output.on('notice', (n) => notices.push(n));
  await tick(400);
  return { ...rig, screen, speech, output, notices, trace };
}

/** The drawing on a simulated robot's screen, or null when it shows something else. */
export function drawingOn(sim: FirmwareSim) {
  const c = sim.state.content;
  return c.kind === 'drawing' ? c : null;
}

/** A drawing of `n` short strokes (a "full drawing stream": many requests in a row). */
export function manyStrokes(id: string, n: number): Drawing {
  return { id, strokes: Array.from({ length: n }, (_, i) => [[10 + i, 20], [30 + i, 60], [50 + i, 20]] as Array<[number, number]>) };
}
