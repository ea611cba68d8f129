import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, encodeJsonFrame, FrameDecoder, FrameType, jsonPayload, type Frame } from '../../../src/core/robot/frame.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { fixedRandom } from '../../support/robot/random.ts';
import { tick } from './harness.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A bare host: raw frames in and out, no link logic. */
function bench() {
  const sim = new FirmwareSim({ random: fixedRandom() });
  const decoder = new FrameDecoder();
  const frames: Frame[] = [];
  const text: string[] = [];
  sim.powerOn((bytes) => {
    text.push(new TextDecoder().decode(bytes));
    frames.push(...decoder.push(bytes));
  });
  let seq = 0;
  const req = (method: string, params: object = {}, s = ++seq) => {
    sim.onBytes(encodeJsonFrame(FrameType.Request, s, { method, params }));
    return s;
  };
  const of = (s: number, type: number) => frames.filter((f) => f.seq === s && f.type === type).map((f) => jsonPayload(f));
  return { sim, frames, text, decoder, req, of };
}

describe('FirmwareSim', () => {
  it('boots with a ROM banner and then says hello with its capabilities', async () => {
    const { frames, text } = bench();
    expect(text.join('')).toContain('ESP-ROM');
    expect(frames).toEqual([]);
    await tick(300);
    const hello = jsonPayload(frames[0]);
    expect(frames[0].type).toBe(FrameType.Event);
    expect(hello).toMatchObject({ event: 'hello', proto: 1, gestures: ['nod', 'shake'], screen: { w: 240, h: 240 } });
  });

  it('ignores commands while booting', async () => {
    const { req, of, sim } = bench();
    const s = req('face.set', { expr: 'happy' });
    await tick(500);
    expect(of(s, FrameType.Ack)).toEqual([]);
    expect(sim.state.face).toBeNull();
  });

  it('acks at once with a time estimate that includes the queue, and reports done in order', async () => {
    const { req, of } = bench();
    await tick(300);
    const a = req('head.gesture', { name: 'nod' });
    const b = req('head.gesture', { name: 'shake', times: 3 });
    expect(of(a, FrameType.Ack)).toEqual([{ ms: 900 }]);
    expect(of(b, FrameType.Ack)).toEqual([{ ms: 900 + 1500 }]);
    await tick(950);
    expect(of(a, FrameType.Done)).toEqual([{ ok: true }]);
    expect(of(b, FrameType.Done)).toEqual([]);
    await tick(1500);
    expect(of(b, FrameType.Done)).toEqual([{ ok: true }]);
  });

  it('answers a retransmitted request again without running it twice', async () => {
    const { req, of, sim } = bench();
    await tick(300);
    const s = req('head.gesture', { name: 'nod' });
    req('head.gesture', { name: 'nod' }, s);
    await tick(1000);
    req('head.gesture', { name: 'nod' }, s);
    expect(sim.state.gestures).toEqual(['nod']);
    expect(of(s, FrameType.Ack).length).toBe(3);
    expect(of(s, FrameType.Done).length).toBe(2);
  });

  it('refuses bad commands with a NAK naming the problem', async () => {
    const { req, of } = bench();
    await tick(300);
    expect(of(req('head.dance'), FrameType.Ack)[0]).toMatchObject({ error: { code: 'unknown_method' } });
    expect(of(req('head.gesture', { name: 'nod', times: 9 }), FrameType.Ack)[0]).toMatchObject({ error: { code: 'bad_params' } });
    expect(of(req('draw.stroke', { id: 'x', pts: [[1, 2]] }), FrameType.Ack)[0]).toMatchObject({ error: { code: 'bad_params' } });
    req('draw.begin', { id: 'x' });
    expect(of(req('draw.stroke', { id: 'x', pts: [[1, 999]] }), FrameType.Ack)[0]).toMatchObject({ error: { code: 'bad_params' } });
  });

  it('knows only its own methods: a name inherited from Object is unknown too', async () => {
    const { req, of } = bench();
    await tick(300);
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(of(req(name), FrameType.Ack)[0]).toEqual({ error: { code: 'unknown_method', msg: name } });
  });

  it('draws stroke by stroke: each stroke takes time by its length', async () => {
    const { req, of, sim } = bench();
    await tick(300);
    req('draw.begin', { id: 'd' });
    const s1 = req('draw.stroke', { id: 'd', pts: Array.from({ length: 20 }, (_, i) => [i, i]) }); // 40 + 240 ms
    const s2 = req('draw.stroke', { id: 'd', pts: [[5, 5], [9, 9]] });
    const end = req('draw.end', { id: 'd' });
    await tick(100);
    const c = sim.state.content;
    expect(c.kind === 'drawing' && c.drawing?.index).toBe(0);
    expect(of(s1, FrameType.Done)).toEqual([]);
    await tick(250);
    expect(of(s1, FrameType.Done)).toEqual([{ ok: true }]);
    await tick(100);
    expect(of(s2, FrameType.Done)).toEqual([{ ok: true }]);
    expect(of(end, FrameType.Done)).toEqual([{ ok: true }]);
    const d = sim.state.content;
    expect(d.kind === 'drawing' && [d.drawn, d.complete]).toEqual([2, true]);
  });

  it('sys.stop ends motion now, drops the queue with "stopped" and completes a half-drawn picture', async () => {
    const { req, of, sim } = bench();
    await tick(300);
    const nod = req('head.gesture', { name: 'nod' });
    req('draw.begin', { id: 'd' });
    const s1 = req('draw.stroke', { id: 'd', pts: [[0, 0], [100, 100]] });
    const s2 = req('draw.stroke', { id: 'd', pts: [[0, 100], [100, 0]] });
    await tick(40);
    req('sys.stop');
    expect(of(nod, FrameType.Done)[0]).toMatchObject({ ok: false, error: { code: 'stopped' } });
    expect(of(s2, FrameType.Done)[0]).toMatchObject({ ok: false, error: { code: 'stopped' } });
    expect(of(s1, FrameType.Done).length).toBe(1);
    expect(sim.state.head.gesture).toBeNull();
    const c = sim.state.content;
    expect(c.kind === 'drawing' && c.drawing).toBeNull();
  });

  it('the watchdog puts the robot to rest when the host goes quiet for 5 s', async () => {
    const { req, sim } = bench();
    await tick(300);
    req('face.set', { expr: 'happy' });
    req('screen.text', { text: '你好' });
    await tick(4000);
    sim.onBytes(encodeFrame(FrameType.Ping, 1));
    await tick(4000);
    expect(sim.state.hostLost).toBe(false);
    expect(sim.state.face).toBe('happy');
    await tick(2500);
    expect(sim.state.hostLost).toBe(true);
    expect(sim.state.face).toBeNull();
    expect(sim.state.content.kind).toBe('idle');
  });

  it('answers pings with pongs of the same seq', async () => {
    const { sim, frames } = bench();
    await tick(300);
    sim.onBytes(encodeFrame(FrameType.Ping, 4242));
    expect(frames.some((f) => f.type === FrameType.Pong && f.seq === 4242)).toBe(true);
  });

  it('receives a 1-bit image in blob chunks; a missing chunk ends in blob_incomplete', async () => {
    const { req, of, sim } = bench();
    await tick(300);
    const len = Math.ceil((16 * 16) / 8);
    const s = req('screen.image', { w: 16, h: 16, fmt: 'mono1', len });
    const data = Uint8Array.from({ length: len }, (_, i) => i);
    const chunk = (off: number, bytes: Uint8Array) => new Uint8Array([off & 0xff, off >> 8, 0, 0, ...bytes]);
    sim.onBytes(encodeFrame(FrameType.Blob, s, chunk(0, data.subarray(0, 20))));
    sim.onBytes(encodeFrame(FrameType.Blob, s, chunk(20, data.subarray(20))));
    await tick(200);
    expect(of(s, FrameType.Done)).toEqual([{ ok: true }]);
    expect(sim.state.content.kind === 'image' && [...sim.state.content.bits]).toEqual([...data]);

    const s2 = req('screen.image', { w: 16, h: 16, fmt: 'mono1', len });
    sim.onBytes(encodeFrame(FrameType.Blob, s2, chunk(0, data.subarray(0, 20))));
    await tick(1100);
    expect(of(s2, FrameType.Done)[0]).toMatchObject({ ok: false, error: { code: 'blob_incomplete' } });
  });

  it('fault injection: corrupted output, dropped input, no done, mute, reboot', async () => {
    const { req, of, sim, decoder, frames } = bench();
    await tick(300);
    sim.faults.corruptOut = 1;
    const a = req('face.set', { expr: 'happy' });
    expect(of(a, FrameType.Ack)).toEqual([]);
    expect(decoder.stats.crcErrors + decoder.stats.junk).toBeGreaterThan(1); // the banner + the corrupted ack

    sim.faults.corruptIn = 1;
    const b = req('face.set', { expr: 'sorry' });
    expect(of(b, FrameType.Ack)).toEqual([]);
    expect(sim.state.badFrames).toBe(1);

    sim.faults.noDone = true;
    const c = req('face.clear');
    await tick(500);
    expect(of(c, FrameType.Ack).length).toBe(1);
    expect(of(c, FrameType.Done)).toEqual([]);
    sim.faults.noDone = false;

    sim.faults.mute = true;
    const n = frames.length;
    sim.onBytes(encodeFrame(FrameType.Ping, 7));
    req('face.set', { expr: 'happy' });
    expect(frames.length).toBe(n);
    sim.faults.mute = false;

    const boot = sim.state.boot;
    sim.reboot();
    expect(sim.state.booted).toBe(false);
    await tick(300);
    const hellos = frames.filter((f) => f.type === FrameType.Event).map((f) => jsonPayload(f));
    expect(hellos.length).toBe(2);
    expect(sim.state.booted).toBe(true);
    expect(sim.state.boot).toBeDefined();
    expect(hellos[1]?.boot).toBe(sim.state.boot);
    expect(typeof boot).toBe('number');
  });
});
