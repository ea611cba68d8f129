/**
 * Prompt measurements for agent steps: tokens of prompt per step (the ChatML text Qwen sees;
 * the step schema is enforced by the grammar, not sent in the prompt) and the share of each
 * step's prompt that is an unchanged prefix of the same agent's previous prompt (the part a
 * token-prefix KV cache can reuse: llama.cpp server / Ollama).
 *
 * WebLLM 0.2.86 is stricter (`compareConversationObject` in its lib/index.js): it keeps its KV
 * cache only when the new request's history (all messages but the last) equals the previous
 * request's messages plus the reply it generated; anything else re-prefills the whole prompt.
 * `continuesInPlace` marks those steps (assuming the agent echoes the model's reply text unchanged).
 */
import type { ChatMessage, StepRequest } from '../../src/core/llm/types.ts';

export interface BenchSequence {
  /** e.g. "main", "game:guess-number". */
  agent: string;
  /** Short name of this run when an agent has several (e.g. "win", "design"); shown in the summary. */
  variant?: string;
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
  /** WebLLM can continue its conversation in place: history = previous messages + one assistant reply. */
  continuesInPlace: boolean;
}

export interface SequenceResult {
  agent: string;
  variant?: string;
  title: string;
  rows: StepRow[];
  totalPrompt: number;
  totalNew: number;
}

/** One line per sequence: what run.ts prints in its summary table. */
export interface SequenceSummary {
  /** agent, with " · variant" when set. */
  name: string;
  agent: string;
  title: string;
  steps: number;
  meanPrompt: number;
  maxPrompt: number;
  /** Mean reuseShare over steps 2+ (0 with fewer than two steps). */
  meanReuseShare: number;
  totalPrompt: number;
  totalNew: number;
  /** Steps 2+ that WebLLM continues in place. */
  inPlace: number;
  /** Tokens WebLLM prefills: only the new part of a step it continues in place, else the whole prompt. */
  webllmPrefill: number;
}

function commonPrefix(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

const sameMessage = (a: ChatMessage, b: ChatMessage) => a.role === b.role && a.content === b.content;

/** WebLLM's multi-round condition: `next` = `prev` + one assistant message + the new last message. */
export function continuesInPlace(prev: ChatMessage[] | undefined, next: ChatMessage[]): boolean {
  if (!prev || next.length !== prev.length + 2) return false;
  return prev.every((m, i) => sameMessage(m, next[i])) && next[prev.length].role === 'assistant' && next[next.length - 1].role === 'user';
}

export function measureSequence(seq: BenchSequence, tok: Tokenizer): SequenceResult {
  let prev: number[] | undefined;
  let prevMessages: ChatMessage[] | undefined;
  const rows = seq.steps.map((step, index) => {
    const ids = tok.encode(renderChatML(step.messages));
    const reused = prev ? commonPrefix(prev, ids) : 0;
    const inPlace = continuesInPlace(prevMessages, step.messages);
    prev = ids;
    prevMessages = step.messages;
    return {
      index,
      promptTokens: ids.length,
      reusedTokens: reused,
      reuseShare: ids.length ? reused / ids.length : 0,
      newTokens: ids.length - reused,
      continuesInPlace: inPlace,
    };
  });
  return {
    agent: seq.agent,
    ...(seq.variant ? { variant: seq.variant } : {}),
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

export function summarize(r: SequenceResult): SequenceSummary {
  const later = r.rows.slice(1);
  return {
    name: r.variant ? `${r.agent} · ${r.variant}` : r.agent,
    agent: r.agent,
    title: r.title,
    steps: r.rows.length,
    meanPrompt: r.rows.length ? r.totalPrompt / r.rows.length : 0,
    maxPrompt: Math.max(0, ...r.rows.map((x) => x.promptTokens)),
    meanReuseShare: later.length ? later.reduce((s, x) => s + x.reuseShare, 0) / later.length : 0,
    totalPrompt: r.totalPrompt,
    totalNew: r.totalNew,
    inPlace: later.filter((x) => x.continuesInPlace).length,
    webllmPrefill: r.rows.reduce((s, x) => s + (x.continuesInPlace ? x.newTokens : x.promptTokens), 0),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export function formatResult(r: SequenceResult, unit: string): string {
  const lines = [`## ${summarize(r).name} — ${r.title}`, `step | prompt ${unit} | reused prefix | share | new | WebLLM in place`];
  for (const row of r.rows)
    lines.push(
      `${String(row.index + 1).padStart(4)} | ${String(row.promptTokens).padStart(6)} | ${String(row.reusedTokens).padStart(6)} | ${pct(row.reuseShare).padStart(5)} | ${String(row.newTokens).padStart(5)} | ${row.index === 0 ? '' : row.continuesInPlace ? 'yes' : 'no'}`,
    );
  const s = summarize(r);
  lines.push(
    `steps ${s.steps}, mean prompt ${s.meanPrompt.toFixed(0)} ${unit}, max ${s.maxPrompt}, ` +
      `mean reused share (steps 2+) ${pct(s.meanReuseShare)}, ${unit} to prefill in all ${s.totalNew} of ${s.totalPrompt}, ` +
      `WebLLM continues in place ${s.inPlace} of ${Math.max(0, s.steps - 1)} (prefills ${s.webllmPrefill})`,
  );
  return lines.join('\n');
}

/** One row per sequence. */
export function formatSummary(results: SequenceResult[], unit: string): string {
  const rows = results.map(summarize);
  const width = Math.max(5, ...rows.map((r) => r.name.length));
  const lines = [
    `${'agent'.padEnd(width)} | steps | mean prompt | max prompt | mean reused share (2+) | prefilled / total ${unit} | WebLLM in place | WebLLM prefilled`,
  ];
  for (const r of rows)
    lines.push(
      `${r.name.padEnd(width)} | ${String(r.steps).padStart(5)} | ${r.meanPrompt.toFixed(0).padStart(11)} | ${String(r.maxPrompt).padStart(10)} | ${pct(r.meanReuseShare).padStart(22)} | ${`${r.totalNew} / ${r.totalPrompt}`.padStart(17 + unit.length)} | ${`${r.inPlace} of ${Math.max(0, r.steps - 1)}`.padStart(15)} | ${String(r.webllmPrefill).padStart(16)}`,
    );
  return lines.join('\n');
}
