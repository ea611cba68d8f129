/**
 * Writes a tiny llama-architecture model as a GGUF v3 file, with random weights from a seed: the
 * CPU engine's browser test and bench/cpu-engine load it with the real llama.cpp (wllama), since no
 * real weights can be downloaded here. Its vocabulary is byte-level BPE ("gpt2" tokenizer model, one
 * token per byte in GPT-2's byte-to-unicode spelling, no merges) plus ChatML's control tokens, so
 * any UTF-8 prompt tokenises and any grammar-allowed text can be produced. With the default sizes
 * the file is about 430 KB of aligned F32 tensors.
 *
 * Layout (GGUF v3): magic "GGUF", version, tensor count, KV count; KV pairs (string keys, typed
 * values, arrays); tensor infos (name, dims with ne[0] fastest, type, offset into the data); data
 * aligned to `general.alignment`.
 */
import { seededRandom } from '../../src/core/random.ts';

export interface TinyModelOptions {
  seed?: number;
  embd?: number;
  layers?: number;
  ff?: number;
  heads?: number;
  kvHeads?: number;
  contextLength?: number;
}

const enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type Kv =
  | { key: string; type: T.U32 | T.I32 | T.F32; value: number }
  | { key: string; type: T.BOOL; value: boolean }
  | { key: string; type: T.STRING; value: string }
  | { key: string; type: T.ARRAY; of: T.STRING; value: string[] }
  | { key: string; type: T.ARRAY; of: T.I32; value: number[] };

class Writer {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;
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
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/**
 * The bytes the vocabulary has a token for: every byte that occurs in UTF-8 text, less the lead
 * bytes of overlong or out-of-range forms (C0, C1, E0, F0, F5–FF). Text without U+0800–U+0FFF and
 * U+10000–U+3FFFF (no emoji) tokenises completely, and whatever a grammar lets through byte by byte
 * is valid UTF-8 (llama.cpp's grammar checks code points, not their encoding).
 */
export function vocabBytes(): number[] {
  const dropped = (b: number) => b === 0xc0 || b === 0xc1 || b === 0xe0 || b === 0xf0 || b >= 0xf5;
  return Array.from({ length: 256 }, (_, b) => b).filter((b) => !dropped(b));
}

/** GPT-2's byte → printable character map (what byte-level BPE vocabularies spell tokens with). */
export function byteToUnicode(): string[] {
  const keep = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const out: string[] = [];
  let n = 0;
  for (let b = 0; b < 256; b++) out.push(String.fromCodePoint(keep(b) ? b : 256 + n++));
  return out;
}

export const TINY_SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export function tinyGguf(options: TinyModelOptions = {}): Uint8Array {
  const embd = options.embd ?? 64;
  const layers = options.layers ?? 2;
  const ff = options.ff ?? 128;
  const heads = options.heads ?? 4;
  const kvHeads = options.kvHeads ?? 2;
  const headDim = embd / heads;
  const alignment = 32;
  const rnd = seededRandom(options.seed ?? 1);

  const spelled = byteToUnicode();
  const bytes = vocabBytes();
  const tokens = [...bytes.map((b) => spelled[b]), ...TINY_SPECIAL_TOKENS];
  const types = tokens.map((_, i) => (i < bytes.length ? 1 : 3)); // NORMAL, CONTROL
  const vocab = tokens.length;
  const special = (t: string) => bytes.length + TINY_SPECIAL_TOKENS.indexOf(t);
  const eos = special('<|im_end|>');

  const kvs: Kv[] = [
    { key: 'general.architecture', type: T.STRING, value: 'llama' },
    { key: 'general.name', type: T.STRING, value: 'agentcade-tiny-random' },
    { key: 'general.file_type', type: T.U32, value: 0 },
    { key: 'general.alignment', type: T.U32, value: alignment },
    { key: 'llama.context_length', type: T.U32, value: options.contextLength ?? 8192 },
    { key: 'llama.embedding_length', type: T.U32, value: embd },
    { key: 'llama.block_count', type: T.U32, value: layers },
    { key: 'llama.feed_forward_length', type: T.U32, value: ff },
    { key: 'llama.attention.head_count', type: T.U32, value: heads },
    { key: 'llama.attention.head_count_kv', type: T.U32, value: kvHeads },
    { key: 'llama.attention.layer_norm_rms_epsilon', type: T.F32, value: 1e-5 },
    { key: 'llama.rope.freq_base', type: T.F32, value: 10000 },
    { key: 'llama.rope.dimension_count', type: T.U32, value: headDim },
    { key: 'llama.vocab_size', type: T.U32, value: vocab },
    { key: 'tokenizer.ggml.model', type: T.STRING, value: 'gpt2' },
    { key: 'tokenizer.ggml.pre', type: T.STRING, value: 'default' },
    { key: 'tokenizer.ggml.tokens', type: T.ARRAY, of: T.STRING, value: tokens },
    { key: 'tokenizer.ggml.token_type', type: T.ARRAY, of: T.I32, value: types },
    { key: 'tokenizer.ggml.merges', type: T.ARRAY, of: T.STRING, value: [] },
    { key: 'tokenizer.ggml.bos_token_id', type: T.U32, value: special('<|endoftext|>') },
    { key: 'tokenizer.ggml.eos_token_id', type: T.U32, value: eos },
    { key: 'tokenizer.ggml.padding_token_id', type: T.U32, value: special('<|endoftext|>') },
    { key: 'tokenizer.ggml.add_bos_token', type: T.BOOL, value: false },
    { key: 'tokenizer.chat_template', type: T.STRING, value: CHATML },
  ];

  // name, dims (ne[0] first), initial value: 'one' for norms, else random.
  const tensors: Array<{ name: string; dims: number[]; norm?: boolean }> = [
    { name: 'token_embd.weight', dims: [embd, vocab] },
    { name: 'output_norm.weight', dims: [embd], norm: true },
    { name: 'output.weight', dims: [embd, vocab] },
  ];
  for (let i = 0; i < layers; i++) {
    tensors.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [embd], norm: true },
      { name: `blk.${i}.attn_q.weight`, dims: [embd, heads * headDim] },
      { name: `blk.${i}.attn_k.weight`, dims: [embd, kvHeads * headDim] },
      { name: `blk.${i}.attn_v.weight`, dims: [embd, kvHeads * headDim] },
      { name: `blk.${i}.attn_output.weight`, dims: [heads * headDim, embd] },
      { name: `blk.${i}.ffn_norm.weight`, dims: [embd], norm: true },
      { name: `blk.${i}.ffn_gate.weight`, dims: [embd, ff] },
      { name: `blk.${i}.ffn_down.weight`, dims: [ff, embd] },
      { name: `blk.${i}.ffn_up.weight`, dims: [embd, ff] },
    );
  }

  const w = new Writer();
  w.bytes(new TextEncoder().encode('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const kv of kvs) {
    w.str(kv.key);
    w.u32(kv.type);
    if (kv.type === T.STRING) w.str(kv.value);
    else if (kv.type === T.BOOL) w.u8(kv.value ? 1 : 0);
    else if (kv.type === T.U32) w.u32(kv.value);
    else if (kv.type === T.I32) w.i32(kv.value);
    else if (kv.type === T.F32) w.f32(kv.value);
    else if (kv.type === T.ARRAY) {
      w.u32(kv.of);
      w.u64(kv.value.length);
      for (const v of kv.value) {
        if (kv.of === T.STRING) w.str(v as string);
        else w.i32(v as number);
      }
    }
  }
  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  for (const [i, t] of tensors.entries()) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    offset += Math.ceil(sizes[i] / alignment) * alignment;
  }
  w.pad(alignment);
  for (const [i, t] of tensors.entries()) {
    const n = sizes[i] / 4;
    const scale = t.norm ? 0 : 1 / Math.sqrt(t.dims[0]);
    for (let k = 0; k < n; k++) w.f32(t.norm ? 1 : (rnd() * 2 - 1) * scale * 2);
    w.pad(alignment);
  }
  return w.result();
}
