/**
 * Prompt measurements for agent steps: tokens of prompt per step (the ChatML text Qwen sees;
 * the step schema is enforced by the grammar, not sent in the prompt) and the share of each
 * step's prompt that is an unchanged prefix of the same agent's previous prompt (the part the
 * KV cache can reuse).
 */
import type { ChatMessage, StepRequest } from '../../src/llm/types.ts';

export interface BenchSequence {
  /** e.g. "main", "game:guess-number". */
  agent: string;
  /** What it is, e.g. "一局猜数字：开始、猜两次、提示、猜中". */
  title: string;
  steps: StepRequest[];
}

export interface Tokenizer {
  name: string;
  encode(text: string): number[];
}

/** Qwen2.5 / Qwen3 chat template (ChatML), generation prompt included. */
export function renderChatML(messages: ChatMessage[]): string {
  return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
}

export interface StepRow {
  index: number;
  promptTokens: number;
  /** Tokens shared with the previous step's prompt from the start. */
  reusedTokens: number;
  /** reusedTokens / promptTokens (0 for the first step). */
  reuseShare: number;
  newTokens: number;
}

export interface SequenceResult {
  agent: string;
  title: string;
  rows: StepRow[];
  totalPrompt: number;
  totalNew: number;
}

function commonPrefix(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export function measureSequence(seq: BenchSequence, tok: Tokenizer): SequenceResult {
  let prev: number[] | undefined;
  const rows = seq.steps.map((step, index) => {
    const ids = tok.encode(renderChatML(step.messages));
    const reused = prev ? commonPrefix(prev, ids) : 0;
    prev = ids;
    return {
      index,
      promptTokens: ids.length,
      reusedTokens: reused,
      reuseShare: ids.length ? reused / ids.length : 0,
      newTokens: ids.length - reused,
    };
  });
  return {
    agent: seq.agent,
    title: seq.title,
    rows,
    totalPrompt: rows.reduce((s, r) => s + r.promptTokens, 0),
    totalNew: rows.reduce((s, r) => s + r.newTokens, 0),
  };
}

/** Characters (code points) as tokens: the fallback when no tokenizer package is installed. */
export const charTokenizer: Tokenizer = {
  name: '字符数（未安装分词器，按字符计）',
  encode: (text) => [...text].map((c) => c.codePointAt(0)!),
};

export function formatResult(r: SequenceResult, unit: string): string {
  const lines = [`## ${r.agent} — ${r.title}`, `step | prompt ${unit} | reused prefix | share | new`];
  for (const row of r.rows)
    lines.push(
      `${String(row.index + 1).padStart(4)} | ${String(row.promptTokens).padStart(6)} | ${String(row.reusedTokens).padStart(6)} | ${(row.reuseShare * 100).toFixed(0).padStart(4)}% | ${row.newTokens}`,
    );
  const mean = r.rows.length ? r.totalPrompt / r.rows.length : 0;
  const later = r.rows.slice(1);
  const meanShare = later.length ? later.reduce((s, x) => s + x.reuseShare, 0) / later.length : 0;
  lines.push(
    `steps ${r.rows.length}, mean prompt ${mean.toFixed(0)} ${unit}, max ${Math.max(0, ...r.rows.map((x) => x.promptTokens))}, ` +
      `mean reused share (steps 2+) ${(meanShare * 100).toFixed(0)}%, ${unit} to prefill in all ${r.totalNew} of ${r.totalPrompt}`,
  );
  return lines.join('\n');
}
