/**
 * One call that wires the robot for the app: the on-screen robot, the USB link (when this
 * browser has Web Serial or WebUSB) and the output module. See docs/notes/robot.md.
 */
import type { Clock } from './clock.ts';
import { RobotLink } from './link.ts';
import { createOnScreenEngine } from './on-screen.ts';
import { RobotOutput } from './output-module.ts';
import { browserSerialSource, type SerialPortLike, type SerialSource } from './serial-port.ts';
import type { FirmwareSim } from './sim/firmware.ts';
import type { SpeechProgress } from './speech-progress.ts';
import type { TraceSink } from '../core/trace/types.ts';

export interface RobotSetup {
  /** The DevicePort for game workers (exposeDevice(output, port)), plus events notice/active/status. */
  output: RobotOutput;
  /** The USB robot link, or null when this browser cannot reach one (iPad). */
  link: RobotLink | null;
  /** The simulator behind the on-screen robot: give it to <OnScreenRobot robot={...}>. */
  screenSim: FirmwareSim;
  /** Call from a tap handler (user activation): shows the port chooser and connects. */
  connectByTap(): Promise<boolean>;
  /** Whether a "连接机器人" button makes sense here. */
  canConnect: boolean;
  /**
   * For the conformance kit: shows the port chooser (call it synchronously from a tap), then takes
   * the robot from the app — the link lets go of its port and the on-screen robot plays
   * meanwhile. `giveBack()` lets the link find the robot again. Null when nothing was picked or
   * this browser cannot reach USB.
   */
  borrowPort(): Promise<BorrowedPort | null>;
  dispose(): Promise<void>;
}

interface BorrowedPort {
  port: SerialPortLike;
  giveBack(): Promise<void>;
}

export interface RobotSetupOptions {
  speech: SpeechProgress;
  /** Where USB ports come from; default: the browser's (Web Serial, else WebUSB polyfill, else none). */
  source?: SerialSource | null;
  /** Random source for the on-screen robot's boot id (the app passes Math.random). */
  random: () => number;
  clock?: Clock;
  trace?: TraceSink;
  filters?: SerialPortFilter[];
}

export function createRobotOutput(opts: RobotSetupOptions): RobotSetup {
  const source = opts.source === undefined ? (typeof navigator === 'undefined' ? null : browserSerialSource(navigator)) : opts.source;
  const screen = createOnScreenEngine({ random: opts.random, clock: opts.clock });
  const link = source ? new RobotLink({ source, clock: opts.clock, filters: opts.filters }) : null;
  const output = new RobotOutput({ speech: opts.speech, screen: screen.link, screenStarted: screen.started, robot: link, clock: opts.clock, trace: opts.trace });
  // A robot granted earlier (reload, re-plug) connects without a tap.
  void link?.start();
  return {
    output,
    link,
    screenSim: screen.sim,
    canConnect: !!link,
    connectByTap: () => (link ? link.connectByTap() : Promise.resolve(false)),
    async borrowPort() {
      if (!link || !source) return null;
      // The chooser first, while the tap's user activation is fresh; then the link lets go.
      const picking = source.requestPort(opts.filters);
      let port: SerialPortLike;
      try {
        port = await picking;
      } catch {
        return null;
      }
      await link.close();
      return { port, giveBack: () => link.start() };
    },
    async dispose() {
      output.dispose();
      await link?.close();
      await screen.link.close();
    },
  };
}
