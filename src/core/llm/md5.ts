/**
 * MD5 of bytes, as lowercase hex: the checksum MLC's weight manifests give for each shard
 * (`md5sum`). The browser's SubtleCrypto has no MD5. Used to tell a damaged download from a whole
 * one, not for security. Pure.
 */

const S = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** MD5 over several pieces in order (a file read in parts). */
export class Md5 {
  private readonly h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
  private readonly block = new Uint8Array(64);
  private filled = 0;
  private length = 0;
  private readonly words = new Uint32Array(16);

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    let i = 0;
    if (this.filled) {
      const n = Math.min(64 - this.filled, bytes.length);
      this.block.set(bytes.subarray(0, n), this.filled);
      this.filled += n;
      i = n;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; i + 64 <= bytes.length; i += 64) this.compress(bytes, i);
    if (i < bytes.length) {
      this.block.set(bytes.subarray(i), 0);
      this.filled = bytes.length - i;
    }
    return this;
  }

  hex(): string {
    const bits = this.length * 8;
    const pad = new Uint8Array((this.filled < 56 ? 56 : 120) - this.filled + 8);
    pad[0] = 0x80;
    const at = pad.length - 8;
    for (let b = 0; b < 8; b++) pad[at + b] = Math.floor(bits / 2 ** (8 * b)) & 0xff;
    this.update(pad);
    let out = '';
    for (const w of this.h) for (let b = 0; b < 4; b++) out += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0');
    return out;
  }

  private compress(bytes: Uint8Array, at: number): void {
    const m = this.words;
    for (let j = 0; j < 16; j++) m[j] = bytes[at + j * 4] | (bytes[at + j * 4 + 1] << 8) | (bytes[at + j * 4 + 2] << 16) | (bytes[at + j * 4 + 3] << 24);
    let [a, b, c, d] = this.h;
    for (let j = 0; j < 64; j++) {
      let f: number;
      let g: number;
      if (j < 16) {
        f = (b & c) | (~b & d);
        g = j;
      } else if (j < 32) {
        f = (d & b) | (~d & c);
        g = (5 * j + 1) % 16;
      } else if (j < 48) {
        f = b ^ c ^ d;
        g = (3 * j + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * j) % 16;
      }
      const t = d;
      d = c;
      c = b;
      const x = (a + f + K[j] + m[g]) >>> 0;
      b = (b + ((x << S[j]) | (x >>> (32 - S[j])))) >>> 0;
      a = t;
    }
    this.h[0] = (this.h[0] + a) >>> 0;
    this.h[1] = (this.h[1] + b) >>> 0;
    this.h[2] = (this.h[2] + c) >>> 0;
    this.h[3] = (this.h[3] + d) >>> 0;
  }
}

export function md5Hex(bytes: Uint8Array): string {
  return new Md5().update(bytes).hex();
}
