/**
 * The conformance suite (src/core/robot/conformance) in `npm test`: it passes against the firmware
 * simulator and against an independent device fake with other defaults, and fails — showing the
 * bytes — against deliberately broken firmware.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportText, trafficOf, type ConformanceReport } from '../../../src/core/robot/conformance/report.ts';
import { WireLog } from '../../../src/core/robot/conformance/wire-log.ts';
import { encodeJsonFrame, FrameType } from '../../../src/core/robot/frame.ts';
import { openPortWire, runKitOnPort } from '../../../src/robot/conformance/port-wire.ts';
import { runConformance } from '../../../src/core/robot/conformance/suite.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { OtherFirmware, type OtherFirmwareBugs } from '../../support/robot/other-firmware.ts';
import type { SerialPortLike } from '../../../src/robot/serial-port.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the kit on fake time until it is done. */
async function run(port: SerialPortLike): Promise<ConformanceReport> {
  let report: ConformanceReport | undefined;
  let error: unknown;
  runKitOnPort(port).then(
    (r) => (report = r),
    (e: unknown) => (error = e),
  );
  for (let i = 0; i < 20_000 && !report && !error; i++) await vi.advanceTimersByTimeAsync(25);
  if (error) throw error;
  return report!;
}

const failed = (r: ConformanceReport) => r.results.filter((c) => c.status === 'fail').map((c) => c.id);

describe('conformance suite', () => {
  it('passes against the firmware simulator', async () => {
    const sim = new FirmwareSim({ random: steppingRandom(), serial: 'SIM-KIT' });
    const report = await run(new SimPort(sim));
    expect(failed(report)).toEqual([]);
    expect(report.summary.skip).toBe(0);
    expect(report.device).toMatchObject({ serial: 'SIM-KIT' });
  });

  it('passes against an independent device fake with other defaults (4 expressions, 64-point strokes, no images, slower acks)', async () => {
    const dev = new OtherFirmware({ serial: 'OTHER-KIT' });
    const report = await run(new SimPort(dev));
    expect(failed(report)).toEqual([]);
    expect(report.device).toMatchObject({ model: 'kit-bot-mini', serial: 'OTHER-KIT' });
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('screen.image')!.note).toContain('不支持图片');
    expect(byId.get('draw')!.note).toBe('maxPoints 64');
    expect(byId.get('req.max-frame')!.note).toBe('2048 字节');
  });
});

describe('conformance suite against broken firmware: it fails, and shows the bytes', () => {
  const broken = (bugs: OtherFirmwareBugs) => run(new SimPort(new OtherFirmware({ bugs })));

  it('a wrong CRC (sent high byte first): no readable hello; the report names the CRC, says what is wrong, and shows the frame', async () => {
    const report = await broken({ crc: true });
    expect(report.results[0]).toMatchObject({ id: 'hello.answer', status: 'fail' });
    const f = report.results[0].failure!;
    expect(f.got).toMatch(/unreadable block/);
    const bad = f.traffic.find((l) => l.dir === 'rx' && /CRC mismatch/.test(l.what))!;
    expect(bad.what).toMatch(/the frame carries 0x[0-9a-f]{4}, CRC-16\/CCITT-FALSE of its first \d+ bytes is 0x[0-9a-f]{4}: the right CRC with its two bytes swapped/);
    expect(bad.hex).toMatch(/^([0-9a-f]{2} )+00$/);
    expect(report.summary.pass).toBe(0);
    const text = reportText(report);
    expect(text).toContain('[FAIL] hello.answer');
    expect(text).toContain(bad.hex);
  });

  it('no Done: every command check fails with "no Done", with the request and its Ack in the traffic', async () => {
    const report = await broken({ noDone: true });
    expect(failed(report)).toEqual(expect.arrayContaining(['hello.request', 'sys.idle', 'face.set', 'head.gesture', 'draw']));
    const f = report.results.find((r) => r.id === 'face.set')!.failure!;
    expect(f.got).toBe('no Done');
    expect(f.expected).toMatch(/a Done for #\d+ face\.set within its Ack's ms/);
    expect(f.traffic.some((l) => l.dir === 'tx' && /face\.set/.test(l.what))).toBe(true);
    expect(f.traffic.some((l) => l.dir === 'rx' && /^Ack #\d+ \{"ms":/.test(l.what))).toBe(true);
  });

  it('no lone 00 before the hello: only that check fails, naming the frame in front of it', async () => {
    const report = await broken({ noHelloDelimiter: true });
    expect(failed(report)).toEqual(['hello.delimiter']);
    expect(report.results.find((r) => r.id === 'hello.delimiter')!.failure!.got).toMatch(/^the hello \(Event #\d+\) right after a frame/);
  });

  it('forgetting duplicates: the retransmission checks fail, showing the second Done', async () => {
    const report = await broken({ forgetsDuplicates: true });
    expect(failed(report)).toEqual(['dup.running', 'dup.done', 'dup.window']);
    const f = report.results.find((r) => r.id === 'dup.running')!.failure!;
    expect(f.got).toBe('2 Dones: it ran 2 times, or sent its Done more than once');
    expect(f.traffic.filter((l) => l.dir === 'rx' && /^Done #/.test(l.what)).length).toBeGreaterThanOrEqual(2);
    expect(f.traffic.some((l) => l.dir === 'tx' && /sent again, same bytes/.test(l.what))).toBe(true);
  });
});

describe('the kit names causes: consequences grouped under their first cause, failures first, limits stated', () => {
  const broken = (bugs: OtherFirmwareBugs) => run(new SimPort(new OtherFirmware({ bugs })));
  const causeOf = (r: ConformanceReport) => (r.causes ?? []).map((c) => [c.id, c.checks.length]);

  it('a wrap-unsafe robot (a lower seq taken for a resend): one cause, seq-wrap, with every "no Ack" under it', async () => {
    const report = await broken({ wrapUnsafe: true });
    expect(report.results.find((r) => r.id === 'req.seq')!.status).toBe('pass'); // it passes the seq check itself…
    const [cause] = report.causes!;
    expect(cause.id).toBe('seq-wrap');
    expect(cause.detail).toMatch(/^Request #\d+ \(new bytes\) got no answer at all after #65535 was answered/);
    expect(cause.checks).toEqual(failed(report)); // …and every failure after it is its consequence
    expect(cause.checks.length).toBeGreaterThan(10);
    const text = reportText(report);
    expect(text.indexOf('causes (each failed check')).toBeLessThan(text.indexOf('[FAIL]'));
    expect(text).toContain('    cause:    seq-wrap');
  });

  it('an 8-bit seq: the cause says the bytes answered #0, not "got none"', async () => {
    const report = await broken({ seq8: true });
    expect(causeOf(report)).toEqual([['seq-8bit', 2]]);
    expect(report.causes![0].detail).toMatch(/^Ping #256 was answered as #0 \(Pong\): the robot keeps seq in 8 bits/);
    expect(report.results.find((r) => r.id === 'ping')!.failure!.got).toBe('Pong #0: only the low byte of the seq (§2.2: seq is u16 LE)');
  });

  it('a slow Ack: one cause for all the failures it produces', async () => {
    const report = await broken({ slowAckMs: 420 });
    expect(causeOf(report)).toEqual([['slow-ack', failed(report).length]]);
    expect(report.causes![0].detail).toMatch(/came 4\d\d ms after the request.*slowest 4\d\d ms/);
  });

  it('a second Done: "ran twice or sent two Dones", not "no Ack before it"', async () => {
    const report = await broken({ doubleDone: true });
    expect(causeOf(report)).toEqual([['double-done', 3]]);
    expect(report.results.find((r) => r.id === 'order.ack-first')!.failure!.got).toMatch(/^a second Done #\d+ .*it ran twice, or the robot sent its Done twice/);
  });

  it('failures are listed first; a passing robot has no causes; every report states its limits', async () => {
    const report = await broken({ seq8: true });
    const lines = reportText(report).split('\n').filter((l) => /^\[(PASS|FAIL|SKIP)\]/.test(l));
    expect(lines.slice(0, 2).every((l) => l.startsWith('[FAIL]'))).toBe(true);
    expect(lines.slice(2).every((l) => !l.startsWith('[FAIL]'))).toBe(true);
    expect(report.limits!.join(' ')).toMatch(/no screen readback.*draws nothing passes/);
    expect(report.limits!.join(' ')).toMatch(/seq wrap tested only as far as this run goes: requests #1…#\d+, plus #256 and #65535/);
    const good = await run(new SimPort(new OtherFirmware({})));
    expect(good.causes).toEqual([]);
  });
});

describe('conformance suite: the kit held up by its own tab', () => {
  it('a check whose verdict fell across a stall of the kit runs once more, and says so', async () => {
    const sim = new FirmwareSim({ random: steppingRandom() });
    const wire = await openPortWire(new SimPort(sim));
    // Once the hello is in, the robot answers one request late while the kit's clock jumps 600 ms (a busy tab).
    let jump = 0;
    let armed = false;
    const io = {
      ...wire,
      now: () => wire.now() + jump,
      waitRx: async (ms: number) => {
        await wire.waitRx(ms);
        if (armed) {
          armed = false;
          jump += 600;
          sim.faults.ackDelay = 0;
        }
      },
    };
    let report: ConformanceReport | undefined;
    void runConformance(io, {
      only: ['req.unknown-method'],
      onResult: (r) => {
        if (r.id !== 'hello.answer') return;
        sim.faults.ackDelay = 400;
        armed = true;
      },
    }).then((r) => (report = r));
    for (let i = 0; i < 2000 && !report; i++) await vi.advanceTimersByTimeAsync(25);
    await wire.close();
    const r = report!.results.find((x) => x.id === 'req.unknown-method')!;
    expect(r.status).toBe('pass');
    expect(r.note).toBe('重测过一次（第一次检测时平板自己卡了一下）');
  });
});

describe("the report's traffic of a check", () => {
  it('holds what was logged from the check on, in the order it was logged, even within one millisecond', () => {
    const log = new WireLog();
    log.received(encodeJsonFrame(FrameType.Done, 3, { ok: true }), 100);
    const start = { n: log.size, at: 100 };
    log.received(encodeJsonFrame(FrameType.Done, 4, { ok: true }), 100);
    log.sent(encodeJsonFrame(FrameType.Request, 5, { method: 'sys.idle', params: {} }), 100, 'Request #5 sys.idle');
    log.received(encodeJsonFrame(FrameType.Ack, 5, { ms: 0 }), 102);
    const { traffic, omitted } = trafficOf(log, start);
    expect(omitted).toBe(0);
    expect(traffic.map((l) => `${l.t} ${l.dir} ${l.what}`)).toEqual(['0 rx Done #4 {"ok":true}', '0 tx Request #5 sys.idle', '2 rx Ack #5 {"ms":0}']);
  });
});
