import { describe, expect, it } from 'vitest';
import { fitText, pictureCommands, splitStroke } from '../../../src/core/robot/pictures.ts';

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
});
