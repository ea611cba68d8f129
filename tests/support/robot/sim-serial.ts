/**
 * A stand-in for `navigator.serial` with one simulated robot behind it: `requestPort` grants
 * it, `getPorts` returns it once granted and while plugged, `connect` fires on re-plug.
 * Used by unit tests and by the e2e init script (tests/e2e/fakes/serial-init.ts).
 */
import type { SimPort, WireDevice } from '../../../src/robot/sim/sim-port.ts';

export interface SimSerialOptions {
  /** Already granted (a reload after an earlier tap). */
  granted?: boolean;
  /** Called when the user "picks" the robot in the chooser (the e2e fake persists it). */
  onGrant?: () => void;
}

export class SimSerial extends EventTarget {
  granted: boolean;
  /** How many times the chooser was shown. */
  requests = 0;

  constructor(
    readonly port: SimPort<WireDevice>,
    private readonly opts: SimSerialOptions = {},
  ) {
    super();
    this.granted = opts.granted ?? false;
    port.addEventListener('connect', () => {
      if (this.granted) this.dispatchEvent(new Event('connect'));
    });
    port.addEventListener('disconnect', () => {
      if (this.granted) this.dispatchEvent(new Event('disconnect'));
    });
  }

  async requestPort(_options?: SerialPortRequestOptions): Promise<SimPort<WireDevice>> {
    this.requests++;
    if (!this.port.plugged) throw new DOMException('No port selected by the user.', 'NotFoundError');
    if (!this.granted) {
      this.granted = true;
      this.opts.onGrant?.();
    }
    return this.port;
  }

  async getPorts(): Promise<Array<SimPort<WireDevice>>> {
    return this.granted && this.port.plugged ? [this.port] : [];
  }
}
