/**
 * One open serial port's byte streams (docs/robot-protocol.md §1), for the app's link session
 * (link-session.ts) and the conformance kit (conformance/port-wire.ts): opens any
 * `SerialPortLike` (Web Serial, the WebUSB polyfill, the simulator's port) with DTR and RTS
 * cleared, reads every chunk across the streams a port replaces, writes in call order, notices
 * when the port goes away by itself, and closes in the order Web Serial needs. What the bytes
 * mean is the caller's.
 */
import type { SerialPortLike } from './serial-port.ts';

const BUFFER_SIZE = 16384;

export type PortOpening =
  | { streams: PortStreams }
  /** `port.open` threw (busy, gone, refused). */
  | { failed: 'open'; error: unknown }
  /** The port opened without a readable or writable stream; it has been closed again. */
  | { failed: 'no-streams' };

/** Opens `port` at `baudRate`; reading starts with `read()`. */
export async function openPortStreams(port: SerialPortLike, baudRate: number): Promise<PortOpening> {
  try {
    await port.open({ baudRate, bufferSize: BUFFER_SIZE });
  } catch (error) {
    return { failed: 'open', error };
  }
  // USB-UART bridges reset ESP32/Arduino boards on DTR/RTS; native CDC firmware must not depend on them.
  await port.setSignals?.({ dataTerminalReady: false, requestToSend: false }).catch(() => {});
  if (!port.readable || !port.writable) {
    await port.close().catch(() => {});
    return { failed: 'no-streams' };
  }
  return { streams: new PortStreams(port, port.writable.getWriter()) };
}

export class PortStreams {
  /** Set the moment closing starts (never cleared: the streams are not reopened). */
  private closed = false;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private readLoop: Promise<void> = Promise.resolve();
  private writes: Promise<void> = Promise.resolve();
  private closing: Promise<void> | null = null;
  private onGone: (() => void) | null = null;
  private readonly onDisconnect = () => this.onGone?.();

  constructor(
    readonly port: SerialPortLike,
    private writer: WritableStreamDefaultWriter<Uint8Array> | null,
  ) {}

  /**
   * Starts reading: every chunk received goes to `onBytes`. `onGone` is called when the port goes
   * away by itself (its `disconnect` event, or no readable stream any more); not after `close()`.
   */
  read(onBytes: (bytes: Uint8Array) => void, onGone?: () => void): void {
    this.onGone = onGone ?? null;
    this.port.addEventListener?.('disconnect', this.onDisconnect);
    this.readLoop = this.runReadLoop(onBytes);
  }

  /** Writes after every earlier write has finished; rejects when this write fails or the streams are closing. */
  write(bytes: Uint8Array): Promise<void> {
    const writer = this.writer;
    if (!writer) return Promise.reject(new Error('the port is closed'));
    const written = this.writes.then(async () => {
      await writer.ready;
      await writer.write(bytes);
    });
    this.writes = written.catch(() => {});
    return written;
  }

  /** Close order matters (WICG/serial): reader cancel → release → writes finished → writer close → release → port close. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      this.closing = this.closeAll();
    }
    return this.closing;
  }

  private async runReadLoop(onBytes: (bytes: Uint8Array) => void): Promise<void> {
    const port = this.port;
    // Non-fatal errors (framing, overrun) replace port.readable; a lost device sets it to null.
    while (port.readable && !this.closed) {
      const reader = port.readable.getReader();
      this.reader = reader;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value) onBytes(value);
        }
      } catch {
        // fall through: the outer loop decides (readable null → gone)
      } finally {
        reader.releaseLock();
        if (this.reader === reader) this.reader = null;
      }
      if (this.closed) return;
    }
    if (!this.closed) this.onGone?.();
  }

  private async closeAll(): Promise<void> {
    const port = this.port;
    port.removeEventListener?.('disconnect', this.onDisconnect);
    const reader = this.reader;
    if (reader) {
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    await this.readLoop.catch(() => {});
    const writer = this.writer;
    this.writer = null;
    if (writer) {
      await this.writes;
      await writer.close().catch(() => writer.abort().catch(() => {}));
      writer.releaseLock();
    }
    await port.close().catch(() => {});
  }
}
