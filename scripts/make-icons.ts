/**
 * Draws the app icons (PNG) with no image library: a robot face on the theme colour, rendered
 * from simple shapes with 4×4 supersampling and written with node:zlib.
 * `npx tsx scripts/make-icons.ts` → public/icons/*.png (committed; run again after a change).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';

type RGBA = [number, number, number, number];
type Shape = (x: number, y: number) => boolean;

const THEME: RGBA = [255, 179, 71, 255]; // #ffb347, the manifest's theme_color
const FACE: RGBA = [255, 250, 240, 255];
const INK: RGBA = [62, 48, 92, 255];
const CHEEK: RGBA = [255, 138, 128, 255];
const CLEAR: RGBA = [0, 0, 0, 0];

const roundRect = (cx: number, cy: number, w: number, h: number, r: number): Shape => (x, y) => {
  const dx = Math.max(Math.abs(x - cx) - (w / 2 - r), 0);
  const dy = Math.max(Math.abs(y - cy) - (h / 2 - r), 0);
  return dx * dx + dy * dy <= r * r;
};
const circle = (cx: number, cy: number, r: number): Shape => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const smile = (cx: number, cy: number, r: number, t: number): Shape => (x, y) => {
  const d = Math.hypot(x - cx, y - cy);
  return y > cy && Math.abs(d - r) <= t / 2;
};

/** The robot head, in a unit box scaled by `s` around the centre (s < 1 leaves a margin). */
function robot(s: number): [Shape, RGBA][] {
  const S = (v: number) => 0.5 + (v - 0.5) * s;
  const L = (v: number) => v * s;
  return [
    [roundRect(S(0.5), S(0.19), L(0.045), L(0.12), L(0.02)), INK], // antenna stem
    [circle(S(0.5), S(0.13), L(0.055)), CHEEK], // antenna ball
    [roundRect(S(0.5), S(0.56), L(0.74), L(0.6), L(0.16)), INK], // head outline
    [roundRect(S(0.5), S(0.56), L(0.66), L(0.52), L(0.12)), FACE], // face
    [circle(S(0.37), S(0.5), L(0.07)), INK], // eyes
    [circle(S(0.63), S(0.5), L(0.07)), INK],
    [circle(S(0.39), S(0.48), L(0.022)), FACE], // eye sparkle
    [circle(S(0.65), S(0.48), L(0.022)), FACE],
    [circle(S(0.27), S(0.63), L(0.045)), CHEEK],
    [circle(S(0.73), S(0.63), L(0.045)), CHEEK],
    [smile(S(0.5), S(0.6), L(0.11), L(0.035)), INK],
  ];
}

function render(size: number, layers: [Shape, RGBA][]): Buffer {
  const px = Buffer.alloc(size * size * 4);
  const N = 4;
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++) {
      const acc = [0, 0, 0, 0];
      for (let sj = 0; sj < N; sj++)
        for (let si = 0; si < N; si++) {
          const x = (i + (si + 0.5) / N) / size;
          const y = (j + (sj + 0.5) / N) / size;
          let c = CLEAR;
          for (const [shape, colour] of layers) if (shape(x, y)) c = colour;
          const a = c[3] / 255;
          acc[0] += c[0] * a;
          acc[1] += c[1] * a;
          acc[2] += c[2] * a;
          acc[3] += a;
        }
      const o = (j * size + i) * 4;
      const alpha = acc[3] / (N * N);
      px[o] = alpha ? Math.round(acc[0] / acc[3]) : 0;
      px[o + 1] = alpha ? Math.round(acc[1] / acc[3]) : 0;
      px[o + 2] = alpha ? Math.round(acc[2] / acc[3]) : 0;
      px[o + 3] = Math.round(alpha * 255);
    }
  return png(size, px);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

// "any": a rounded tile with the robot; "maskable": full bleed, robot inside the 80% safe circle.
const tile: [Shape, RGBA][] = [[roundRect(0.5, 0.5, 0.96, 0.96, 0.22), THEME], ...robot(0.92)];
const bleed: [Shape, RGBA][] = [[() => true, THEME], ...robot(0.72)];

const out = resolve(import.meta.dirname, '../public/icons');
mkdirSync(out, { recursive: true });
const files: [string, number, [Shape, RGBA][]][] = [
  ['icon-192.png', 192, tile],
  ['icon-512.png', 512, tile],
  ['maskable-192.png', 192, bleed],
  ['maskable-512.png', 512, bleed],
  ['apple-touch-icon-180.png', 180, bleed],
  ['favicon-48.png', 48, tile],
];
for (const [name, size, layers] of files) {
  writeFileSync(resolve(out, name), render(size, layers));
  console.log(`public/icons/${name}`);
}
