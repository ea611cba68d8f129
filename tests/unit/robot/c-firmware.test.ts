/**
 * The portable C firmware core (firmware/, its Linux host build) against the conformance suite,
 * headless, over a pipe: every check passes. And its screen: a drawing sent through the app's own
 * link lands in the frame buffer where the strokes are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText } from '../../../src/core/robot/conformance/report.ts';
import { runConformance } from '../../../src/core/robot/conformance/suite.ts';
import { buildFirmware, probeIO, readInk, startFirmware, type FirmwareProcess } from '../../support/robot/c-firmware.ts';
import { ANIMALS } from '../../../skills/draw-guess/animals.ts';

beforeAll(() => {
  buildFirmware();
}, 120_000);

describe('the C firmware core', () => {
  let fw: FirmwareProcess;
  afterAll(async () => {
    await fw?.stop();
  });

  it('passes the conformance suite, every check', async () => {
    fw = startFirmware(['--serial', 'C-KIT']);
    const io = probeIO(fw);
    const report = await runConformance(io);
    io.close();
    const failed = report.results.filter((r) => r.status !== 'pass');
    if (failed.length) console.log(reportText(report));
    expect(failed.map((r) => r.id)).toEqual([]);
    expect(report.summary).toMatchObject({ pass: report.results.length, fail: 0, skip: 0 });
    expect(report.results.length).toBeGreaterThanOrEqual(35);
    expect(report.device).toMatchObject({ serial: 'C-KIT', model: 'agentcade-core-host' });
    console.log(`[c-firmware] conformance: ${report.summary.pass}/${report.results.length} pass in ${Math.round((report.finishedAt - report.startedAt) / 1000)} s`);
  }, 180_000);

  it('a drawing reaches the frame buffer', async () => {
    await fw?.stop();
    fw = startFirmware();
    const io = probeIO(fw);
    const { encodeJsonFrame, FrameType } = await import('../../../src/core/robot/frame.ts');
    let seq = 1;
    const send = (method: string, params: unknown) => fw.write(encodeJsonFrame(FrameType.Request, seq++, { method, params }));
    send('draw.begin', { id: 'x', animate: false, color: '#000000', width: 4 });
    send('draw.stroke', { id: 'x', pts: [[20, 120], [220, 120]] });
    send('draw.end', { id: 'x' });
    await new Promise((r) => setTimeout(r, 400));
    io.close();
    const ink = readInk(fw);
    // The horizontal line is there, and nothing far from it.
    expect(ink[120 * 240 + 120]).toBe(1);
    expect(ink[120 * 240 + 30]).toBe(1);
    expect(ink[60 * 240 + 120]).toBe(0);
  }, 30_000);
});

describe('the C firmware core rebooting mid-drawing, through the app\'s own link and output module', () => {
  it('a brown-out reset while the fish is drawn: the picture comes back once, complete, and the game is told it is shown', async () => {
    const { FrameDecoder, FrameType, jsonPayload } = await import('../../../src/core/robot/frame.ts');
    const { RobotLink } = await import('../../../src/robot/link.ts');
    const { RobotOutput } = await import('../../../src/robot/output-module.ts');
    const { createOnScreenEngine } = await import('../../../src/robot/on-screen.ts');
    const { fixedPortSource } = await import('../../../src/robot/serial-port.ts');
    const { SimPort } = await import('../../../src/robot/sim/sim-port.ts');
    const { TimedSpeech } = await import('../../support/robot/timed-speech.ts');
    const { steppingRandom } = await import('../../support/robot/random.ts');
    const fish = ANIMALS.find((a) => a.id === 'fish')!.drawing;

    const fw = startFirmware();
    const seen = new FrameDecoder();
    const strokes = new Set<number>();
    const device = {
      powerOn: (wire: (b: Uint8Array) => void) => void fw.onData(wire),
      powerOff: () => {},
      onBytes: (b: Uint8Array) => {
        for (const f of seen.push(b)) if (f.type === FrameType.Request && jsonPayload(f)?.method === 'draw.stroke') strokes.add(f.seq);
        fw.write(b);
      },
    };
    const link = new RobotLink({ source: fixedPortSource(new SimPort(device)) });
    await link.start();
    expect(link.ready).toBe(true);
    const screen = createOnScreenEngine({ random: steppingRandom() });
    const output = new RobotOutput({ speech: new TimedSpeech(undefined, 200), screen: screen.link, screenStarted: screen.started, robot: link });
    const shown = output.showDrawing(fish);
    setTimeout(() => fw.reboot(), 1000); // mid-drawing: the fish takes about 2.3 s
    const result = await shown;
    expect(result).toEqual({ device_completed: true });
    expect(link.stats.reboots).toBe(1);
    expect(link.stats.busy).toBe(0);
    // The first stream up to the reboot, then the replay once: never more than two streams' worth of pieces.
    expect(strokes.size).toBeGreaterThan(12);
    expect(strokes.size).toBeLessThanOrEqual(24);
    await new Promise((r) => setTimeout(r, 300));
    expect(readInk(fw).reduce((a, b) => a + b, 0)).toBeGreaterThan(3000); // the fish is on its screen again
    await link.close();
    await screen.link.close();
    output.dispose();
    await fw.stop();
  }, 30_000);
});
