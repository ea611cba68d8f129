/**
 * Turns what games ask for (Drawing, Progress, TextCard, idle) into protocol commands, within
 * the protocol's limits and the robot's own (its hello's `draw.maxPoints` and `maxFrame`):
 * coordinates rounded and clamped to 0–239, long strokes split so that every piece has at most
 * `maxPoints` points and its Request fits in `maxFrame` bytes, colours as #rrggbb, text cut to
 * 200 UTF-8 bytes, labels to 60.
 */
import { FRAME_OVERHEAD } from './frame.ts';
import { cmd, LIMITS, utf8Length, type Command, type Hello, type Point } from './messages.ts';
import type { Drawing, Progress, TextCard } from './types.ts';

export type Picture = { kind: 'drawing'; drawing: Drawing } | { kind: 'progress'; progress: Progress } | { kind: 'text'; card: TextCard };

/** What one robot accepts: points per `draw.stroke`, and the largest raw frame (header + JSON + CRC). */
interface PictureLimits {
  maxPoints: number;
  maxFrame: number;
}

const DEFAULT_PICTURE_LIMITS: PictureLimits = { maxPoints: LIMITS.maxPointsPerStroke, maxFrame: LIMITS.defaultMaxFrame };

/** The limits a robot announced (never above the protocol's own, never so small that a line cannot be drawn). */
export function pictureLimits(hello: Pick<Hello, 'draw' | 'maxFrame'> | null | undefined): PictureLimits {
  const points = Math.floor(Number(hello?.draw?.maxPoints));
  const frame = Math.floor(Number(hello?.maxFrame));
  return {
    maxPoints: Number.isFinite(points) && points >= 2 ? Math.min(LIMITS.maxPointsPerStroke, points) : LIMITS.maxPointsPerStroke,
    maxFrame: Number.isFinite(frame) && frame >= 256 ? frame : LIMITS.defaultMaxFrame,
  };
}

const clamp = (v: number) => Math.min(LIMITS.screenSize - 1, Math.max(0, Math.round(Number.isFinite(v) ? v : 0)));

/** Bytes of the raw frame that carries `command` as a Request (what `maxFrame` limits). */
export function requestFrameBytes(command: Command): number {
  return FRAME_OVERHEAD + utf8Length(JSON.stringify(command));
}

/**
 * Splits a stroke into pieces of at most `max` points whose `draw.stroke` Request (with drawing
 * `id`) fits in `maxFrame` bytes. Consecutive pieces share their joint point, so the line has no gap.
 */
export function splitStroke(stroke: Array<[number, number]>, max: number = LIMITS.maxPointsPerStroke, fit: { id: string; maxFrame: number } = { id: 'd', maxFrame: Infinity }): Point[][] {
  const pts = stroke.map(([x, y]) => [clamp(x), clamp(y)] as Point);
  if (pts.length === 0) return [];
  const limit = Math.max(2, Math.floor(max));
  // Frame size of a piece = empty stroke + each point's JSON + the commas between them.
  const base = requestFrameBytes(cmd('draw.stroke', { id: fit.id, pts: [] }));
  const size = pts.map((p) => JSON.stringify(p).length);
  const out: Point[][] = [];
  let i = 0;
  for (;;) {
    let n = Math.min(limit, pts.length - i);
    let bytes = base + size.slice(i, i + n).reduce((a, b) => a + b, 0) + (n - 1);
    while (n > 2 && bytes > fit.maxFrame) {
      n--;
      bytes -= size[i + n] + 1;
    }
    out.push(pts.slice(i, i + n));
    if (i + n >= pts.length) return out;
    i += n - 1;
  }
}

/** The longest start of `text` that fits in `maxBytes` UTF-8 bytes (whole characters). */
function cutBytes(text: string, maxBytes: number): string {
  let out = '';
  for (const ch of text) {
    if (utf8Length(out + ch) > maxBytes) break;
    out += ch;
  }
  return out;
}

export function fitText(text: string, maxBytes: number = LIMITS.maxTextBytes): string {
  if (utf8Length(text) <= maxBytes) return text;
  return cutBytes(text, maxBytes - utf8Length('…')) + '…';
}

export function pictureCommands(picture: Picture | null, animate: boolean, limits: PictureLimits = DEFAULT_PICTURE_LIMITS): Command[] {
  if (!picture) return [cmd('sys.idle', {})];
  if (picture.kind === 'progress') {
    const { current, total, label } = picture.progress;
    const t = Math.min(999, Math.max(1, Math.round(total)));
    return [cmd('screen.progress', { current: Math.min(999, Math.max(0, Math.round(current))), total: t, ...(label ? { label: fitText(label, LIMITS.maxLabelBytes) } : {}) })];
  }
  if (picture.kind === 'text') return [cmd('screen.text', { text: fitText(picture.card.text) })];
  const d = picture.drawing;
  const id = cutBytes(String(d.id), LIMITS.maxIdBytes) || 'd';
  const color = d.color && /^#[0-9a-fA-F]{6}$/.test(d.color) ? d.color : undefined;
  const width = d.width ? Math.min(20, Math.max(1, Math.round(d.width))) : undefined;
  const fit = { id, maxFrame: limits.maxFrame };
  return [
    cmd('draw.begin', { id, animate, ...(color ? { color } : {}), ...(width ? { width } : {}) }),
    ...d.strokes.flatMap((s) => splitStroke(s, limits.maxPoints, fit)).map((pts) => cmd('draw.stroke', { id, pts })),
    cmd('draw.end', { id, ...(d.label ? { label: fitText(d.label, LIMITS.maxLabelBytes) } : {}) }),
  ];
}
