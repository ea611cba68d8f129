/**
 * A WebUSB stand-in for the Android path: `SimUsbDevice` looks like a native USB CDC-ACM robot
 * (a communications interface, class 2, and a data interface, class 10, with bulk IN/OUT
 * endpoints) and `SimUsb` like `navigator.usb` (requestDevice, getDevices, connect/disconnect
 * events). `web-serial-polyfill` builds its `SerialPort` on top of them, so tests run our link
 * through the polyfill's real code. The far end of the bulk endpoints is a `FirmwareSim`.
 *
 * Where it copies Chrome (the parts the polyfill and the link can tell apart):
 * - an unplug rejects every pending transfer with NetworkError "The device was disconnected.",
 *   sets `opened` to false and fires `disconnect` on navigator.usb; the dead USBDevice stays dead;
 * - a re-plug is a NEW USBDevice object (Chrome gives it a new guid), returned by getDevices()
 *   and announced by `connect` only if the grant survived: it does when the device has a USB
 *   serial number, and not otherwise (Linux/Android, whatwg/usb #269);
 * - `close()` cancels pending transfers (AbortError "The transfer was cancelled.");
 * - bytes the robot sends wait in its TX FIFO until the host polls with transferIn (bulk IN is
 *   host-driven); a full FIFO drops what does not fit.
 * No timers: everything happens on promise turns, so fake timers and real ones both work.
 */
import type { FirmwareSim } from '../../../src/robot/sim/firmware.ts';

// Minimal WebUSB shapes (the project has no @types/w3c-web-usb); structurally what the polyfill reads.
export type UsbDirection = 'in' | 'out';
export interface UsbEndpoint {
  endpointNumber: number;
  direction: UsbDirection;
  type: 'bulk' | 'interrupt' | 'isochronous';
  packetSize: number;
}
export interface UsbAlternate {
  alternateSetting: number;
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  interfaceName: string | null;
  endpoints: UsbEndpoint[];
}
export interface UsbInterface {
  interfaceNumber: number;
  alternate: UsbAlternate;
  alternates: UsbAlternate[];
  claimed: boolean;
}
export interface UsbConfiguration {
  configurationValue: number;
  configurationName: string | null;
  interfaces: UsbInterface[];
}
export interface UsbControlSetup {
  requestType: 'standard' | 'class' | 'vendor';
  recipient: 'device' | 'interface' | 'endpoint' | 'other';
  request: number;
  value: number;
  index: number;
}
export interface UsbDeviceFilter {
  vendorId?: number;
  productId?: number;
  classCode?: number;
  subclassCode?: number;
  protocolCode?: number;
  serialNumber?: string;
}

/** CDC-ACM class requests (USB CDC 1.1 §6.2). */
export const CDC_REQUEST = { SET_LINE_CODING: 0x20, GET_LINE_CODING: 0x21, SET_CONTROL_LINE_STATE: 0x22, SEND_BREAK: 0x23 } as const;
export const USB_CLASS = { CDC_CONTROL: 2, CDC_DATA: 10 } as const;

const EP_IN = 1;
const EP_OUT = 1;
const PACKET = 64;

export interface LineCoding {
  baudRate: number;
  /** 0 = 1 stop bit, 1 = 1.5, 2 = 2 (CDC encoding). */
  stopBits: number;
  /** 0 none, 1 odd, 2 even, 3 mark, 4 space. */
  parity: number;
  dataBits: number;
}

export interface SimUsbDeviceOptions {
  vendorId?: number;
  productId?: number;
  /** USB iSerialNumber; empty = none (Chrome then forgets the grant on re-plug). */
  serialNumber?: string;
  /** The robot's TX FIFO in bytes (TinyUSB's CDC TX buffer is of this order). */
  txFifo?: number;
}

export interface SimUsbFaults {
  /** Android with the kernel's cdc_acm bound to the robot: claimInterface fails (web-serial-polyfill #39). */
  claimDenied: boolean;
}

const disconnected = () => new DOMException('The device was disconnected.', 'NetworkError');
const gone = () => new DOMException('The device was disconnected.', 'NotFoundError');
const notOpen = () => new DOMException('The device must be opened first.', 'InvalidStateError');

interface PendingIn {
  length: number;
  resolve(r: { status: 'ok'; data: DataView }): void;
  reject(e: unknown): void;
}

/** One USB device object as Chrome hands it out: dead after an unplug (the robot re-appears as a new one). */
export class SimUsbDevice {
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber: string;
  readonly manufacturerName = 'Agentcade';
  readonly productName = 'Agentcade Robot (sim)';
  readonly deviceClass = 0xef; // miscellaneous / IAD, what TinyUSB and ESP32-S3 CDC report
  readonly deviceSubclass = 2;
  readonly deviceProtocol = 1;
  readonly usbVersionMajor = 2;
  readonly usbVersionMinor = 0;
  readonly usbVersionSubminor = 0;
  readonly configurations: UsbConfiguration[];
  configuration: UsbConfiguration | null = null;
  opened = false;
  /** False once unplugged: this object never comes back. */
  attached = true;
  lineCoding: LineCoding | null = null;
  signals = { dtr: false, rts: false };
  /** What the host did, in order: open, selectConfiguration, claim, SET_LINE_CODING …, close. */
  readonly log: string[] = [];
  /** Bytes the robot sent that did not fit in its FIFO. */
  dropped = 0;
  /** Most transferIn calls that were pending at once (the polyfill may queue several). */
  maxPendingIn = 0;

  private fifo: Uint8Array[] = [];
  private fifoBytes = 0;
  private pendingIn: PendingIn[] = [];
  private readonly txFifo: number;

  constructor(
    readonly sim: FirmwareSim,
    private readonly faults: SimUsbFaults,
    opts: SimUsbDeviceOptions = {},
  ) {
    this.vendorId = opts.vendorId ?? 0x303a;
    this.productId = opts.productId ?? 0x1001;
    this.serialNumber = opts.serialNumber ?? 'SIM00001';
    this.txFifo = opts.txFifo ?? 4096;
    const alt = (cls: number, sub: number, proto: number, endpoints: UsbEndpoint[]): UsbAlternate => ({
      alternateSetting: 0,
      interfaceClass: cls,
      interfaceSubclass: sub,
      interfaceProtocol: proto,
      interfaceName: null,
      endpoints,
    });
    const iface = (n: number, a: UsbAlternate): UsbInterface => ({ interfaceNumber: n, alternate: a, alternates: [a], claimed: false });
    this.configurations = [
      {
        configurationValue: 1,
        configurationName: null,
        interfaces: [
          // Communications: ACM (subclass 2), AT commands none; its notification endpoint.
          iface(0, alt(USB_CLASS.CDC_CONTROL, 2, 0, [{ endpointNumber: 2, direction: 'in', type: 'interrupt', packetSize: 8 }])),
          iface(1, alt(USB_CLASS.CDC_DATA, 0, 0, [
            { endpointNumber: EP_OUT, direction: 'out', type: 'bulk', packetSize: PACKET },
            { endpointNumber: EP_IN, direction: 'in', type: 'bulk', packetSize: PACKET },
          ])),
        ],
      },
    ];
  }

  /** Transfers waiting for the robot to send something. */
  get pendingTransfers(): number {
    return this.pendingIn.length;
  }

  // ---- WebUSB surface ------------------------------------------------------------------------

  async open(): Promise<void> {
    if (!this.attached) throw gone();
    this.log.push('open');
    this.opened = true;
  }

  async close(): Promise<void> {
    if (!this.attached) throw gone();
    this.log.push('close');
    this.opened = false;
    for (const i of this.configuration?.interfaces ?? []) i.claimed = false;
    this.cancelPending(new DOMException('The transfer was cancelled.', 'AbortError'));
    this.signals = { dtr: false, rts: false };
  }

  async forget(): Promise<void> {
    this.log.push('forget');
  }

  async selectConfiguration(value: number): Promise<void> {
    this.check();
    const c = this.configurations.find((x) => x.configurationValue === value);
    if (!c) throw new DOMException('The configuration value provided is not supported by the device.', 'NotFoundError');
    this.log.push(`selectConfiguration(${value})`);
    this.configuration = c;
  }

  async claimInterface(n: number): Promise<void> {
    this.check();
    const i = this.iface(n);
    if (this.faults.claimDenied) throw new DOMException('Unable to claim interface.', 'SecurityError');
    this.log.push(`claimInterface(${n})`);
    i.claimed = true;
  }

  async releaseInterface(n: number): Promise<void> {
    this.check();
    this.log.push(`releaseInterface(${n})`);
    this.iface(n).claimed = false;
  }

  async controlTransferOut(setup: UsbControlSetup, data?: BufferSource): Promise<{ status: 'ok' | 'stall'; bytesWritten: number }> {
    this.check();
    if (setup.requestType !== 'class' || setup.recipient !== 'interface' || setup.index !== 0) return { status: 'stall', bytesWritten: 0 };
    if (!this.iface(0).claimed) throw new DOMException('The specified interface has not been claimed.', 'InvalidStateError');
    if (setup.request === CDC_REQUEST.SET_LINE_CODING) {
      const view = data instanceof ArrayBuffer ? new DataView(data) : data ? new DataView(data.buffer, data.byteOffset, data.byteLength) : null;
      if (!view || view.byteLength !== 7) return { status: 'stall', bytesWritten: 0 };
      this.lineCoding = { baudRate: view.getUint32(0, true), stopBits: view.getUint8(4), parity: view.getUint8(5), dataBits: view.getUint8(6) };
      const c = this.lineCoding;
      this.log.push(`SET_LINE_CODING ${c.baudRate} ${c.dataBits}${'NOEMS'[c.parity] ?? '?'}${[1, 1.5, 2][c.stopBits] ?? '?'}`);
      return { status: 'ok', bytesWritten: 7 };
    }
    if (setup.request === CDC_REQUEST.SET_CONTROL_LINE_STATE) {
      // A native CDC robot ignores these (docs/robot-protocol.md §1): they never reset it.
      this.signals = { dtr: (setup.value & 1) !== 0, rts: (setup.value & 2) !== 0 };
      this.log.push(`SET_CONTROL_LINE_STATE DTR=${+this.signals.dtr} RTS=${+this.signals.rts}`);
      return { status: 'ok', bytesWritten: 0 };
    }
    if (setup.request === CDC_REQUEST.SEND_BREAK) {
      this.log.push(`SEND_BREAK ${setup.value}`);
      return { status: 'ok', bytesWritten: 0 };
    }
    return { status: 'stall', bytesWritten: 0 };
  }

  async transferIn(endpointNumber: number, length: number): Promise<{ status: 'ok'; data: DataView }> {
    this.checkEndpoint(endpointNumber, 'in');
    return new Promise((resolve, reject) => {
      this.pendingIn.push({ length, resolve, reject });
      this.maxPendingIn = Math.max(this.maxPendingIn, this.pendingIn.length);
      this.deliver();
    });
  }

  async transferOut(endpointNumber: number, data: BufferSource): Promise<{ status: 'ok'; bytesWritten: number }> {
    this.checkEndpoint(endpointNumber, 'out');
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data.slice(0)) : new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    this.sim.onBytes(bytes);
    return { status: 'ok', bytesWritten: bytes.byteLength };
  }

  // ---- the robot's side ------------------------------------------------------------------------

  /** Called by the firmware: queue bytes for the host's next bulk IN poll. */
  fromRobot(bytes: Uint8Array): void {
    if (!this.attached) return;
    const room = this.txFifo - this.fifoBytes;
    const fit = bytes.byteLength <= room ? bytes : bytes.subarray(0, Math.max(0, room));
    this.dropped += bytes.byteLength - fit.byteLength;
    if (fit.byteLength) {
      this.fifo.push(fit.slice());
      this.fifoBytes += fit.byteLength;
    }
    this.deliver();
  }

  /** The cable is pulled: fail every transfer as Chrome does; this object is dead from now on. */
  detach(): void {
    if (!this.attached) return;
    this.attached = false;
    this.opened = false;
    this.fifo = [];
    this.fifoBytes = 0;
    this.cancelPending(disconnected());
  }

  private deliver(): void {
    while (this.pendingIn.length && this.fifoBytes && this.opened) {
      const t = this.pendingIn.shift()!;
      const out = new Uint8Array(Math.min(t.length, this.fifoBytes));
      let at = 0;
      while (at < out.length) {
        const head = this.fifo[0];
        const n = Math.min(head.byteLength, out.length - at);
        out.set(head.subarray(0, n), at);
        at += n;
        if (n === head.byteLength) this.fifo.shift();
        else this.fifo[0] = head.subarray(n);
      }
      this.fifoBytes -= out.length;
      t.resolve({ status: 'ok', data: new DataView(out.buffer) });
    }
  }

  private cancelPending(e: unknown): void {
    const pending = this.pendingIn;
    this.pendingIn = [];
    for (const t of pending) t.reject(e);
  }

  private check(): void {
    if (!this.attached) throw gone();
    if (!this.opened) throw notOpen();
  }

  private iface(n: number): UsbInterface {
    const i = this.configuration?.interfaces.find((x) => x.interfaceNumber === n);
    if (!i) throw new DOMException('The interface number provided is not supported by the device in its current configuration.', 'NotFoundError');
    return i;
  }

  private checkEndpoint(n: number, dir: UsbDirection): void {
    this.check();
    const owner = this.configuration?.interfaces.find((i) => i.alternate.endpoints.some((e) => e.endpointNumber === n && e.direction === dir));
    if (!owner?.claimed) throw new DOMException('The specified endpoint is not part of a claimed and selected alternate interface.', 'NotFoundError');
  }
}

export interface SimUsbOptions extends SimUsbDeviceOptions {
  /** Already granted (a reload after an earlier tap). */
  granted?: boolean;
  /** Called when the user picks the robot in the chooser (the e2e fake persists it). */
  onGrant?: () => void;
}

function matches(d: SimUsbDevice, f: UsbDeviceFilter): boolean {
  if (f.vendorId !== undefined && f.vendorId !== d.vendorId) return false;
  if (f.productId !== undefined && f.productId !== d.productId) return false;
  if (f.serialNumber !== undefined && f.serialNumber !== d.serialNumber) return false;
  if (f.classCode === undefined) return true;
  // WebUSB matches the class on the device or on any of its interfaces.
  if (d.deviceClass === f.classCode) return true;
  return d.configurations.some((c) => c.interfaces.some((i) => i.alternates.some((a) => a.interfaceClass === f.classCode)));
}

/** `navigator.usb` with one simulated robot that can be unplugged and plugged back in. */
export class SimUsb extends EventTarget {
  device: SimUsbDevice;
  granted: boolean;
  plugged = true;
  /** How many times the chooser was shown, and the filters it got last. */
  requests = 0;
  lastFilters: UsbDeviceFilter[] = [];
  readonly faults: SimUsbFaults = { claimDenied: false };

  constructor(
    readonly sim: FirmwareSim,
    private readonly opts: SimUsbOptions = {},
  ) {
    super();
    this.granted = opts.granted ?? false;
    this.device = this.attach();
  }

  async requestDevice(options: { filters: UsbDeviceFilter[] }): Promise<SimUsbDevice> {
    this.requests++;
    this.lastFilters = options.filters;
    const ok = this.plugged && (options.filters.length === 0 || options.filters.some((f) => matches(this.device, f)));
    if (!ok) throw new DOMException('No device selected.', 'NotFoundError');
    if (!this.granted) {
      this.granted = true;
      this.opts.onGrant?.();
    }
    return this.device;
  }

  async getDevices(): Promise<SimUsbDevice[]> {
    return this.granted && this.plugged ? [this.device] : [];
  }

  /** Pull the cable: the robot loses power, pending transfers fail, `disconnect` fires. */
  unplug(): void {
    if (!this.plugged) return;
    this.plugged = false;
    this.sim.powerOff();
    const dead = this.device;
    dead.detach();
    if (this.granted) this.dispatchEvent(Object.assign(new Event('disconnect'), { device: dead }));
  }

  /** Plug it back in: a new USBDevice object; the robot boots and its hello waits in the FIFO. */
  plug(): void {
    if (this.plugged) return;
    this.plugged = true;
    // Without a serial number Chrome cannot tell it is the same robot: the grant is gone.
    if (!this.device.serialNumber) this.granted = false;
    this.device = this.attach();
    if (this.granted) this.dispatchEvent(Object.assign(new Event('connect'), { device: this.device }));
  }

  private attach(): SimUsbDevice {
    const d = new SimUsbDevice(this.sim, this.faults, this.opts);
    this.sim.powerOn((bytes) => d.fromRobot(bytes));
    return d;
  }
}
