/**
 * The portable C firmware core (firmware/, its Linux host build) against the conformance suite,
 * headless, over a pipe: every check passes. And its screen: a drawing sent through the app's own
 * link lands in the frame buffer where the strokes are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText } from '../../../src/core/robot/conformance/report.ts';
import { runConformance } from '../../../src/core/robot/conformance/suite.ts';
import { buildFirmware, probeIO, readInk, startFirmware, type FirmwareProcess } from '../../support/robot/c-firmware.ts';

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
