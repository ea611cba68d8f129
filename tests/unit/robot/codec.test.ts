import { describe, expect, it } from 'vitest';
import { cobsDecode, cobsEncode } from '../../../src/core/robot/cobs.ts';
import { crc16 } from '../../../src/core/robot/crc.ts';
import { decodeBlock, encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload } from '../../../src/core/robot/frame.ts';

const bytes = (...b: number[]) => new Uint8Array(b);

function seeded(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 0x100000000);
}

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the published check value', () => {
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0x29b1);
  });
});

describe('COBS', () => {
  it('encodes the classic examples', () => {
    expect([...cobsEncode(bytes(0x00))]).toEqual([0x01, 0x01]);
    expect([...cobsEncode(bytes(0x11, 0x22, 0x00, 0x33))]).toEqual([0x03, 0x11, 0x22, 0x02, 0x33]);
    expect([...cobsEncode(bytes(0x11, 0x00, 0x00, 0x00))]).toEqual([0x02, 0x11, 0x01, 0x01, 0x01]);
  });

  it('round-trips random data of every length up to 600, with no zero in the output', () => {
    const rnd = seeded(7);
    for (let n = 0; n <= 600; n++) {
      const data = Uint8Array.from({ length: n }, () => (rnd() < 0.2 ? 0 : Math.floor(rnd() * 256)));
      const enc = cobsEncode(data);
      expect(enc.includes(0)).toBe(false);
      expect([...cobsDecode(enc)!]).toEqual([...data]);
    }
  });

  it('handles runs of 254+ non-zero bytes', () => {
    const data = new Uint8Array(700).fill(0x41);
    expect([...cobsDecode(cobsEncode(data))!]).toEqual([...data]);
  });

  it('rejects blocks whose code runs past the end', () => {
    expect(cobsDecode(bytes(0x05, 0x11, 0x22))).toBeNull();
  });
});

describe('frames', () => {
  it('round-trip type, seq and JSON payload', () => {
    const wire = encodeJsonFrame(FrameType.Request, 0x1234, { method: 'face.set', params: { expr: 'happy' } });
    expect(wire[wire.length - 1]).toBe(0);
    expect(wire.subarray(0, -1).includes(0)).toBe(false);
    const f = decodeBlock(wire.subarray(0, -1));
    if (typeof f === 'string') throw new Error(f);
    expect(f.type).toBe(FrameType.Request);
    expect(f.seq).toBe(0x1234);
    expect(jsonPayload(f)).toEqual({ method: 'face.set', params: { expr: 'happy' } });
  });

  it('matches the documented example bytes (docs/robot-protocol.md, ping seq 1)', () => {
    // raw: 01 05 01 00 | crc16(01 05 01 00) little-endian
    const wire = encodeFrame(FrameType.Ping, 1);
    const raw = cobsDecode(wire.subarray(0, -1))!;
    expect([...raw.subarray(0, 4)]).toEqual([0x01, 0x05, 0x01, 0x00]);
    const crc = crc16(raw, 0, 4);
    expect([raw[4], raw[5]]).toEqual([crc & 0xff, crc >> 8]);
  });
});

describe('FrameDecoder', () => {
  it('resyncs after boot garbage and delivers only whole frames', () => {
    const d = new FrameDecoder();
    const garbage = new TextEncoder().encode('ESP-ROM:esp32s3-20210327\r\nrst:0x1 (POWERON)\r\n\x00\x13\x37garbage');
    const a = encodeJsonFrame(FrameType.Event, 1, { event: 'hello', proto: 1 });
    const b = encodeFrame(FrameType.Pong, 9);
    const stream = new Uint8Array([...garbage, 0, ...a, ...b]);
    const frames = [];
    // Feed it in awkward pieces, as a serial port would.
    for (let i = 0; i < stream.length; i += 5) frames.push(...d.push(stream.subarray(i, i + 5)));
    expect(frames.map((f) => [f.type, f.seq])).toEqual([
      [FrameType.Event, 1],
      [FrameType.Pong, 9],
    ]);
    expect(d.stats.junk).toBeGreaterThan(0);
    expect(d.stats.crcErrors).toBe(0);
  });

  it('reports a CRC error, skips that frame and keeps the next one', () => {
    const problems: string[] = [];
    const d = new FrameDecoder((p) => problems.push(p));
    const good1 = encodeJsonFrame(FrameType.Ack, 1, { ms: 10 });
    const bad = encodeJsonFrame(FrameType.Ack, 2, { ms: 20 }).slice();
    bad[5] ^= 0x04; // flips one payload bit: still valid COBS, wrong CRC
    const good3 = encodeJsonFrame(FrameType.Done, 1, { ok: true });
    const frames = d.push(new Uint8Array([...good1, ...bad, ...good3]));
    expect(frames.map((f) => f.seq)).toEqual([1, 1]);
    expect(frames.map((f) => f.type)).toEqual([FrameType.Ack, FrameType.Done]);
    expect(d.stats.crcErrors).toBe(1);
    expect(problems).toEqual(['crc']);
  });

  it('drops an endless run without a delimiter, then recovers', () => {
    const d = new FrameDecoder();
    expect(d.push(new Uint8Array(10_000).fill(0x55))).toEqual([]);
    const frames = d.push(new Uint8Array([0, ...encodeFrame(FrameType.Pong, 3)]));
    expect(frames.map((f) => f.seq)).toEqual([3]);
    expect(d.stats.junk).toBe(1);
  });

  it('round-trips binary blob payloads containing zeros', () => {
    const payload = Uint8Array.from({ length: 900 }, (_, i) => (i % 3 === 0 ? 0 : i & 0xff));
    const d = new FrameDecoder();
    const [f] = d.push(encodeFrame(FrameType.Blob, 77, payload));
    expect([...f.payload]).toEqual([...payload]);
  });
});
