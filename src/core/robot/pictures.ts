/**
 * Turns what games ask for (Drawing, Progress, TextCard, idle) into protocol commands, within
 * the protocol's limits: coordinates rounded and clamped to 0–239, long strokes split at 100
 * points, colours as #rrggbb, text cut to 200 UTF-8 bytes.
 */
import { cmd, LIMITS, type Command, type Point } from './messages.ts';
import type { Drawing, Progress, TextCard } from './types.ts';

export type Picture = { kind: 'drawing'; drawing: Drawing } | { kind: 'progress'; progress: Progress } | { kind: 'text'; card: TextCard };

const clamp = (v: number) => Math.min(LIMITS.screenSize - 1, Math.max(0, Math.round(Number.isFinite(v) ? v : 0)));

export function splitStroke(stroke: Array<[number, number]>, max = LIMITS.maxPointsPerStroke): Point[][] {
  const pts = stroke.map(([x, y]) => [clamp(x), clamp(y)] as Point);
  if (pts.length <= max) return pts.length ? [pts] : [];
  const out: Point[][] = [];
  // Consecutive pieces share their joint point, so the line has no gap.
  for (let i = 0; i < pts.length - 1; i += max - 1) out.push(pts.slice(i, i + max));
  return out;
}

export function fitText(text: string, maxBytes: number = LIMITS.maxTextBytes): string {
  const enc = new TextEncoder();
  if (enc.encode(text).length <= maxBytes) return text;
  let out = '';
  for (const ch of text) {
    if (enc.encode(out + ch + '…').length > maxBytes) break;
    out += ch;
  }
  return out + '…';
}

export function pictureCommands(picture: Picture | null, animate: boolean): Command[] {
  if (!picture) return [cmd('sys.idle', {})];
  if (picture.kind === 'progress') {
    const { current, total, label } = picture.progress;
    const t = Math.min(999, Math.max(1, Math.round(total)));
    return [cmd('screen.progress', { current: Math.min(999, Math.max(0, Math.round(current))), total: t, ...(label ? { label: fitText(label, 60) } : {}) })];
  }
  if (picture.kind === 'text') return [cmd('screen.text', { text: fitText(picture.card.text) })];
  const d = picture.drawing;
  const id = String(d.id).slice(0, 32) || 'd';
  const color = d.color && /^#[0-9a-fA-F]{6}$/.test(d.color) ? d.color : undefined;
  const width = d.width ? Math.min(20, Math.max(1, Math.round(d.width))) : undefined;
  return [
    cmd('draw.begin', { id, animate, ...(color ? { color } : {}), ...(width ? { width } : {}) }),
    ...d.strokes.flatMap((s) => splitStroke(s)).map((pts) => cmd('draw.stroke', { id, pts })),
    cmd('draw.end', { id, ...(d.label ? { label: fitText(d.label, 60) } : {}) }),
  ];
}
