/**
 * `npx tsx bench/cpu-engine/run.ts [--runs 5] [--port 4183] [--no-build] [--qwen [--qwen-runs 2] [--slots] [--cancel [--only-cancel] [--cancel-repeat 20] [--quick]] [--json]]`
 *
 * `--cancel`: a game-sized prompt abandoned 3 s into its prefill, then a short step at once, with
 * llama.cpp's default prompt batch (2048 tokens per engine step: before) and the app's
 * (CPU_PREFILL_CHUNK: after), side by side on two threads: the short step's wait for its first
 * piece and the prefill speed each batch gives.
 *
 * 1. Measured on THIS machine: prefill and decode tokens/s of the CPU engine (@wllama/wllama, the
 *    real model worker, in Debian's Chromium) on the tiny random-weight llama model the tests write
 *    (tests/support/tiny-gguf.ts; ≈100 K parameters, byte-level vocabulary), one thread vs two
 *    threads side by side in one run, with llama.cpp's own timings. This says how the engine path
 *    and threading behave here; it says nothing about a real model's speed on a tablet.
 * 2. Estimated, not measured: the time per in-game turn on the CPU engine with Qwen2.5-0.5B
 *    (and 1.5B) Q4_K_M, from published native llama.cpp rates (github.com/emigazp/companion-
 *    alzheimer issue #7: 0.5B prompt 16.6 / generation 10.4 tok/s, 1.5B 5.44 / 3.55 tok/s), replayed
 *    over the real agents' recorded turns (bench/latency: the same sessions and timeTurn) with
 *    llama.cpp's prompt cache (the longest common token prefix with the previous prompt is reused).
 *    WebAssembly runs llama.cpp slower than native; the rows "×⅓ wasm" divide the rates by 3 (an
 *    estimate: research/webllm.md §8, wllama#4), the plain rows keep them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchArg, ROOT as root } from '../lab-browser.ts';
import { labRunner } from './lab.ts';
import { tinyGguf } from '../../tests/support/tiny-gguf.ts';
import { writeQwenShapedGguf } from '../../tests/support/qwen-gguf.ts';
import { calibrationMessages } from '../../src/core/llm/brain-speed.ts';
import { CPU_PREFILL_CHUNK } from '../../src/core/llm/engine-choice.ts';
import { qwenTokenizer } from '../llm/run.ts';
import { recordSessions } from '../latency/run.ts';
import { percentile, renderChatML, SimulatedEngine, timeTurn, type StepCost, type Tokenizer } from '../latency/simulate.ts';
import type { DeviceProfile } from '../latency/profiles.ts';
import type { StepRequest } from '../../src/core/llm/types.ts';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => benchArg(args, name, fallback);
const RUNS = Number(arg('runs', '5'));
const PORT = Number(arg('port', '4183'));
const DIST = arg('dist', '.cache/dist-bench-cpu');
const withLab = labRunner(args, DIST, PORT);

// ---- 1. this machine ----

async function measure() {
  return withLab({ '/tiny.gguf': tinyGguf({ seed: 3 }) }, async (browser, url, fileUrl) => {
    // A realistic prompt length: a game's system prompt and a few rounds (≈1 700 characters).
    const system = `你是陪小朋友玩“猜数字”的机器人。${'每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。说话要短、温暖、鼓励，用孩子听得懂的词。'.repeat(12)}`;
    const tools = [{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 60, maxLength: 60 } }, required: ['text'] } }];
    const out: Record<string, { prefill: number[]; decode: number[]; promptTokens: number; decodeTokens: number; threads: number; multi: boolean }> = {};
    for (const threads of [1, 2]) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => document.getElementById('state')?.textContent === 'ready');
      const loaded = (await page.evaluate(([u, t]) => (globalThis as unknown as { __cpuLab: { load(u: string, t: number): Promise<unknown> } }).__cpuLab.load(u, t), [fileUrl('/tiny.gguf'), threads] as const)) as { details: { threads: number; multiThread: boolean } };
      const row = { prefill: [] as number[], decode: [] as number[], promptTokens: 0, decodeTokens: 0, threads: loaded.details.threads, multi: loaded.details.multiThread };
      for (let r = 0; r < RUNS + 1; r++) {
        // A new first message each run: the whole prompt is prefilled (no prompt cache).
        const messages = [
          { role: 'system', content: `${r}${system}` },
          { role: 'user', content: '我猜五十' },
        ];
        const res = (await page.evaluate(([m, t]) => (globalThis as unknown as { __cpuLab: { step(m: unknown, t: unknown, max: number, temp: number): Promise<unknown> } }).__cpuLab.step(m, t, 400, 1), [messages, tools] as const)) as {
          error?: string;
          details: { promptPerSecond: number; decodePerSecond: number; promptTokens: number; decodeTokens: number };
        };
        if (res.error) throw new Error(res.error);
        if (r === 0) continue; // warm-up
        row.prefill.push(res.details.promptPerSecond);
        row.decode.push(res.details.decodePerSecond);
        row.promptTokens = res.details.promptTokens;
        row.decodeTokens = res.details.decodeTokens;
      }
      out[String(threads)] = row;
      await page.close();
    }
    return { out, browser: browser.version() };
  });
}

// ---- 2. projection ----

/** llama.cpp's prompt cache: the longest common token prefix with the previous prompt is not prefilled again. */
class PrefixCacheEngine extends SimulatedEngine {
  private previous: number[] = [];
  constructor(private readonly t: Tokenizer) {
    super(t);
  }
  override step(req: StepRequest, output: string): StepCost {
    const prompt = this.t.encode(renderChatML(req.messages));
    let common = 0;
    while (common < prompt.length && common < this.previous.length && prompt[common] === this.previous[common]) common++;
    this.previous = [...prompt, ...this.t.encode(output)];
    return { promptTokens: prompt.length, prefillTokens: prompt.length - common, outputTokens: this.t.encode(output).length + 1, inPlace: common > 0 };
  }
}

const SOURCE = 'github.com/emigazp/companion-alzheimer issue #7 (llama.cpp, Q4_K_M)';
const WASM = 3;
const CPU_PROFILES: DeviceProfile[] = [
  { id: '0.5b', label: 'Qwen2.5-0.5B · 公开的原生 llama.cpp 速度', prefillTps: 16.6, decodeTps: 10.4, source: SOURCE },
  { id: '0.5b-wasm', label: 'Qwen2.5-0.5B · ×⅓ wasm（估计）', prefillTps: 16.6 / WASM, decodeTps: 10.4 / WASM, source: `${SOURCE}; wasm ÷${WASM} estimate` },
  { id: '1.5b', label: 'Qwen2.5-1.5B · 公开的原生 llama.cpp 速度', prefillTps: 5.44, decodeTps: 3.55, source: SOURCE },
  { id: '1.5b-wasm', label: 'Qwen2.5-1.5B · ×⅓ wasm（估计）', prefillTps: 5.44 / WASM, decodeTps: 3.55 / WASM, source: `${SOURCE}; wasm ÷${WASM} estimate` },
];

async function project() {
  const tok = await qwenTokenizer();
  const sessions = await recordSessions();
  return {
    tokenizer: tok.name,
    rows: CPU_PROFILES.map((p) => {
      const first: number[] = [];
      const full: number[] = [];
      let prefill = 0;
      let turns = 0;
      for (const s of sessions) {
        const engine = new PrefixCacheEngine(tok);
        for (const t of s.turns) {
          const timing = timeTurn(engine, t, p, { streaming: true, cue: true }, tok);
          if (!t.inGame) continue;
          turns++;
          first.push(timing.firstSentenceS);
          full.push(timing.fullReplyS);
          prefill += timing.prefillTokens;
        }
      }
      return { profile: p, turns, firstP50: percentile(first, 50), firstP95: percentile(first, 95), fullP50: percentile(full, 50), prefillPerTurn: prefill / Math.max(1, turns) };
    }),
  };
}

// ---- 3. Qwen2.5-0.5B's real shapes, measured here (`--qwen`) ----

/** What one thread count measured on the real-shape file. */
interface QwenRow {
  threads: number;
  multi: boolean;
  prefill: number[];
  decode: number[];
  promptTokens: number;
  /** A step abandoned mid-prefill, then a short step at once: how long the short one waited for its first piece. */
  afterAbandonFirstPieceS: number;
  /** The short step alone (nothing abandoned before it). */
  aloneFirstPieceS: number;
}

/** One prompt batch: prefill speed, and the wait of a step sent right after a cancelled prefill. */
interface CancelRow {
  batch: number;
  prefill: number;
  abandonedPromptTokens: number;
  /** Cancel → the next step's first decoded piece. */
  afterCancelFirstPieceS: number;
  /** The same short step with nothing before it. */
  aloneFirstPieceS: number;
}

interface SlotRow {
  slots: number;
  gameFirstPrefill: number;
  mainPrefill: number;
  /** Tokens the game's next step prefilled anew after the main agent's step. */
  gameAfterChatPrefill: number;
}

async function measureQwen(): Promise<{ rows: QwenRow[]; slotRows: SlotRow[]; cancelRows: CancelRow[]; browser: string; fileMB: number }> {
  const file = resolve(root, '.cache/qwen2.5-0.5b-shapes-q4_0.gguf');
  if (!existsSync(file)) {
    console.log('writing the Qwen2.5-0.5B-shaped GGUF (random Q4_0 weights) …');
    writeQwenShapedGguf(file);
  }
  const bytes = new Uint8Array(readFileSync(file));
  return withLab({ '/qwen.gguf': bytes }, async (browser, url, fileUrl) => {
  type Lab = {
    load(u: string, t: number, slots?: number, batch?: number): Promise<{ details: { threads: number; multiThread: boolean } }>;
    step(m: unknown, t: unknown, max: number, temp: number): Promise<{ error?: string; details: { promptPerSecond: number; decodePerSecond: number; promptTokens: number } }>;
    abandonThenStep(long: unknown, short: unknown, t: unknown, ms: number): Promise<{ firstPieceMs: number }>;
  };
    const tools = [{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 12, maxLength: 12 } }, required: ['text'] } }];
    const rows: QwenRow[] = [];
    for (const threads of args.includes('--only-cancel') ? [] : [1, 2]) {
      const page = await browser.newPage();
      page.setDefaultTimeout(600_000);
      await page.goto(url);
      await page.waitForFunction(() => document.getElementById('state')?.textContent === 'ready');
      const loaded = await page.evaluate(({ u, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.load(u, t), { u: fileUrl('/qwen.gguf'), t: threads });
      const row: QwenRow = { threads: loaded.details.threads, multi: loaded.details.multiThread, prefill: [], decode: [], promptTokens: 0, afterAbandonFirstPieceS: 0, aloneFirstPieceS: 0 };
      // The calibration layout the app measures after a load (a new first character each run: no prompt cache).
      for (let r = 0; r < QWEN_RUNS; r++) {
        const [sys, user] = calibrationMessages();
        const messages = [{ ...sys, content: `${r}${sys.content}` }, user];
        const res = await page.evaluate(({ m, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.step(m, t, 64, 1), { m: messages, t: tools });
        if (res.error) throw new Error(res.error);
        row.prefill.push(res.details.promptPerSecond);
        row.decode.push(res.details.decodePerSecond);
        row.promptTokens = res.details.promptTokens;
      }
      // Abandoned mid-prefill (a long prompt, given up after 3 s), then a short step at once.
      const long = [
        { role: 'system', content: `x${'每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。'.repeat(12)}` },
        { role: 'user', content: '我猜五十' },
      ];
      const short = [
        { role: 'system', content: 'y你好' },
        { role: 'user', content: '我猜五十' },
      ];
      const after = await page.evaluate(({ l, s, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.abandonThenStep(l, s, t, 3000), { l: long, s: short, t: tools });
      const alone = await page.evaluate(({ l, s, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.abandonThenStep(l, s, t, 0), { l: short, s: [{ role: 'system', content: 'z你好' }, short[1]], t: tools });
      row.afterAbandonFirstPieceS = after.firstPieceMs / 1000;
      row.aloneFirstPieceS = alone.firstPieceMs / 1000;
      rows.push(row);
      // Each row as soon as it is measured (a long run may be stopped).
      console.error(`[measured] ${JSON.stringify(row)}`);
      await page.close();
    }
    // A main-agent turn in the middle of a game: game step, main step, the game's next step — how many
    // tokens the game's next step prefilled anew (llama.cpp's prompt_n), with one cache slot and with two.
    const slotRows: SlotRow[] = [];
    if (args.includes('--slots'))
      for (const slots of [1, 2]) {
        const page = await browser.newPage();
        page.setDefaultTimeout(900_000);
        await page.goto(url);
        await page.waitForFunction(() => document.getElementById('state')?.textContent === 'ready');
        await page.evaluate(({ u, n }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.load(u, 2, n), { u: fileUrl('/qwen.gguf'), n: slots });
        const game = [
          { role: 'system', content: `g${slots}${'你是游戏主持人。每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。'.repeat(6)}` },
          { role: 'user', content: '{"event":"message","user_text":"我猜五十"}' },
        ];
        const main = [
          { role: 'system', content: `m${slots}${'你是陪孩子聊天的小机器人，用一句简短、温暖的中文回答。'.repeat(6)}` },
          { role: 'user', content: '你叫什么名字' },
        ];
        const step = (m: unknown) => page.evaluate(({ m, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.step(m, t, 64, 1), { m, t: tools });
        const g1 = (await step(game)) as unknown as { step: { raw?: string; action: string; args: unknown }; details: { promptTokens: number } };
        const m1 = (await step(main)) as unknown as { details: { promptTokens: number } };
        const next = [...game, { role: 'assistant', content: g1.step.raw ?? JSON.stringify({ [g1.step.action]: g1.step.args }) }, { role: 'user', content: '{"event":"message","user_text":"我猜七十"}' }];
        const g2 = (await step(next)) as unknown as { details: { promptTokens: number } };
        slotRows.push({ slots, gameFirstPrefill: g1.details.promptTokens, mainPrefill: m1.details.promptTokens, gameAfterChatPrefill: g2.details.promptTokens });
        await page.close();
      }
    const cancelRows: CancelRow[] = [];
    if (args.includes('--cancel'))
      for (const batch of [2048, CPU_PREFILL_CHUNK]) {
        const page = await browser.newPage();
        page.setDefaultTimeout(900_000);
        await page.goto(url);
        await page.waitForFunction(() => document.getElementById('state')?.textContent === 'ready');
        await page.evaluate(({ u, b }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.load(u, 2, 1, b), { u: fileUrl('/qwen.gguf'), b: batch });
        const [sys, user] = calibrationMessages();
        // `--quick` (a busy machine): no calibration step, no step alone, no count of the long prompt.
        const cal = QUICK
          ? { details: { promptPerSecond: NaN, promptTokens: 0 } }
          : await page.evaluate(({ m, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.step(m, t, 16, 1), { m: [{ ...sys, content: `b${batch}${sys.content}` }, user], t: tools });
        if (!QUICK && !cal.details?.promptPerSecond) throw new Error((cal as { error?: string }).error ?? 'no timings');
        // About a game's first request (≈ 800 tokens; `--cancel-repeat` sets its length), abandoned 3 s into its prefill.
        const long = [
          { role: 'system', content: `L${batch}${'每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。规则由工具负责，不要自己编答案。'.repeat(CANCEL_REPEAT)}` },
          { role: 'user', content: '我猜五十' },
        ];
        const short = [
          { role: 'system', content: `S${batch}你好` },
          { role: 'user', content: '我猜五十' },
        ];
        const after = (await page.evaluate(({ l, s, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.abandonThenStep(l, s, t, 3000), { l: long, s: short, t: tools })) as { firstPieceMs: number };
        const alone = QUICK
          ? { firstPieceMs: NaN }
          : await page.evaluate(({ l, s, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.abandonThenStep(l, s, t, 0), {
              l: [{ role: 'system', content: `A${batch}你好` }, short[1]],
              s: [{ role: 'system', content: `B${batch}你好` }, short[1]],
              t: tools,
            });
        const row: CancelRow = {
          batch,
          prefill: cal.details.promptPerSecond,
          abandonedPromptTokens: 0,
          afterCancelFirstPieceS: after.firstPieceMs / 1000,
          aloneFirstPieceS: alone.firstPieceMs / 1000,
        };
        // The abandoned prompt's length, counted by the engine itself (a step that is not cancelled).
        if (!QUICK) {
          const counted = await page.evaluate(({ m, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.step(m, t, 1, 1), { m: [{ ...long[0], content: `C${long[0].content}` }, long[1]], t: tools });
          row.abandonedPromptTokens = counted.details?.promptTokens ?? 0;
        }
        console.error(`[measured] ${JSON.stringify(row)}`);
        cancelRows.push(row);
        await page.close();
      }
    return { rows, slotRows, cancelRows, browser: browser.version(), fileMB: bytes.length / 1e6 };
  });
}

const QWEN_RUNS = Number(arg('qwen-runs', '2'));
const CANCEL_REPEAT = Number(arg('cancel-repeat', '20'));
const QUICK = args.includes('--quick');
const med = (xs: number[]) => percentile(xs, 50);
if (args.includes('--qwen')) {
  const q = await measureQwen();
  if (args.includes('--json')) console.log(JSON.stringify(q, null, 2));
  console.log(`\n# Qwen2.5-0.5B 的真实形状（随机 Q4_0 权重，${q.fileMB.toFixed(0)} MB），本机 Chromium 实测（2 核，与其他任务共用，数字有噪声；${q.browser}）`);
  console.log('threads | multi-thread | prompt tokens | prefill tok/s (median) | decode tok/s (median) | first piece after an abandoned prefill | first piece alone');
  for (const r of q.rows)
    console.log(`${r.threads} | ${r.multi ? 'yes' : 'no'} | ${r.promptTokens} | ${med(r.prefill).toFixed(1)} | ${med(r.decode).toFixed(1)} | ${r.afterAbandonFirstPieceS.toFixed(1)} s | ${r.aloneFirstPieceS.toFixed(1)} s`);
  const [one, two] = q.rows;
  const best = [...q.rows].sort((a, b) => med(b.prefill) - med(a.prefill))[0];
  if (best)
    writeFileSync(
      resolve(root, '.cache/cpu-measured.json'),
      JSON.stringify({ prefillTps: med(best.prefill), decodeTps: med(best.decode), threads: best.threads, source: `bench/cpu-engine --qwen on this machine (${best.threads} threads, ${new Date().toISOString().slice(0, 10)}; shared, noisy)` }),
    );
  if (one && two) console.log(`2 threads vs 1, side by side in this run: prefill ×${(med(two.prefill) / med(one.prefill)).toFixed(2)}, decode ×${(med(two.decode) / med(one.decode)).toFixed(2)}`);
  if (q.cancelRows.length) {
    console.log('\nprompt batch (tokens per engine step) | prefill tok/s | abandoned prompt tokens | cancel → next step first piece | that step alone');
    for (const r of q.cancelRows)
      console.log(`${r.batch}${r.batch === CPU_PREFILL_CHUNK ? ' (app)' : ' (llama.cpp default)'} | ${r.prefill.toFixed(1)} | ${r.abandonedPromptTokens} | ${r.afterCancelFirstPieceS.toFixed(1)} s | ${r.aloneFirstPieceS.toFixed(1)} s`);
    const [b, a] = q.cancelRows;
    if (a && b) console.log(`side by side in this run: wait after a cancel ×${(a.afterCancelFirstPieceS / b.afterCancelFirstPieceS).toFixed(2)}, prefill speed ×${(a.prefill / b.prefill).toFixed(2)}`);
  }
  for (const r of q.slotRows) console.log(`cache slots ${r.slots}: game step prefilled ${r.gameFirstPrefill}, main step ${r.mainPrefill}, the game's next step after the chat ${r.gameAfterChatPrefill} tokens`);
  process.exit(0);
}
const m = await measure();
console.log(`\n# 1. 本机实测（这台机器：2 核，与其他任务共用；${m.browser}）— 测试用的随机权重小模型，不是真模型`);
console.log('threads | multi-thread | prompt tokens | prefill tok/s (median) | decode tokens | decode tok/s (median)');
for (const [, r] of Object.entries(m.out)) console.log(`${r.threads} | ${r.multi ? 'yes' : 'no'} | ${r.promptTokens} | ${med(r.prefill).toFixed(0)} | ${r.decodeTokens} | ${med(r.decode).toFixed(0)}`);
const one = m.out['1'];
const two = m.out['2'];
console.log(`2 threads vs 1, this machine, tiny model: prefill ×${(med(two.prefill) / med(one.prefill)).toFixed(2)}, decode ×${(med(two.decode) / med(one.decode)).toFixed(2)}`);

const p = await project();
console.log(`\n# 2. 估计（不是实测）：CPU 引擎每个局内回合的等待时间，${p.rows[0].turns} 个回合（猜数字、你画我猜、恐龙问答的真实请求；词元：${p.tokenizer}；llama.cpp 提示缓存）`);
console.log('profile | first sentence p50 | p95 | whole reply p50 | prefilled tokens/turn | source');
for (const r of p.rows) console.log(`${r.profile.label}（${r.profile.prefillTps.toFixed(1)} / ${r.profile.decodeTps.toFixed(1)} tok/s） | ${r.firstP50.toFixed(1)} s | ${r.firstP95.toFixed(1)} s | ${r.fullP50.toFixed(1)} s | ${r.prefillPerTurn.toFixed(0)} | ${r.profile.source}`);
process.exit(0);
