/**
 * What the link needs from a serial port, and where ports come from. Native Web Serial
 * (`navigator.serial`), the WebUSB CDC-ACM polyfill (Android) and the simulator's `SimPort`
 * all fit `SerialPortLike`; a `SerialSource` hides how ports are found and re-found.
 */

export interface SerialPortLike {
  readonly readable: ReadableStream<Uint8Array> | null;
  readonly writable: WritableStream<Uint8Array> | null;
  open(options: SerialOptions): Promise<void>;
  close(): Promise<void>;
  getInfo?(): SerialPortInfo;
  setSignals?(signals: SerialOutputSignals): Promise<void>;
  /** Native and simulated ports fire `disconnect` on unplug; the polyfill does not (its reads fail instead). */
  addEventListener?(type: 'disconnect', listener: () => void): void;
  removeEventListener?(type: 'disconnect', listener: () => void): void;
}

export interface SerialSource {
  readonly kind: 'serial' | 'usb' | 'fixed';
  /** Shows the browser's chooser; must run inside a tap (user activation), on the main thread. */
  requestPort(filters?: SerialPortFilter[]): Promise<SerialPortLike>;
  /** Ports granted earlier (after a reload or re-plug). */
  getPorts(): Promise<SerialPortLike[]>;
  /** A granted device was plugged in. Returns an unsubscribe function. */
  onConnect(cb: () => void): () => void;
}

/** Desktop Chrome/Edge (and Android 148+ when it works): the real Web Serial API. */
export function nativeSerialSource(serial: Serial): SerialSource {
  return {
    kind: 'serial',
    requestPort: (filters) => serial.requestPort(filters?.length ? { filters } : undefined),
    getPorts: () => serial.getPorts(),
    onConnect(cb) {
      const listener = () => cb();
      serial.addEventListener('connect', listener);
      return () => serial.removeEventListener('connect', listener);
    },
  };
}

interface UsbLike {
  addEventListener(type: 'connect', l: () => void): void;
  removeEventListener(type: 'connect', l: () => void): void;
}

/**
 * Android: WebUSB through `web-serial-polyfill` (CDC-ACM devices only). The polyfill has no
 * connect events, so `navigator.usb`'s are used; it has no disconnect event either, but its
 * reads fail when the device goes, which the link treats as an unplug.
 */
function polyfillSerialSource(usb: UsbLike): SerialSource {
  type Polyfill = { serial: { requestPort(o?: SerialPortRequestOptions): Promise<PolyfillPort>; getPorts(): Promise<PolyfillPort[]> } };
  const load = () => import('web-serial-polyfill') as unknown as Promise<Polyfill>;
  return {
    kind: 'usb',
    requestPort: async (filters) => oneReadAtATime(await (await load()).serial.requestPort(filters?.length ? { filters } : undefined)),
    getPorts: async () => (await (await load()).serial.getPorts()).map(oneReadAtATime),
    onConnect(cb) {
      const listener = () => cb();
      usb.addEventListener('connect', listener);
      return () => usb.removeEventListener('connect', listener);
    },
  };
}

/** The polyfill's SerialPort (web-serial-polyfill 1.0.15), as far as we use it. */
interface PolyfillPort extends SerialPortLike {
  getInfo(): SerialPortInfo;
  setSignals(signals: SerialOutputSignals): Promise<void>;
  reconfigure(options: Partial<SerialOptions>): Promise<void>;
}

/**
 * The polyfill's read side does not return its transferIn promise from `pull()`, so with a
 * high-water mark above 0 every chunk received starts one more transferIn than it completes:
 * pending USB reads pile up by one per chunk for as long as the port is open (measured in
 * tests/unit/robot/webusb.test.ts; each one holds a bufferSize-sized USB buffer). With a
 * high-water mark of 0 the stream pulls only for a waiting read: one transferIn at a time,
 * packet-sized. The write side needs a mark above 0 (else `writer.ready` never resolves), so
 * the writable is created with the real bufferSize first, then the readable's is set to 0
 * (both are built lazily from the options current at that moment).
 */
function oneReadAtATime(p: PolyfillPort): SerialPortLike {
  return {
    get readable() {
      return p.readable;
    },
    get writable() {
      return p.writable;
    },
    async open(options) {
      await p.open(options);
      void p.writable;
      await p.reconfigure({ bufferSize: 0 });
    },
    close: () => p.close(),
    getInfo: () => p.getInfo(),
    setSignals: (signals) => p.setSignals(signals),
  };
}

/** A single port that is always "granted" (the on-screen robot's SimPort, tests). */
export function fixedPortSource(port: SerialPortLike): SerialSource {
  return {
    kind: 'fixed',
    requestPort: async () => port,
    getPorts: async () => [port],
    onConnect: () => () => {},
  };
}

/** Picks the best way this browser has to reach a USB robot, or null (iPad Safari: none). */
export function browserSerialSource(nav: Navigator = navigator): SerialSource | null {
  if ('serial' in nav && nav.serial) return nativeSerialSource(nav.serial);
  const usb = (nav as Navigator & { usb?: UsbLike }).usb;
  if (usb) return polyfillSerialSource(usb);
  return null;
}
