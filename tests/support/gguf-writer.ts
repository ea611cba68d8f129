/**
 * The GGUF v3 container, written by the test models (tiny-gguf.ts, qwen-gguf.ts): magic "GGUF",
 * version, tensor count, KV count; KV pairs (string keys, typed values, arrays); tensor infos
 * (name, dims with ne[0] fastest, type, offset into the data); then the data, each tensor aligned
 * to `general.alignment`. Little-endian throughout.
 */

/** GGUF value types. */
export const enum GgufType {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

/** ggml tensor types the test models use. */
export const GGML_F32 = 0;
export const GGML_Q4_0 = 2;

export type GgufKv =
  | { key: string; type: GgufType.U32 | GgufType.I32 | GgufType.F32; value: number }
  | { key: string; type: GgufType.BOOL; value: boolean }
  | { key: string; type: GgufType.STRING; value: string }
  | { key: string; type: GgufType.ARRAY; of: GgufType.STRING; value: string[] }
  | { key: string; type: GgufType.ARRAY; of: GgufType.I32; value: number[] };

export interface GgufTensorInfo {
  name: string;
  /** ne[0] first. */
  dims: number[];
  /** GGML_F32, GGML_Q4_0. */
  ggml: number;
  /** Bytes of data (before alignment padding). */
  size: number;
}

/** ChatML, the chat template both test models carry. */
export const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** A model's hyperparameters, as the GGUF keys llama.cpp reads for `arch`. */
export interface GgufShape {
  arch: string;
  name: string;
  /** llama.cpp's file type (0 all F32, 2 mostly Q4_0). */
  fileType: number;
  alignment: number;
  contextLength: number;
  embd: number;
  layers: number;
  ff: number;
  heads: number;
  kvHeads: number;
  rmsEps: number;
  ropeBase: number;
}

/** The general.* and `<arch>.*` keys of a shape, in the order the test models write them. */
export function shapeKvs(s: GgufShape): GgufKv[] {
  const a = s.arch;
  return [
    { key: 'general.architecture', type: GgufType.STRING, value: a },
    { key: 'general.name', type: GgufType.STRING, value: s.name },
    { key: 'general.file_type', type: GgufType.U32, value: s.fileType },
    { key: 'general.alignment', type: GgufType.U32, value: s.alignment },
    { key: `${a}.context_length`, type: GgufType.U32, value: s.contextLength },
    { key: `${a}.embedding_length`, type: GgufType.U32, value: s.embd },
    { key: `${a}.block_count`, type: GgufType.U32, value: s.layers },
    { key: `${a}.feed_forward_length`, type: GgufType.U32, value: s.ff },
    { key: `${a}.attention.head_count`, type: GgufType.U32, value: s.heads },
    { key: `${a}.attention.head_count_kv`, type: GgufType.U32, value: s.kvHeads },
    { key: `${a}.attention.layer_norm_rms_epsilon`, type: GgufType.F32, value: s.rmsEps },
    { key: `${a}.rope.freq_base`, type: GgufType.F32, value: s.ropeBase },
  ];
}

/** A byte-level BPE vocabulary ("gpt2" tokenizer model) with llama.cpp's pre-tokenizer `pre`. */
export function bpeVocabKvs(pre: string, tokens: string[], types: number[], merges: string[]): GgufKv[] {
  return [
    { key: 'tokenizer.ggml.model', type: GgufType.STRING, value: 'gpt2' },
    { key: 'tokenizer.ggml.pre', type: GgufType.STRING, value: pre },
    { key: 'tokenizer.ggml.tokens', type: GgufType.ARRAY, of: GgufType.STRING, value: tokens },
    { key: 'tokenizer.ggml.token_type', type: GgufType.ARRAY, of: GgufType.I32, value: types },
    { key: 'tokenizer.ggml.merges', type: GgufType.ARRAY, of: GgufType.STRING, value: merges },
  ];
}

/** A growing little-endian byte buffer. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initial = 1 << 16) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u32(v: number) {
    this.ensure(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number) {
    this.ensure(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f32(v: number) {
    this.ensure(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number) {
    this.ensure(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  u8(v: number) {
    this.ensure(1);
    this.buf[this.length++] = v;
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  str(s: string) {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  pad(alignment: number) {
    while (this.length % alignment) this.u8(0);
  }
  /** The bytes written so far (a view: valid until the next write). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Everything before the tensor data: header, KV pairs, tensor infos, padding to `alignment`. */
export function ggufHeader(kvs: GgufKv[], tensors: GgufTensorInfo[], alignment: number, initial?: number): ByteWriter {
  const w = new ByteWriter(initial);
  w.bytes(new TextEncoder().encode('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const kv of kvs) {
    w.str(kv.key);
    w.u32(kv.type);
    if (kv.type === GgufType.STRING) w.str(kv.value);
    else if (kv.type === GgufType.BOOL) w.u8(kv.value ? 1 : 0);
    else if (kv.type === GgufType.U32) w.u32(kv.value);
    else if (kv.type === GgufType.I32) w.i32(kv.value);
    else if (kv.type === GgufType.F32) w.f32(kv.value);
    else if (kv.type === GgufType.ARRAY) {
      w.u32(kv.of);
      w.u64(kv.value.length);
      for (const v of kv.value) {
        if (kv.of === GgufType.STRING) w.str(v as string);
        else w.i32(v as number);
      }
    }
  }
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.ggml);
    w.u64(offset);
    offset += alignedSize(t.size, alignment);
  }
  w.pad(alignment);
  return w;
}

export const alignedSize = (n: number, alignment: number) => Math.ceil(n / alignment) * alignment;
