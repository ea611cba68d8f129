/**
 * Is this file a whole GGUF model? Read before a downloaded or self-hosted file is offered as a
 * brain: the magic and version, every metadata pair, the tensor table (name, shape, type, offset),
 * and whether the tensor data the table names fits inside the file's size (a truncated download
 * ends before its last tensor). An HTML page, a text file or a cut-off file is named plainly.
 * Pure: it reads bytes handed to it (the file's first part, which must reach past the tensor table).
 */

export type GgufCheck =
  | { ok: true; version: number; tensors: number; architecture?: string; name?: string; dataEnd: number }
  | { ok: false; reason: 'not-gguf' | 'truncated' | 'corrupt' | 'need-more'; detail: string };

/** Bytes per block and elements per block of the ggml tensor types (ggml.h); unknown types are not size-checked. */
const TYPE_SIZES: Record<number, [bytes: number, elements: number]> = {
  0: [4, 1], // F32
  1: [2, 1], // F16
  2: [18, 32], // Q4_0
  3: [20, 32], // Q4_1
  6: [22, 32], // Q5_0
  7: [24, 32], // Q5_1
  8: [34, 32], // Q8_0
  9: [36, 32], // Q8_1
  10: [84, 256], // Q2_K
  11: [110, 256], // Q3_K
  12: [144, 256], // Q4_K
  13: [176, 256], // Q5_K
  14: [210, 256], // Q6_K
  15: [292, 256], // Q8_K
  24: [1, 1], // I8
  25: [2, 1], // I16
  26: [4, 1], // I32
  27: [8, 1], // I64
  28: [8, 1], // F64
  30: [2, 1], // BF16
};

class NeedMore extends Error {}

class Reader {
  private readonly view: DataView;
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number) {
    if (this.pos + n > this.bytes.length) throw new NeedMore();
  }
  u8() {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  u32() {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u64() {
    this.need(8);
    const v = Number(this.view.getBigUint64(this.pos, true));
    this.pos += 8;
    return v;
  }
  skip(n: number) {
    this.need(n);
    this.pos += n;
  }
  string(max = 1 << 24) {
    const n = this.u64();
    if (n > max) throw new Error(`a string of ${n} bytes`);
    this.need(n);
    const s = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
}

/** Size in bytes of one value of a metadata type (0 for string/array, read by length). */
const SCALAR = [1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8];

function value(r: Reader, type: number, depth = 0): unknown {
  if (type === 8) return r.string();
  if (type === 9) {
    if (depth > 2) throw new Error('nested arrays too deep');
    const of = r.u32();
    const n = r.u64();
    if (of === 8) {
      for (let i = 0; i < n; i++) r.string();
      return undefined;
    }
    const size = SCALAR[of];
    if (of === 9 || size === undefined) {
      if (of !== 9) throw new Error(`an array of unknown type ${of}`);
      for (let i = 0; i < n; i++) value(r, 9, depth + 1);
      return undefined;
    }
    r.skip(size * n);
    return undefined;
  }
  const size = SCALAR[type];
  if (size === undefined || size === 0) throw new Error(`a value of unknown type ${type}`);
  if (type === 4) return r.u32();
  r.skip(size);
  return undefined;
}

/** Reads `bytes` (the first part of a file of `fileSize` bytes) as GGUF. */
export function checkGguf(bytes: Uint8Array, fileSize: number): GgufCheck {
  if (bytes.length < 4 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'GGUF') {
    const start = new TextDecoder().decode(bytes.subarray(0, 64)).trim().toLowerCase();
    const what = start.startsWith('<!doctype') || start.startsWith('<html') ? '这是一个网页（HTML），不是模型文件' : '这不是模型文件（开头不是 GGUF）';
    return { ok: false, reason: 'not-gguf', detail: what };
  }
  const r = new Reader(bytes);
  try {
    r.skip(4);
    const version = r.u32();
    if (version < 2 || version > 3) return { ok: false, reason: 'corrupt', detail: `不认识的 GGUF 版本 ${version}` };
    const tensors = r.u64();
    const kvs = r.u64();
    if (tensors === 0 || tensors > 100_000 || kvs > 100_000) return { ok: false, reason: 'corrupt', detail: `文件头坏了（${tensors} 个张量，${kvs} 项信息）` };
    let alignment = 32;
    let architecture: string | undefined;
    let name: string | undefined;
    for (let i = 0; i < kvs; i++) {
      const key = r.string(1 << 16);
      const type = r.u32();
      const v = value(r, type);
      if (key === 'general.alignment' && typeof v === 'number' && v > 0) alignment = v;
      if (key === 'general.architecture' && typeof v === 'string') architecture = v;
      if (key === 'general.name' && typeof v === 'string') name = v;
    }
    let dataSize = 0;
    for (let i = 0; i < tensors; i++) {
      r.string(1 << 16);
      const dims = r.u32();
      if (dims === 0 || dims > 4) return { ok: false, reason: 'corrupt', detail: `张量表坏了（第 ${i + 1} 个张量有 ${dims} 维）` };
      let elements = 1;
      for (let d = 0; d < dims; d++) elements *= r.u64();
      const type = r.u32();
      const offset = r.u64();
      const t = TYPE_SIZES[type];
      const size = t ? Math.ceil(elements / t[1]) * t[0] : 0;
      dataSize = Math.max(dataSize, offset + size);
    }
    const dataStart = Math.ceil(r.pos / alignment) * alignment;
    const dataEnd = dataStart + dataSize;
    if (dataEnd > fileSize) return { ok: false, reason: 'truncated', detail: `文件不完整：应有 ${dataEnd} 字节，只有 ${fileSize} 字节` };
    return { ok: true, version, tensors, architecture, name, dataEnd };
  } catch (e) {
    if (e instanceof NeedMore) return bytes.length >= fileSize ? { ok: false, reason: 'truncated', detail: '文件在张量表之前就断了' } : { ok: false, reason: 'need-more', detail: `读了 ${bytes.length} 字节还没读完张量表` };
    return { ok: false, reason: 'corrupt', detail: `文件坏了：${(e as Error).message}` };
  }
}
