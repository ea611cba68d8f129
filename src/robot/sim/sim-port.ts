/**
 * A `SerialPortLike` whose far end is a `FirmwareSim` (or any `WireDevice`), over real ReadableStream/WritableStream
 * byte streams. It behaves like Chrome's SerialPort where the link can tell: `close()` refuses
 * while a stream is locked, an unplug errors the reader with a NetworkError, nulls the streams
 * and fires `disconnect`. `log` records the close sequence for tests.
 */
import type { SerialPortLike } from '../serial-port.ts';
import type { FirmwareSim } from './firmware.ts';

/** A device on the far end of the cable: powered by the port, bytes in, bytes out. */
export interface WireDevice {
  powerOn(wire: (bytes: Uint8Array) => void): void;
  powerOff(): void;
  onBytes(bytes: Uint8Array): void;
}

export const SIM_USB_INFO: SerialPortInfo = { usbVendorId: 0x303a, usbProductId: 0x1001 };

function networkError(): Error {
  return new DOMException('The device has been lost.', 'NetworkError');
}

export class SimPort<D extends WireDevice = FirmwareSim> extends EventTarget implements SerialPortLike {
  readable: ReadableStream<Uint8Array> | null = null;
  writable: WritableStream<Uint8Array> | null = null;
  plugged = true;
  /** Calls the host made, in order: open, readable.cancel, writable.close, writable.abort, close. */
  readonly log: string[] = [];
  openOptions: SerialOptions | null = null;
  private rx: ReadableStreamDefaultController<Uint8Array> | null = null;
  private tx: WritableStreamDefaultController | null = null;

  constructor(
    readonly sim: D,
    private readonly info: SerialPortInfo = SIM_USB_INFO,
  ) {
    super();
    sim.powerOn((bytes) => this.fromDevice(bytes));
  }

  get connected(): boolean {
    return this.plugged;
  }

  getInfo(): SerialPortInfo {
    return { ...this.info };
  }

  async setSignals(_signals: SerialOutputSignals): Promise<void> {
    if (!this.readable) throw new DOMException('The port is closed.', 'InvalidStateError');
  }

  async open(options: SerialOptions): Promise<void> {
    this.log.push('open');
    if (!this.plugged) throw new DOMException('Failed to open serial port.', 'NetworkError');
    if (this.readable) throw new DOMException('The port is already open.', 'InvalidStateError');
    this.openOptions = options;
    this.readable = this.newReadable(options);
    this.writable = new WritableStream<Uint8Array>({
      start: (c) => {
        this.tx = c;
      },
      write: (chunk) => {
        if (!this.plugged) throw networkError();
        this.sim.onBytes(new Uint8Array(chunk));
      },
      close: () => {
        this.log.push('writable.close');
      },
      abort: () => {
        this.log.push('writable.abort');
      },
    });
  }

  /** The port's receive stream; its queue is sized in bytes like Chrome's (`bufferSize`, default 255). */
  private newReadable(options: SerialOptions): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.rx = c;
        },
        cancel: () => {
          this.log.push('readable.cancel');
          this.rx = null;
        },
      },
      { highWaterMark: options.bufferSize ?? 255, size: (chunk) => chunk?.byteLength ?? 1 },
    );
  }

  async close(): Promise<void> {
    this.log.push('close');
    if (this.readable?.locked || this.writable?.locked) throw new TypeError('Cannot cancel a locked stream');
    if (this.rx) {
      try {
        this.rx.close();
      } catch {
        /* already errored */
      }
    }
    this.rx = null;
    this.tx = null;
    this.readable = null;
    this.writable = null;
  }

  /**
   * A non-fatal line error (parity, framing, overrun, break): the pending read rejects and
   * `readable` is replaced by a fresh stream, as Chrome does. Bytes in flight are lost.
   */
  lineError(name: 'ParityError' | 'FramingError' | 'BufferOverrunError' | 'BreakError' = 'FramingError'): void {
    if (!this.rx || !this.openOptions) return;
    this.rx.error(new DOMException('Line error.', name));
    this.rx = null;
    const options = this.openOptions;
    this.readable = this.newReadable(options);
  }

  /** Pull the cable: the robot loses power, reads fail with NetworkError, `disconnect` fires. */
  unplug(): void {
    if (!this.plugged) return;
    this.plugged = false;
    this.sim.powerOff();
    const e = networkError();
    this.rx?.error(e);
    this.tx?.error(e);
    this.rx = null;
    this.tx = null;
    this.readable = null;
    this.writable = null;
    this.dispatchEvent(new Event('disconnect'));
  }

  /** Plug it back in: the robot boots (its banner and hello go nowhere until the port is opened). */
  plug(): void {
    if (this.plugged) return;
    this.plugged = true;
    this.sim.powerOn((bytes) => this.fromDevice(bytes));
    this.dispatchEvent(new Event('connect'));
  }

  private fromDevice(bytes: Uint8Array): void {
    // Bytes sent while nobody has the port open are lost, as on a real wire.
    try {
      this.rx?.enqueue(bytes);
    } catch {
      /* stream closed */
    }
  }
}
