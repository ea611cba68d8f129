/**
 * Writes a tiny llama-architecture model as a GGUF v3 file, with random weights from a seed: the
 * CPU engine's browser test and bench/cpu-engine load it with the real llama.cpp (wllama), since no
 * real weights can be downloaded here. Its vocabulary is byte-level BPE ("gpt2" tokenizer model, one
 * token per byte in GPT-2's byte-to-unicode spelling, no merges) plus ChatML's control tokens, so
 * any UTF-8 prompt tokenises and any grammar-allowed text can be produced. With the default sizes
 * the file is about 430 KB of aligned F32 tensors (the container: gguf-writer.ts).
 */
import { seededRandom } from '../../src/core/random.ts';
import { bpeVocabKvs, CHATML, GGML_F32, ggufHeader, GgufType as T, shapeKvs, type GgufKv } from './gguf-writer.ts';

export interface TinyModelOptions {
  seed?: number;
  embd?: number;
  layers?: number;
  ff?: number;
  heads?: number;
  kvHeads?: number;
  contextLength?: number;
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

  const kvs: GgufKv[] = [
    ...shapeKvs({ arch: 'llama', name: 'agentcade-tiny-random', fileType: 0, alignment, contextLength: options.contextLength ?? 8192, embd, layers, ff, heads, kvHeads, rmsEps: 1e-5, ropeBase: 10000 }),
    { key: 'llama.rope.dimension_count', type: T.U32, value: headDim },
    { key: 'llama.vocab_size', type: T.U32, value: vocab },
    ...bpeVocabKvs('default', tokens, types, []),
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

  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  const w = ggufHeader(
    kvs,
    tensors.map((t, i) => ({ name: t.name, dims: t.dims, ggml: GGML_F32, size: sizes[i] })),
    alignment,
  );
  for (const [i, t] of tensors.entries()) {
    const n = sizes[i] / 4;
    const scale = t.norm ? 0 : 1 / Math.sqrt(t.dims[0]);
    for (let k = 0; k < n; k++) w.f32(t.norm ? 1 : (rnd() * 2 - 1) * scale * 2);
    w.pad(alignment);
  }
  return w.written().slice();
}
