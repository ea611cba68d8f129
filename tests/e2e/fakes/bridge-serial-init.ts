/**
 * Init script for e2e tests against a robot that runs outside the browser (bundled by
 * tests/e2e/robot-c-firmware.spec.ts): `navigator.serial` offers one port whose far end is a
 * bridge to the test runner — bytes the app writes go to `__fwWrite` (a Playwright binding that
 * writes them to the C firmware core's stdin), and bytes the firmware prints come back through
 * `__fwRx`. Everything above the byte streams (port, link, app) is the real code.
 */
import { SimPort, type WireDevice } from '../../../src/robot/sim/sim-port.ts';
import { SimSerial } from '../../support/robot/sim-serial.ts';

type Bridge = { __fwWrite?: (bytes: number[]) => Promise<void>; __fwRx?: (chunks: number[][]) => void };
const g = globalThis as unknown as Bridge & { __bridgeSerial: unknown };

class BridgeDevice implements WireDevice {
  private wire: ((bytes: Uint8Array) => void) | null = null;
  powerOn(wire: (bytes: Uint8Array) => void): void {
    this.wire = wire;
  }
  powerOff(): void {
    this.wire = null;
  }
  onBytes(bytes: Uint8Array): void {
    void g.__fwWrite?.(Array.from(bytes));
  }
  fromFirmware(chunks: number[][]): void {
    for (const c of chunks) this.wire?.(Uint8Array.from(c));
  }
}

const device = new BridgeDevice();
const port = new SimPort<WireDevice>(device, { usbVendorId: 0x303a, usbProductId: 0x4001 });
const serial = new SimSerial(port);
g.__fwRx = (chunks) => device.fromFirmware(chunks);
Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => serial });
g.__bridgeSerial = { port, serial };
