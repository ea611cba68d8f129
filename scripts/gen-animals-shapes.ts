/**
 * Line-art primitives for the 你画我猜 drawings (240×240 box, y down, angles in degrees with 0°
 * pointing right and 90° pointing down). Every shape is a polyline; closed shapes repeat their first
 * point. Used by scripts/gen-animals.ts only.
 */
export type Pt = [number, number];
export type Stroke = Pt[];

const rad = (d: number) => (d * Math.PI) / 180;

export function ellipseArc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number, rot = 0, n?: number): Stroke {
  const steps = n ?? Math.max(6, Math.round((Math.abs(a1 - a0) / 360) * Math.max(16, (rx + ry) / 2.2)));
  const out: Stroke = [];
  const c = Math.cos(rad(rot));
  const s = Math.sin(rad(rot));
  for (let i = 0; i <= steps; i++) {
    const a = rad(a0 + ((a1 - a0) * i) / steps);
    const x = rx * Math.cos(a);
    const y = ry * Math.sin(a);
    out.push([cx + x * c - y * s, cy + x * s + y * c]);
  }
  return out;
}

export const ellipse = (cx: number, cy: number, rx: number, ry: number, rot = 0) => ellipseArc(cx, cy, rx, ry, 0, 360, rot);
export const circle = (cx: number, cy: number, r: number) => ellipseArc(cx, cy, r, r, 0, 360);
export const arc = (cx: number, cy: number, r: number, a0: number, a1: number) => ellipseArc(cx, cy, r, r, a0, a1);
/** A small drawn dot (eyes, nostrils): a tiny circle the pen can trace. */
export const dot = (cx: number, cy: number, r = 3.5) => ellipseArc(cx, cy, r, r, 0, 360, 0, 8);
export const line = (x1: number, y1: number, x2: number, y2: number): Stroke => [[x1, y1], [x2, y2]];
export const poly = (...pts: Pt[]): Stroke => pts;
export const closed = (...pts: Pt[]): Stroke => [...pts, pts[0]];

export function qbez(p0: Pt, c: Pt, p1: Pt, n = 10): Stroke {
  const out: Stroke = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    out.push([u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0], u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1]]);
  }
  return out;
}

export function cbez(p0: Pt, c1: Pt, c2: Pt, p1: Pt, n = 14): Stroke {
  const out: Stroke = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    out.push([
      u * u * u * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * p1[0],
      u * u * u * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * p1[1],
    ]);
  }
  return out;
}

/** Joins pieces into one stroke (drops a repeated joint point). */
export function join(...parts: Stroke[]): Stroke {
  const out: Stroke = [];
  for (const p of parts) {
    for (const pt of p) {
      const last = out[out.length - 1];
      if (last && Math.abs(last[0] - pt[0]) < 0.01 && Math.abs(last[1] - pt[1]) < 0.01) continue;
      out.push(pt);
    }
  }
  return out;
}

export const mirrorX = (s: Stroke, axis = 120): Stroke => s.map(([x, y]) => [2 * axis - x, y]);

/** A bumpy closed outline (mane, wool, clouds): radius alternates between r and r+bump. */
export function bumpy(cx: number, cy: number, r: number, bump: number, bumps: number, pointed = false, rx?: number): Stroke {
  const out: Stroke = [];
  const per = 8;
  const sx = (rx ?? r) / r;
  for (let i = 0; i <= bumps * per; i++) {
    const a = (2 * Math.PI * i) / (bumps * per);
    const phase = (i % per) / per;
    const k = pointed ? 1 - Math.abs(phase * 2 - 1) : Math.sin(Math.PI * phase);
    const rr = r + bump * k;
    out.push([cx + rr * Math.cos(a) * sx, cy + rr * Math.sin(a)]);
  }
  return out;
}

/** Zigzag between two arcs of a circle/ellipse (spikes, teeth along a curve). */
export function zigzagArc(cx: number, cy: number, r1: number, r2: number, a0: number, a1: number, teeth: number, ry?: number): Stroke {
  const out: Stroke = [];
  const sy = (ry ?? r1) / r1;
  for (let i = 0; i <= teeth * 2; i++) {
    const a = rad(a0 + ((a1 - a0) * i) / (teeth * 2));
    const r = i % 2 === 0 ? r1 : r2;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a) * sy]);
  }
  return out;
}

/** Samples a centre line and returns the two sides of a body of width w(t) around it. */
export function tube(center: Stroke, width: (t: number) => number): { left: Stroke; right: Stroke } {
  const left: Stroke = [];
  const right: Stroke = [];
  for (let i = 0; i < center.length; i++) {
    const a = center[Math.max(0, i - 1)];
    const b = center[Math.min(center.length - 1, i + 1)];
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len;
    const ny = dx / len;
    const w = width(i / (center.length - 1)) / 2;
    left.push([center[i][0] + nx * w, center[i][1] + ny * w]);
    right.push([center[i][0] - nx * w, center[i][1] - ny * w]);
  }
  return { left, right };
}

/** Archimedean spiral from radius r0 to r1 over `turns`. */
export function spiral(cx: number, cy: number, r0: number, r1: number, turns: number, a0 = 0): Stroke {
  const out: Stroke = [];
  const n = Math.round(turns * 28);
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const a = rad(a0) + t * turns * 2 * Math.PI;
    const r = r0 + (r1 - r0) * t;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** Open rectangle-ish leg from a body edge down to the ground. */
export function leg(x: number, top: number, bottom: number, w: number, hoof = false): Stroke[] {
  const legs: Stroke[] = [poly([x, top], [x, bottom], [x + w, bottom], [x + w, top])];
  if (hoof) legs.push(line(x, bottom - 6, x + w, bottom - 6));
  return legs;
}

/** A zigzag that follows a stroke, teeth pointing to its left side (manes, spines). */
export function zigzagAlong(s: Stroke, amp: number, every = 2): Stroke {
  const out: Stroke = [];
  for (let i = 0; i < s.length; i++) {
    const a = s[Math.max(0, i - 1)];
    const b = s[Math.min(s.length - 1, i + 1)];
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    const k = i % every === every - 1 ? amp : 0;
    out.push([s[i][0] + (dy / len) * k, s[i][1] - (dx / len) * k]);
  }
  return out;
}
