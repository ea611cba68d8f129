/**
 * Everything the conformance kit sent and received, byte for byte, with times: the received
 * stream is cut at every 0x00 into blocks (docs/robot-protocol.md §2.4) and each block is decoded
 * on its own, so a report can show the exact bytes of a bad frame and say what is wrong with it
 * (its CRC, its COBS, its length). Pure: time is passed in.
 */
import { cobsDecode } from '../cobs.ts';
import { crc16 } from '../crc.ts';
import { decodeBlock, FRAME_OVERHEAD, FrameType, jsonPayload, MAX_BLOCK_BYTES, type DecodeProblem, type Frame } from '../frame.ts';

export interface TxChunk {
  at: number;
  /** Position in the log (sent and received entries share one count). */
  n: number;
  bytes: Uint8Array;
  /** What the kit meant to send ("Request #7 face.set", "garbage", …). */
  note: string;
}

export interface RxBlock {
  /** When its delimiter arrived. */
  at: number;
  /** Position in the log (sent and received entries share one count). */
  n: number;
  /** The block as received, with its 0x00 (an empty block is just `00`). */
  bytes: Uint8Array;
  empty: boolean;
  frame?: Frame;
  problem?: DecodeProblem;
  /** The JSON payload of an Ack, Done or Event (null when it is not a JSON object). */
  body?: Record<string, unknown> | null;
}

export class WireLog {
  readonly tx: TxChunk[] = [];
  readonly rx: RxBlock[] = [];
  /** Bytes received in all. */
  rxBytes = 0;
  private partial: number[] = [];
  private overflow = false;
  private count = 0;

  /** Entries logged so far: the `n` the next one gets. */
  get size(): number {
    return this.count;
  }

  sent(bytes: Uint8Array, at: number, note: string): void {
    this.tx.push({ at, n: this.count++, bytes: bytes.slice(), note });
  }

  private block(b: Omit<RxBlock, 'n'>): void {
    this.rx.push({ ...b, n: this.count++ });
  }

  received(bytes: Uint8Array, at: number): void {
    this.rxBytes += bytes.length;
    for (const b of bytes) {
      if (b !== 0) {
        if (this.partial.length >= MAX_BLOCK_BYTES) this.overflow = true;
        else this.partial.push(b);
        continue;
      }
      const raw = Uint8Array.from([...this.partial, 0]);
      this.partial = [];
      if (this.overflow) {
        this.overflow = false;
        this.block({ at, bytes: raw, empty: false, problem: 'overflow' });
        continue;
      }
      if (raw.length === 1) {
        this.block({ at, bytes: raw, empty: true });
        continue;
      }
      const r = decodeBlock(raw.subarray(0, -1));
      if (typeof r === 'string') this.block({ at, bytes: raw, empty: false, problem: r });
      else this.block({ at, bytes: raw, empty: false, frame: r, body: r.type === FrameType.Pong || r.type === FrameType.Ping ? undefined : (jsonPayload(r) ?? null) });
    }
  }
}

// ---- describing bytes ---------------------------------------------------------------------------

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

const TYPE_NAMES: Record<number, string> = {
  [FrameType.Request]: 'Request',
  [FrameType.Ack]: 'Ack',
  [FrameType.Done]: 'Done',
  [FrameType.Event]: 'Event',
  [FrameType.Ping]: 'Ping',
  [FrameType.Pong]: 'Pong',
  [FrameType.Blob]: 'Blob',
};

const text = new TextDecoder();

function short(s: string, n = 160): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** One line saying what a received block is, or what is wrong with it. */
export function describeBlock(b: RxBlock): string {
  if (b.empty) return 'empty block (lone 00)';
  if (b.frame) {
    const f = b.frame;
    const name = TYPE_NAMES[f.type] ?? `type ${f.type}`;
    const payload = f.type === FrameType.Blob ? `${f.payload.length} bytes` : f.payload.length ? short(text.decode(f.payload)) : '';
    return `${name} #${f.seq}${payload ? ` ${payload}` : ''}`;
  }
  return `unreadable block: ${problemText(b)}`;
}

/** What is wrong with a block that did not decode, as precisely as the bytes allow. */
function problemText(b: RxBlock): string {
  const body = b.bytes.subarray(0, -1);
  switch (b.problem) {
    case 'overflow':
      return `longer than ${MAX_BLOCK_BYTES} bytes before its 00 (discarded as noise, §2.4)`;
    case 'cobs':
      return `not valid COBS (a code byte points past the end, or a 00 inside)${body.length > 254 ? '; it is over 254 bytes: check the 0xFF block rule (§2.1)' : ''}${printable(body) ? `; it reads as text: "${short(text.decode(body), 60)}" — text must be followed by 00 (§1)` : ''}`;
    case 'short':
      return `decodes to fewer than ${FRAME_OVERHEAD} bytes${printable(body) ? ` (text "${short(text.decode(body), 60)}")` : ''}`;
    case 'crc': {
      const raw = cobsDecode(body)!;
      const got = raw[raw.length - 2] | (raw[raw.length - 1] << 8);
      const want = crc16(raw, 0, raw.length - 2);
      const swapped = ((got & 0xff) << 8) | (got >> 8);
      const hint = swapped === want ? ': the right CRC with its two bytes swapped — send the low byte first (§2.2)' : ' (§2.3: poly 0x1021, init 0xFFFF, sent low byte first)';
      return `CRC mismatch: the frame carries 0x${got.toString(16).padStart(4, '0')}, CRC-16/CCITT-FALSE of its first ${raw.length - 2} bytes is 0x${want.toString(16).padStart(4, '0')}${hint}`;
    }
    case 'version':
      return `ver byte is ${cobsDecode(body)![0]}, not 1 (§2.2)`;
    case 'type':
      return `unknown frame type ${cobsDecode(body)![1]} (§2.5)`;
    default:
      return String(b.problem);
  }
}

function printable(bytes: Uint8Array): boolean {
  return bytes.length > 3 && bytes.every((c) => c === 9 || c === 10 || c === 13 || (c >= 0x20 && c < 0x7f));
}
