import { describe, expect, it } from 'vitest';
import { fitText, pictureCommands, pictureLimits, requestFrameBytes, splitStroke } from '../../../src/core/robot/pictures.ts';
import { encodeJsonFrame, FrameType } from '../../../src/core/robot/frame.ts';
import { cobsDecode } from '../../../src/core/robot/cobs.ts';

describe('pictures → commands', () => {
  it('splits long strokes at 100 points without a gap, clamping and rounding coordinates', () => {
    const stroke = Array.from({ length: 250 }, (_, i) => [i * 1.01, -5] as [number, number]);
    const parts = splitStroke(stroke);
    expect(parts.map((p) => p.length)).toEqual([100, 100, 52]);
    expect(parts[1][0]).toEqual(parts[0][99]);
    expect(parts.flat().every(([x, y]) => Number.isInteger(x) && x <= 239 && y === 0)).toBe(true);
  });

  it('cuts text to 200 UTF-8 bytes with an ellipsis', () => {
    const t = fitText('猫'.repeat(100));
    expect(new TextEncoder().encode(t).length).toBeLessThanOrEqual(200);
    expect(t.endsWith('…')).toBe(true);
    expect(fitText('短')).toBe('短');
  });

  it('never sends a drawing label unless the game gives one (the answer stays secret)', () => {
    const cmds = pictureCommands({ kind: 'drawing', drawing: { id: 'q1', strokes: [[[1, 1], [2, 2]]] } }, true);
    expect(cmds.map((c) => c.method)).toEqual(['draw.begin', 'draw.stroke', 'draw.end']);
    expect(JSON.stringify(cmds)).not.toContain('label');
    expect(pictureCommands(null, false)).toEqual([{ method: 'sys.idle', params: {} }]);
  });

  it('keeps every Request within the robot\'s maxFrame: 100 points with three-digit coordinates would be 1089 bytes', () => {
    const stroke = Array.from({ length: 300 }, (_, i) => [200 + (i % 39), 239 - (i % 30)] as [number, number]);
    const id = 'abcdefghijklmnopqrstuvwxyz012345'; // 32 bytes, the longest id
    const cmds = pictureCommands({ kind: 'drawing', drawing: { id, strokes: [stroke] } }, true);
    const strokes = cmds.filter((c) => c.method === 'draw.stroke');
    for (const c of cmds) {
      expect(requestFrameBytes(c)).toBeLessThanOrEqual(1024);
      // requestFrameBytes is exactly the raw frame the link sends (COBS adds the rest).
      const wire = encodeJsonFrame(FrameType.Request, 0x1234, c);
      expect(cobsDecode(wire.subarray(0, -1))!.length).toBe(requestFrameBytes(c));
    }
    expect(strokes.length).toBeGreaterThan(3);
    const pieces = strokes.map((c) => (c.params as { pts: number[][] }).pts);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i][0]).toEqual(pieces[i - 1].at(-1)); // no gap
    expect(pieces.reduce((n, p) => n + p.length, 0) - (pieces.length - 1)).toBe(300);
  });

  it("follows the robot's hello: its maxPoints and maxFrame, never above the protocol's own", () => {
    expect(pictureLimits({ draw: { strokes: true, maxPoints: 40 }, maxFrame: 2048 })).toEqual({ maxPoints: 40, maxFrame: 2048 });
    expect(pictureLimits({ draw: { strokes: true, maxPoints: 500 }, maxFrame: 1024 })).toEqual({ maxPoints: 100, maxFrame: 1024 });
    expect(pictureLimits(null)).toEqual({ maxPoints: 100, maxFrame: 1024 });
    const stroke = Array.from({ length: 100 }, (_, i) => [i, i] as [number, number]);
    expect(splitStroke(stroke, 40).map((p) => p.length)).toEqual([40, 40, 22]);
  });

  it('cuts ids to 32 UTF-8 bytes and labels to 60', () => {
    const [begin, , end] = pictureCommands({ kind: 'drawing', drawing: { id: '长颈鹿'.repeat(10), label: '长颈鹿'.repeat(10), strokes: [[[1, 1], [2, 2]]] } }, true);
    expect(new TextEncoder().encode((begin.params as { id: string }).id).length).toBeLessThanOrEqual(32);
    expect(new TextEncoder().encode((end.params as { label: string }).label).length).toBeLessThanOrEqual(60);
  });
});
