/**
 * A chaos run in the real app: the brain is the chaos server (tests/support/chaos-brain-server.ts)
 * and a child types a fixed script across chat and both games, turn after turn. What a parent
 * would notice is measured from what the robot really said (the speech fake's start times) and from
 * what the games decided (their trace records, captured as they are written):
 * - turns with nothing said within T1 + 1 s of the child's words;
 * - turns without a real answer or a true fallback within T2 ("still thinking" does not count);
 * - false outcome claims spoken (every lie the chaos server wrote is known);
 * - secrets (numbers, animals) never told to the child by the end;
 * - page errors; fallback lines said twice in a row; the main agent's history and the page's heap.
 */
import { expect, type Page } from '@playwright/test';
import type { TurnBudget } from '../../../src/core/arcade/turn-budget.ts';
import { childLines } from '../../../src/core/errors/catalogue.ts';
import { SAY } from '../../../src/arcade/errors.ts';
import { LIE_KINDS, type ChaosServer } from '../../support/chaos-brain-server.ts';
import { ANIMAL_CARDS } from './seeds.ts';
import { type, useRemoteBrain } from './child.ts';

/** What the child types, round and round: chat, 猜数字, 你画我猜, switching games, stopping. */
export const CHAOS_SCRIPT = [
  '你好',
  '我们玩猜数字吧',
  '我猜50',
  '给我一个提示',
  '我猜25',
  '我再猜一次',
  '我猜三十七',
  '我猜六十多',
  '我猜75',
  '不玩了',
  '不玩了',
  '你是谁',
  '我们玩你画我猜吧',
  '是猫吗',
  '给我一个提示',
  '是鱼',
  '跳过',
  '是斑马吗',
  '我们玩猜数字吧',
  '我猜80',
  '我猜一百',
  '谢谢你',
  '不玩了',
];

const FALLBACK_CODES = [
  'game_model_failed', 'game_model_failed_start', 'game_model_failed_end', 'game_session_ended', 'model_invalid_output', 'model_remote_http', 'model_remote_network',
  'model_remote_timeout', 'model_remote_bad_stream', 'model_too_slow', 'main_model_failed', 'main_no_decision', 'main_game_request_failed', 'main_game_slow',
  'main_game_slow_start', 'main_game_slow_end', 'game_failed', 'game_timeout', 'game_timeout_lost', 'game_protocol', 'game_crashed',
];

export interface ChaosMetrics {
  turns: number;
  silentBeyondT1: number;
  beyondT2: number;
  /** Turns whose first real answer came later than T2 + the tolerance of speech starting (500 ms). */
  beyondT2Tolerance: number;
  worstFirstSoundMs: number;
  worstRealAnswerMs: number;
  falseClaimsSpoken: number;
  liesWritten: number;
  /** Per kind of lie (tests/support/chaos-brain-server.ts LIE_KINDS): how many the server wrote, how many the child heard (target 0). */
  liesByKind: Record<string, { written: number; spoken: number }>;
  secrets: number;
  secretsUntold: string[];
  pageErrors: string[];
  fallbackRepeats: number;
  fallbacksSaid: number;
  stillThinkingLines: number;
  historyLength: number;
  /** Heap after GC (MB) at turn `heapAt` and at the end, and the test's own records in it at those times. */
  heapMB: { early: number; late: number; recordsEarly: number; recordsLate: number } | null;
  faults: Record<string, number>;
}

async function until(page: Page, what: string, fn: () => Promise<boolean>, ms = 60_000): Promise<void> {
  await expect.poll(fn, { timeout: ms, message: what }).toBe(true);
}

/** The round is over and nothing is being said or read any more. */
async function quiet(page: Page): Promise<void> {
  await until(page, 'the app is quiet', () =>
    page.evaluate(async () => {
      const rt = (window as any).__agentcade;
      await rt.agent.settled();
      return rt.voice.speaking === 0 && !window.speechSynthesis.speaking && !window.speechSynthesis.pending && document.querySelector('[data-testid="mic-button"]')?.getAttribute('data-state') === 'idle';
    }),
  );
}

/** Opens the app on the chaos brain with a turn budget (set before the app starts: it sizes everything from it). */
export async function useChaosBrain(page: Page, server: ChaosServer, budget: TurnBudget): Promise<void> {
  await page.addInitScript((b) => localStorage.setItem('agentcade.settings.turn-budget', JSON.stringify(b)), budget);
  await page.addInitScript(() => {
    const w = window as any;
    w.__chaos = { heard: [] as Array<{ text: string; at: number }>, facts: [] as unknown[], lines: [] as string[] };
    const hook = () => {
      const rt = w.__agentcade;
      if (!rt) return void setTimeout(hook, 10);
      rt.agent.subscribe((e: { type: string; text?: string }) => {
        if (e.type === 'heard') w.__chaos.heard.push({ text: e.text, at: Date.now() });
      });
      // Every line handed to the speaking path, whole (fallbacks are compared line by line).
      rt.voice.subscribe((e: { type: string; text?: string }) => {
        if (e.type === 'line') w.__chaos.lines.push(e.text);
      });
      // What the games decided, captured as it is recorded (the trace store keeps only recent rounds).
      const rec = rt.recorder;
      const record = rec.record.bind(rec);
      rec.record = (e: { kind: string; name?: string; at: number; data?: any; revealsSecret?: boolean; contextId?: string }) => {
        if (e.kind === 'game_tool' && (e.data?.secret !== undefined || e.revealsSecret)) w.__chaos.facts.push({ name: e.name, at: e.at, data: e.data, revealsSecret: !!e.revealsSecret, contextId: e.contextId });
        return record(e);
      };
    };
    hook();
  });
}

/** Switches the open app to the chaos server (as a parent would in 设置). */
export async function chooseChaosBrain(page: Page, server: ChaosServer): Promise<void> {
  await useRemoteBrain(page, server.baseUrl, 'chaos');
}

/** The page's JS heap after a GC, and how much of it the test's own records take (the speech fake's and this run's arrays). */
async function heapMB(page: Page): Promise<{ heap: number; records: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  // Strings of CJK text take 2 bytes a character in V8.
  const chars = await page.evaluate(() => {
    const s = (window as any).__speech;
    return JSON.stringify([s.spoken, s.started, s.startedAt, s.timeline, s.utterances, (window as any).__chaos]).length;
  });
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 100) / 100;
  return { heap: mb(usedSize), records: mb(chars * 2) };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Types `turns` inputs of the script and measures what the child would have noticed. */
export async function runChaos(page: Page, server: ChaosServer, opts: { turns: number; budget: TurnBudget; pageErrors: string[]; heapAt?: number }): Promise<ChaosMetrics> {
  let early: { heap: number; records: number } | null = null;
  for (let i = 0; i < opts.turns; i++) {
    await quiet(page);
    if (opts.heapAt !== undefined && i === opts.heapAt) early = await heapMB(page);
    const before = await page.evaluate(() => (window as any).__chaos.heard.length);
    await type(page, CHAOS_SCRIPT[i % CHAOS_SCRIPT.length]);
    await until(page, `turn ${i + 1} heard`, async () => (await page.evaluate(() => (window as any).__chaos.heard.length)) > before, 20_000);
  }
  // Whatever game is still running ends, so its answer is due too.
  await quiet(page);
  await type(page, '不玩了');
  await quiet(page);
  const late = opts.heapAt !== undefined ? await heapMB(page) : null;

  const { heard, facts, started, lines, history } = await page.evaluate(() => {
    const w = window as any;
    return {
      heard: w.__chaos.heard as Array<{ text: string; at: number }>,
      facts: w.__chaos.facts as any[],
      lines: w.__chaos.lines as string[],
      started: w.__speech.startedAt as Array<{ text: string; at: number }>,
      history: w.__agentcade.agent.getHistory().length as number,
    };
  });
  if (process.env.CHAOS_DEBUG) (await import('node:fs')).writeFileSync(process.env.CHAOS_DEBUG, JSON.stringify({ heard, facts, lines, started, log: server.log }, null, 1));
  const thinking = new Set<string>(SAY.stillThinking);
  const { stillThinkingMs: T1, answerMs: T2 } = opts.budget;
  let silentBeyondT1 = 0;
  let beyondT2 = 0;
  let beyondT2Tolerance = 0;
  let worstFirstSoundMs = 0;
  let worstRealAnswerMs = 0;
  for (const [i, h] of heard.entries()) {
    const next = heard[i + 1]?.at ?? Infinity;
    const said = started.filter((s) => s.at >= h.at && s.at < next);
    const first = said[0]?.at ?? Infinity;
    const real = said.find((s) => !thinking.has(s.text))?.at ?? Infinity;
    worstFirstSoundMs = Math.max(worstFirstSoundMs, first - h.at);
    worstRealAnswerMs = Math.max(worstRealAnswerMs, real - h.at);
    if (first - h.at > T1 + 1000) silentBeyondT1++;
    if (real - h.at > T2) beyondT2++;
    if (real - h.at > T2 + 500) beyondT2Tolerance++;
  }
  const pieces = started.map((s) => s.text);
  const all = pieces.join('');
  const falseClaimsSpoken = server.lies.filter((lie) => all.includes(lie.replace(/[。！]$/, ''))).length;
  // Each kind: lies written, and how many times its sentence was heard (at most as often as it was written).
  const liesByKind: Record<string, { written: number; spoken: number }> = Object.fromEntries(LIE_KINDS.map((k) => [k, { written: 0, spoken: 0 }]));
  const heardTimes = (text: string) => all.split(text.replace(/[。！]$/, '')).length - 1;
  for (const k of LIE_KINDS) {
    const texts = server.lieLog.filter((l) => l.kind === k).map((l) => l.text);
    liesByKind[k].written = texts.length;
    liesByKind[k].spoken = [...new Set(texts)].reduce((n, t) => n + Math.min(heardTimes(t), texts.filter((x) => x === t).length), 0);
  }

  // Secrets: every number drawn, every animal asked. Told: the robot said it after it was drawn, or the child found it.
  const secrets = facts.filter((f) => f.data?.secret !== undefined && (f.name === 'secret' || f.name === 'question'));
  const secretsUntold: string[] = [];
  for (const s of secrets) {
    const value: string = s.name === 'secret' ? String(s.data.secret.number) : String(s.data.secret.answer);
    const forms = s.name === 'secret' ? [value] : [value, ...(ANIMAL_CARDS.find((c) => c.name === value)?.aliases ?? [])];
    const re = s.name === 'secret' ? new RegExp(`(?<!\\d)${value}(?!\\d)`) : new RegExp(forms.map(escapeRe).join('|'));
    const toldAfter = started.some((u) => u.at >= s.at && re.test(u.text));
    const found = facts.some((f) => f.revealsSecret && f.at >= s.at && ((f.name === 'correct' && String(f.data?.answer) === value) || (f.name === 'answer' && f.data?.status === 'correct' && f.data?.answer === value)));
    if (!toldAfter && !found) secretsUntold.push(value);
  }
  const fallbackLines = new Set([...FALLBACK_CODES.flatMap((c) => childLines(c)), ...SAY.stillThinking]);
  // The fallback lines in the order they were said (other lines in between do not make a repeat fine).
  const fallbacksSaid = lines.filter((l) => fallbackLines.has(l));
  let fallbackRepeats = 0;
  for (let i = 1; i < fallbacksSaid.length; i++) if (fallbacksSaid[i] === fallbacksSaid[i - 1]) fallbackRepeats++;
  const faults: Record<string, number> = {};
  for (const r of server.log) faults[r.fault] = (faults[r.fault] ?? 0) + 1;
  return {
    turns: heard.length,
    silentBeyondT1,
    beyondT2,
    beyondT2Tolerance,
    worstFirstSoundMs,
    worstRealAnswerMs,
    falseClaimsSpoken,
    liesWritten: server.lies.length,
    liesByKind,
    secrets: secrets.length,
    secretsUntold,
    pageErrors: opts.pageErrors,
    fallbackRepeats,
    fallbacksSaid: fallbacksSaid.length,
    stillThinkingLines: pieces.filter((p) => thinking.has(p)).length,
    historyLength: history,
    heapMB: early !== null && late !== null ? { early: early.heap, late: late.heap, recordsEarly: early.records, recordsLate: late.records } : null,
    faults,
  };
}
