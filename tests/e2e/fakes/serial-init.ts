/**
 * Init script for e2e tests (bundled with esbuild by tests/e2e/robot.spec.ts): replaces
 * `navigator.serial` with one simulated robot (src/robot/sim) on the far side of real byte
 * streams. The grant survives reloads (localStorage), like Chrome's permission for a device
 * with a serial number. `window.__robotSim` lets the test look at the robot and pull its cable.
 */
import { FirmwareSim, type SimOptions } from '../../../src/robot/sim/firmware.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
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
const options = (globalThis as unknown as { __robotSimOptions?: Partial<SimOptions> }).__robotSimOptions ?? {};
const sim = new FirmwareSim({ serial: 'E2E00001', random: steppingRandom(), ...options });
const port = new SimPort(sim);
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
