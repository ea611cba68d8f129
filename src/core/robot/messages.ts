/**
 * Protocol v1 messages (docs/robot-protocol.md §3–5): command names and parameters, the hello
 * event, device error codes and the timing constants both sides use.
 */
import type { Expression } from './types.ts';

export const PROTOCOL_VERSION = 1;

export const EXPRESSIONS: readonly Expression[] = ['neutral', 'happy', 'sorry', 'thinking', 'surprised', 'sleepy'];

export type Point = [number, number];

interface CommandParams {
  'sys.hello': Record<string, never>;
  'sys.stop': Record<string, never>;
  'sys.idle': Record<string, never>;
  'face.set': { expr: Expression };
  'face.clear': Record<string, never>;
  'head.gesture': { name: 'nod' | 'shake'; times?: number; amp?: number; period?: number };
  'head.home': Record<string, never>;
  'draw.begin': { id: string; color?: string; width?: number; animate?: boolean };
  'draw.stroke': { id: string; pts: Point[] };
  'draw.end': { id: string; label?: string };
  'screen.progress': { current: number; total: number; label?: string };
  'screen.text': { text: string };
  'screen.image': { w: number; h: number; fmt: 'mono1'; len: number };
}
export type Method = keyof CommandParams;

export interface Command<M extends Method = Method> {
  method: M;
  params: CommandParams[M];
}

/** Builds a typed command (keeps call sites short). */
export function cmd<M extends Method>(method: M, params: CommandParams[M]): Command<M> {
  return { method, params };
}

/** The device's hello event (docs/robot-protocol.md §4). */
export interface Hello {
  event: 'hello';
  proto: number;
  fw: string;
  model: string;
  serial: string;
  /** Random per boot: a new value means the device rebooted. */
  boot: number;
  screen?: { w: number; h: number; shape: 'round' | 'rect'; fmt: string };
  servos: string[];
  expressions: string[];
  gestures: string[];
  draw?: { strokes: boolean; maxPoints: number };
  images?: string[];
  maxFrame: number;
}

/** Error codes the device puts in a NAK or a failed done. */
export type DeviceErrorCode =
  | 'unknown_method'
  | 'bad_params'
  | 'unsupported'
  | 'busy'
  | 'stopped'
  | 'servo_fault'
  | 'blob_incomplete'
  | 'bad_json';

export interface DeviceError {
  code: DeviceErrorCode | string;
  msg?: string;
}

/** Limits and timings (ms). Changing one is a protocol change: keep docs/robot-protocol.md §9 in step. */
export const LIMITS = {
  maxPointsPerStroke: 100,
  maxTextBytes: 200,
  /** `draw.end` and `screen.progress` labels (UTF-8 bytes). */
  maxLabelBytes: 60,
  /** `draw.begin` ids (UTF-8 bytes). */
  maxIdBytes: 32,
  screenSize: 240,
  defaultMaxFrame: 1024,
  /** The fewest distinct requests a device remembers for duplicate suppression. */
  deviceDedupe: 16,
  /**
   * The host's request window: counting from the oldest request still waiting for its Ack, at
   * most this many requests have been sent. Half the device's memory, so a retransmission is
   * always recognised (docs/robot-protocol.md §3).
   */
  hostWindow: 8,
  /** The fewest queued commands a lane accepts before NAKing `busy` (the device may take more). */
  headQueue: 4,
  screenQueue: 64,
} as const;

const utf8 = new TextEncoder();
/** How many UTF-8 bytes `s` takes (what the byte limits above count). */
export const utf8Length = (s: string): number => utf8.encode(s).length;

export const TIMING = {
  ackTimeout: 300,
  /** The longest the host lets its ack timeout grow after seeing late Acks. */
  ackTimeoutMax: 2000,
  ackRetries: 2,
  doneMargin: 2000,
  helloRetry: 500,
  helloTimeout: 3000,
  pingInterval: 1000,
  staleAfter: 3000,
  deviceWatchdog: 5000,
  blobStall: 1000,
  reconnectRetry: 2000,
  /** First wait before a command refused with `busy` is sent again (doubling each time). */
  busyRetry: 100,
  busyRetries: 5,
} as const;

export function isHello(v: Record<string, unknown>): v is Hello & Record<string, unknown> {
  return v.event === 'hello' && typeof v.proto === 'number' && typeof v.boot === 'number';
}
