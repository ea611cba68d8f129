/**
 * The on-screen robot's engine: a FirmwareSim driven through a real RobotLink over a SimPort,
 * so it takes exactly the commands, timings and code path the USB robot does. The Svelte
 * component (src/ui/robot/OnScreenRobot.svelte) renders `sim`'s state.
 */
import type { Clock } from './clock.ts';
import { RobotLink } from './link.ts';
import { fixedPortSource } from './serial-port.ts';
import { FirmwareSim } from './sim/firmware.ts';
import { SimPort } from './sim/sim-port.ts';

interface OnScreenEngine {
  sim: FirmwareSim;
  link: RobotLink;
  /** Resolves when the on-screen robot has said hello (about 0.3 s). */
  ready: Promise<void>;
  /** Settles when the first connect attempt is over, whether the robot answered or not. */
  started: Promise<void>;
}

interface OnScreenOptions {
  /** Random source for the simulator's boot id. */
  random: () => number;
  clock?: Clock;
}

export function createOnScreenEngine({ random, clock }: OnScreenOptions): OnScreenEngine {
  const sim = new FirmwareSim({ clock, random, serial: 'SCREEN', bootBanner: false });
  const port = new SimPort(sim);
  const link = new RobotLink({ source: fixedPortSource(port), clock });
  const ready = new Promise<void>((resolve) => {
    const off = link.on('ready', () => {
      off();
      resolve();
    });
  });
  const started = link.start();
  return { sim, link, ready, started };
}
