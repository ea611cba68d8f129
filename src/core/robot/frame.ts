/**
 * Wire frames (docs/robot-protocol.md §2): COBS( ver | type | seq u16 LE | payload | crc16 LE ) 0x00.
 * Pure: no I/O. `FrameDecoder` turns an arbitrary byte stream (boot garbage, split reads,
 * corrupted bytes) into whole, CRC-checked frames and counts what it had to skip.
 */
import { cobsDecode, cobsEncode } from './cobs.ts';
import { crc16 } from './crc.ts';

const WIRE_VERSION = 1;

export const FrameType = {
  /** host → device: a command, payload JSON {method, params}. */
  Request: 0x01,
  /** device → host: command accepted (payload {ms}) or refused (payload {error}). */
  Ack: 0x02,
  /** device → host: command finished (payload {ok, error?}). */
  Done: 0x03,
  /** device → host: unsolicited event (payload {event, ...}). */
  Event: 0x04,
  /** host → device heartbeat, empty payload. */
  Ping: 0x05,
  /** device → host heartbeat answer, same seq, empty payload. */
  Pong: 0x06,
  /** host → device binary chunk of a screen.image request: offset u32 LE + bytes. */
  Blob: 0x07,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const KNOWN_TYPES = new Set<number>(Object.values(FrameType));

export interface Frame {
  type: FrameType;
  seq: number;
  payload: Uint8Array;
}

/** Bytes around a frame's payload: header (ver, type, seq: 4) + CRC (2). */
export const FRAME_OVERHEAD = 6;
/** Largest decoded frame a receiver must accept; larger input is discarded as noise. */
export const MAX_DECODED_FRAME = 4096;
/** The most bytes a receiver buffers while waiting for a delimiter; a longer block is discarded as noise (`overflow`). */
export const MAX_BLOCK_BYTES = MAX_DECODED_FRAME + 32;

/** The sequence number after `seq`: 1…65535, never 0 (65535 wraps to 1). */
export function nextSeq(seq: number): number {
  return seq >= 0xffff ? 1 : seq + 1;
}

export function encodeFrame(type: FrameType, seq: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const raw = new Uint8Array(payload.length + FRAME_OVERHEAD);
  raw[0] = WIRE_VERSION;
  raw[1] = type;
  raw[2] = seq & 0xff;
  raw[3] = (seq >> 8) & 0xff;
  raw.set(payload, 4);
  const crc = crc16(raw, 0, raw.length - 2);
  raw[raw.length - 2] = crc & 0xff;
  raw[raw.length - 1] = crc >> 8;
  const body = cobsEncode(raw);
  const out = new Uint8Array(body.length + 1);
  out.set(body);
  out[body.length] = 0;
  return out;
}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

export function encodeJsonFrame(type: FrameType, seq: number, body: unknown): Uint8Array {
  return encodeFrame(type, seq, enc.encode(JSON.stringify(body)));
}

/** Parses a JSON payload; an empty payload is `{}`. Returns undefined when it is not a JSON object. */
export function jsonPayload(frame: Frame): Record<string, unknown> | undefined {
  if (frame.payload.length === 0) return {};
  try {
    const v: unknown = JSON.parse(dec.decode(frame.payload));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export type DecodeProblem = 'cobs' | 'crc' | 'short' | 'version' | 'type' | 'overflow';

/** Decodes one delimited COBS block. */
export function decodeBlock(block: Uint8Array): Frame | DecodeProblem {
  const raw = cobsDecode(block);
  if (!raw) return 'cobs';
  if (raw.length < FRAME_OVERHEAD) return 'short';
  const crc = raw[raw.length - 2] | (raw[raw.length - 1] << 8);
  if (crc16(raw, 0, raw.length - 2) !== crc) return 'crc';
  if (raw[0] !== WIRE_VERSION) return 'version';
  if (!KNOWN_TYPES.has(raw[1])) return 'type';
  return { type: raw[1] as FrameType, seq: raw[2] | (raw[3] << 8), payload: raw.slice(4, raw.length - 2) };
}

interface DecoderStats {
  frames: number;
  /** Blocks rejected by CRC. */
  crcErrors: number;
  /** Other rejected blocks (bad COBS, too short, unknown version/type, oversize). Boot text lands here. */
  junk: number;
}

/**
 * Streaming decoder. Bytes before the first 0x00 after a (re)start are treated like any block:
 * boot garbage fails COBS/CRC and is counted as junk, never delivered.
 */
export class FrameDecoder {
  readonly stats: DecoderStats = { frames: 0, crcErrors: 0, junk: 0 };
  private buf = new Uint8Array(256);
  private len = 0;
  private overflow = false;

  /** `onProblem` hears of every rejected block. */
  constructor(private readonly onProblem?: (p: DecodeProblem) => void) {}

  push(bytes: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === 0) {
        if (this.overflow) this.problem('overflow');
        else if (this.len > 0) {
          const r = decodeBlock(this.buf.subarray(0, this.len));
          if (typeof r === 'string') this.problem(r);
          else {
            this.stats.frames++;
            frames.push(r);
          }
        }
        this.len = 0;
        this.overflow = false;
        continue;
      }
      if (this.overflow) continue;
      if (this.len >= MAX_BLOCK_BYTES) {
        this.overflow = true;
        continue;
      }
      if (this.len === this.buf.length) {
        const bigger = new Uint8Array(this.buf.length * 2);
        bigger.set(this.buf);
        this.buf = bigger;
      }
      this.buf[this.len++] = b;
    }
    return frames;
  }

  /** Forget a partial frame (after a reopen). */
  reset(): void {
    this.len = 0;
    this.overflow = false;
  }

  private problem(p: DecodeProblem): void {
    if (p === 'crc') this.stats.crcErrors++;
    else this.stats.junk++;
    this.onProblem?.(p);
  }
}
