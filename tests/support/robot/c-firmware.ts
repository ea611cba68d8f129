/**
 * The portable C firmware core (firmware/) as a process: builds its Linux host build with the
 * system's make and gcc, runs it with stdin/stdout as the robot's serial line and its screen in a
 * frame-buffer file, and offers the conformance kit's `ProbeIO` over that pipe (the Node bridge).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WireLog } from '../../../src/core/robot/conformance/wire-log.ts';
import type { ProbeIO } from '../../../src/core/robot/conformance/probe.ts';

const FIRMWARE_DIR = resolve(import.meta.dirname, '../../../firmware');
export const FIRMWARE_BINARY = join(FIRMWARE_DIR, 'build', 'agentcade-fw');

/** Builds the host binary (make does nothing when it is up to date). */
export function buildFirmware(): string {
  execFileSync('make', ['-s', '-C', FIRMWARE_DIR], { stdio: ['ignore', 'inherit', 'inherit'] });
  return FIRMWARE_BINARY;
}

export interface FirmwareProcess {
  child: ChildProcessWithoutNullStreams;
  /** The frame buffer file (binary PPM, 240×240). */
  fbPath: string;
  write(bytes: Uint8Array): void;
  onData(cb: (bytes: Uint8Array) => void): () => void;
  /** A brown-out reset (SIGUSR1): new boot id, new hello, memory and queues gone. */
  reboot(): void;
  stop(): Promise<void>;
}

export function startFirmware(args: string[] = []): FirmwareProcess {
  const fbPath = join(mkdtempSync(join(tmpdir(), 'agentcade-fw-')), 'screen.ppm');
  const child = spawn(FIRMWARE_BINARY, ['--fb', fbPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const listeners = new Set<(b: Uint8Array) => void>();
  child.stdout.on('data', (b: Buffer) => {
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();
    for (const l of listeners) l(bytes);
  });
  child.stderr.on('data', () => {});
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    fbPath,
    write: (bytes) => void child.stdin.write(bytes),
    onData(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    reboot: () => void child.kill('SIGUSR1'),
    async stop() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The kit's byte stream over the process's pipes, on real time. */
export function probeIO(fw: FirmwareProcess): ProbeIO & { close(): void } {
  const log = new WireLog();
  const waiters = new Set<() => void>();
  const off = fw.onData((bytes) => {
    log.received(bytes, performance.now());
    for (const w of [...waiters]) w();
  });
  return {
    log,
    now: () => performance.now(),
    write: async (bytes) => {
      fw.write(bytes);
    },
    waitRx: (ms) =>
      new Promise<void>((resolveWait) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolveWait();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
      }),
    close: off,
  };
}

/** The frame buffer as a 240×240 mask of "ink" pixels (darker than mid-grey). */
export function inkMask(ppm: Buffer = Buffer.alloc(0)): Uint8Array {
  // Header "P6\n240 240\n255\n" then RGB bytes.
  let pos = 0;
  let fields = 0;
  while (fields < 4 && pos < ppm.length) {
    while (pos < ppm.length && /\s/.test(String.fromCharCode(ppm[pos]))) pos++;
    while (pos < ppm.length && !/\s/.test(String.fromCharCode(ppm[pos]))) pos++;
    fields++;
  }
  pos++;
  const mask = new Uint8Array(240 * 240);
  for (let i = 0; i < mask.length; i++) {
    const r = ppm[pos + i * 3];
    const g = ppm[pos + i * 3 + 1];
    const b = ppm[pos + i * 3 + 2];
    mask[i] = r + g + b < 3 * 128 ? 1 : 0;
  }
  return mask;
}

export function readInk(fw: FirmwareProcess): Uint8Array {
  return inkMask(readFileSync(fw.fbPath));
}
