/**
 * Init script for the Android path in e2e tests (bundled with esbuild by
 * tests/e2e/robot-webusb.spec.ts): removes `navigator.serial`, as Android Chrome has none that
 * reaches USB robots, and puts a fake `navigator.usb` (src/robot/sim/usb-sim.ts) with one
 * simulated CDC-ACM robot in its place, so the app goes through web-serial-polyfill. The grant
 * survives reloads (localStorage). `window.__robotSim` lets the test look at the robot and pull
 * its cable.
 */
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { SimUsb } from '../../support/robot/usb-sim.ts';

const KEY = 'agentcade.e2e.usbGranted';

function granted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

const sim = new FirmwareSim({ serial: 'E2EUSB01', random: steppingRandom() });
const usb = new SimUsb(sim, {
  serialNumber: 'E2EUSB01',
  granted: granted(),
  onGrant: () => {
    try {
      localStorage.setItem(KEY, '1');
    } catch {
      /* opaque origin */
    }
  },
});

delete (Navigator.prototype as unknown as { serial?: unknown }).serial;
Object.defineProperty(Navigator.prototype, 'usb', { configurable: true, get: () => usb });

(globalThis as unknown as { __robotSim: unknown }).__robotSim = {
  sim,
  usb,
  get state() {
    return sim.state;
  },
  get device() {
    return usb.device;
  },
  unplug: () => usb.unplug(),
  plug: () => usb.plug(),
};
