/**
 * `npx tsx bench/cpu-engine/chat-gap.ts [--port 4183] [--no-build] [--json] [--tiny]`
 *
 * A main-agent chat turn in the middle of a game, on the CPU engine (the real provider, model
 * worker and wllama in Chromium) with a GGUF of Qwen2.5-0.5B-Instruct's real shapes (random Q4_0
 * weights, generated, not committed): two game steps, a main-agent step, the game's next step.
 * Counted by llama.cpp itself (`prompt_n`): the tokens the game's next step read anew, with one
 * cache slot (the app's), side by side in one run:
 * - before: nothing between the chat step and the game's next step;
 * - after: the hub asks again for the game's prewarm once the chat step is done (src/llm/model-hub.ts),
 *   as the app does after another agent's final reply.
 * The game's prompt is the real 猜数字 SKILL.md under a short common prompt; the main agent's is a
 * chat prompt of its size (≈ 250 tokens). `--tiny`: the tests' tiny random-weight model instead (a
 * byte-level vocabulary: a quick check of the path in a minute, not the Qwen figures).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchArg, ROOT } from '../lab-browser.ts';
import { labRunner } from './lab.ts';
import { writeQwenShapedGguf } from '../../tests/support/qwen-gguf.ts';
import { tinyGguf } from '../../tests/support/tiny-gguf.ts';

const args = process.argv.slice(2);
const PORT = Number(benchArg(args, 'port', '4183'));
const TINY = args.includes('--tiny');
const withLab = labRunner(args, benchArg(args, 'dist', '.cache/dist-bench-cpu'), PORT);

type Msg = { role: string; content: string };
interface Lab {
  load(u: string, t: number, slots?: number): Promise<unknown>;
  step(m: Msg[], t: unknown, max: number, temp: number): Promise<{ error?: string; deltas: string[]; details: { promptTokens: number } }>;
  prewarm(m: Msg[]): Promise<{ ms: number; details: { promptTokens: number } }>;
}

interface Row {
  variant: 'before' | 'after';
  gamePromptTokens: number;
  /** The game's second step, right after its first (no chat between): tokens read anew. */
  gameInPlacePrefill: number;
  mainPrefill: number;
  /** The hub's prewarm after the chat (after only): tokens it read. */
  rewarmPrefill?: number;
  /** The game's step after the chat turn: tokens read anew (`prefillAfterChatTokens`). */
  afterChatPrefill: number;
}

const skill = readFileSync(resolve(ROOT, 'skills/guess-number/SKILL.md'), 'utf8').replace(/^---[\s\S]*?---\n/, '');
const tools = [{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 8, maxLength: 8 } }, required: ['text'] } }];
const input = (text: string): Msg => ({ role: 'user', content: JSON.stringify({ event: 'message', user_text: text, state: { tries: 2, range: [1, 100] } }) });

async function measure(): Promise<{ rows: Row[]; browser: string }> {
  const file = resolve(ROOT, '.cache/qwen2.5-0.5b-shapes-q4_0.gguf');
  if (!TINY && !existsSync(file)) {
    console.log('writing the Qwen2.5-0.5B-shaped GGUF (random Q4_0 weights) …');
    writeQwenShapedGguf(file);
  }
  return withLab({ '/qwen.gguf': TINY ? tinyGguf({ seed: 3 }) : new Uint8Array(readFileSync(file)) }, async (browser, url, fileUrl) => {
    const rows: Row[] = [];
    for (const variant of ['before', 'after'] as const) {
      const page = await browser.newPage();
      page.setDefaultTimeout(1_800_000);
      await page.goto(url);
      await page.waitForFunction(() => document.getElementById('state')?.textContent === 'ready');
      await page.evaluate(({ u }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.load(u, 2, 1), { u: fileUrl('/qwen.gguf') });
      const lab = {
        step: (m: Msg[]) => page.evaluate(({ m, t }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.step(m, t, 24, 1), { m, t: tools }),
        prewarm: (m: Msg[]) => page.evaluate(({ m }) => (globalThis as unknown as { __cpuLab: Lab }).__cpuLab.prewarm(m), { m }),
      };
      // A different first character per variant: neither reads the other's cache.
      const game: Msg[] = [{ role: 'system', content: `${variant}你是桌面小机器人里的游戏主持人。每一步只做一个动作。\n${skill}` }, input('我猜五十')];
      const g1 = await lab.step(game);
      const g2msgs = [...game, { role: 'assistant', content: g1.deltas.join('') }, input('我猜七十')];
      const g2 = await lab.step(g2msgs);
      const main: Msg[] = [
        { role: 'system', content: `m${variant}${'你是陪孩子聊天的小机器人，用一句简短、温暖的中文回答。现在孩子在玩猜数字。'.repeat(6)}` },
        { role: 'user', content: '你最喜欢什么颜色' },
      ];
      const m1 = await lab.step(main);
      const start = [...g2msgs, { role: 'assistant', content: g2.deltas.join('') }];
      const warm = variant === 'after' ? await lab.prewarm(start) : undefined;
      const g3 = await lab.step([...start, input('我猜六十')]);
      const row: Row = {
        variant,
        gamePromptTokens: g1.details.promptTokens,
        gameInPlacePrefill: g2.details.promptTokens,
        mainPrefill: m1.details.promptTokens,
        ...(warm ? { rewarmPrefill: warm.details.promptTokens } : {}),
        afterChatPrefill: g3.details.promptTokens,
      };
      console.error(`[measured] ${JSON.stringify(row)}`);
      rows.push(row);
      await page.close();
    }
    return { rows, browser: browser.version() };
  });
}

const r = await measure();
if (args.includes('--json')) console.log(JSON.stringify(r, null, 2));
console.log(`\n# 游戏中间插一句闲聊（CPU 引擎，${TINY ? '测试用的随机权重小模型（按字节计 token）' : 'Qwen2.5-0.5B 的真实形状，随机 Q4_0 权重'}，本机 Chromium ${r.browser}，2 线程，1 个缓存槽）`);
console.log('variant | game prompt tokens | game step right after a game step | main step | re-warm after the chat | game step after the chat (prefillAfterChatTokens)');
for (const x of r.rows) console.log(`${x.variant} | ${x.gamePromptTokens} | ${x.gameInPlacePrefill} | ${x.mainPrefill} | ${x.rewarmPrefill ?? '—'} | ${x.afterChatPrefill}`);
process.exit(0);
