/**
 * Init script for e2e tests (bundled with esbuild by tests/e2e/robot.spec.ts): replaces
 * `navigator.serial` with one simulated robot (src/robot/sim) on the far side of real byte
 * streams. The grant survives reloads (localStorage), like Chrome's permission for a device
 * with a serial number. `window.__robotSim` lets the test look at the robot and pull its cable.
 *
 * Knobs an earlier init script may set: `globalThis.__robotSimOptions` (e.g. a hello without
 * `draw`), and `globalThis.__robotFirmware` to put the independent device fake
 * (tests/support/robot/other-firmware.ts) behind the port instead: `'other'`, or a broken one,
 * `'broken-crc'`, `'broken-no-done'`, `'broken-duplicates'`, `'broken-seq8'`.
 */
import { FirmwareSim, type SimOptions } from '../../../src/robot/sim/firmware.ts';
import { SimPort, type WireDevice } from '../../../src/robot/sim/sim-port.ts';
import { OtherFirmware, type OtherFirmwareBugs } from '../../support/robot/other-firmware.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { SimSerial } from '../../support/robot/sim-serial.ts';

const KEY = 'agentcade.e2e.serialGranted';

function granted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

// Knob: an earlier init script may set `globalThis.__robotSimOptions` (e.g. a hello without `draw`).
const knobs = globalThis as unknown as { __robotSimOptions?: Partial<SimOptions>; __robotFirmware?: string };
const options = knobs.__robotSimOptions ?? {};
const sim = new FirmwareSim({ serial: 'E2E00001', random: steppingRandom(), ...options });
const BUGS: Record<string, OtherFirmwareBugs> = {
  other: {},
  'broken-crc': { crc: true },
  'broken-no-done': { noDone: true },
  'broken-duplicates': { forgetsDuplicates: true },
  'broken-seq8': { seq8: true },
};
const other = knobs.__robotFirmware ? new OtherFirmware({ serial: 'E2EOTHER', bugs: BUGS[knobs.__robotFirmware] ?? {} }) : null;
const port = new SimPort<WireDevice>(other ?? sim);
const serial = new SimSerial(port, {
  granted: granted(),
  onGrant: () => {
    try {
      localStorage.setItem(KEY, '1');
    } catch {
      /* opaque origin */
    }
  },
});

Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => serial });

(globalThis as unknown as { __robotSim: unknown }).__robotSim = {
  sim,
  port,
  serial,
  get state() {
    return sim.state;
  },
  get faults() {
    return sim.faults;
  },
  unplug: () => port.unplug(),
  plug: () => port.plug(),
  reboot: () => sim.reboot(),
};
