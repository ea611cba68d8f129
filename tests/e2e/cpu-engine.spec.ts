import { expect, test, type Page } from '@playwright/test';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';
import type { ToolSpec } from '../../src/core/llm/types.ts';

// The CPU engine end to end in Chromium: the real model worker runs llama.cpp (@wllama/wllama) on
// a tiny random-weight llama model that this test writes as a GGUF file, and decides steps through
// the real step layer under the step schema's GBNF grammar. The weights are random, so only the
// grammar makes the steps valid: no retries are allowed (any invalid step fails the test).

const MODEL = '/models/tiny-random.gguf';
const gguf = tinyGguf({ seed: 7 });
let files: FileServer;
test.beforeAll(async () => {
  files = await startFileServer({
    [MODEL]: gguf,
    '/models/page.gguf': new TextEncoder().encode('<!DOCTYPE html><html><body>Not found</body></html>'),
    '/models/cut.gguf': gguf.slice(0, Math.floor(gguf.length * 0.6)),
    '/models/garbled.gguf': gguf.slice().fill(0x41, 4, 4000),
  });
});
test.afterAll(async () => {
  await files.close();
});

const str = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength });
const TOOL_SETS: Array<{ name: string; tools: ToolSpec[] }> = [
  {
    name: '猜数字',
    tools: [
      { name: 'start_game', description: '', parameters: { type: 'object', properties: {} } },
      { name: 'submit_guess', description: '', parameters: { type: 'object', properties: { number: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['number'] } },
      { name: 'get_hint', description: '', parameters: { type: 'object', properties: {} } },
      { name: 'say', description: '', parameters: { type: 'object', properties: { text: str(20, 1) }, required: ['text'] } },
      { name: 'reply', description: '', parameters: { type: 'object', properties: { text: str(24, 1) }, required: ['text'] } },
    ],
  },
  {
    name: 'main agent',
    tools: [
      { name: 'list_games', description: '', parameters: { type: 'object', properties: {} } },
      { name: 'start_game', description: '', parameters: { type: 'object', properties: { game_id: { type: 'string', enum: ['guess-number', 'draw-guess'] } }, required: ['game_id'] } },
      { name: 'reply', description: '', parameters: { type: 'object', properties: { text: str(24, 1) }, required: ['text'] } },
    ],
  },
  {
    name: 'studio card',
    tools: [
      {
        name: 'write_card',
        description: '',
        parameters: {
          type: 'object',
          properties: {
            title: str(8, 1),
            tags: { type: 'array', items: str(4, 1), maxItems: 3 },
            level: { type: 'string', enum: ['easy', 'hard'] },
            done: { type: 'boolean' },
            note: str(6),
          },
          required: ['title', 'level'],
        },
      },
    ],
  },
  {
    // An exact length: every character the grammar counts must survive decoding (no special token
    // spelled inside a string, no surrogate escapes).
    name: 'exact length',
    tools: [{ name: 'reply', description: '', parameters: { type: 'object', properties: { text: str(40, 40) }, required: ['text'] } }],
  },
];

const lab = (page: Page) => ({
  load: (threads?: number) => page.evaluate(([url, t]) => (globalThis as any).__cpuLab.load(url, t), [files.url(MODEL), threads] as const),
  step: (messages: unknown[], tools: ToolSpec[]) => page.evaluate(([m, t]) => (globalThis as any).__cpuLab.step(m, t, 320, 1), [messages, tools] as const),
  isCached: () => page.evaluate((url) => (globalThis as any).__cpuLab.isCached(url), files.url(MODEL)),
  deleteCached: () => page.evaluate((url) => (globalThis as any).__cpuLab.deleteCached(url), files.url(MODEL)),
  probe: () => page.evaluate(() => (globalThis as any).__cpuLab.probe()),
});

test('wllama loads the generated GGUF in the model worker and every step is schema-valid under the grammar', async ({ page }) => {
  test.setTimeout(180_000);
  expect(gguf.length).toBeGreaterThan(200_000);
  expect(gguf.length).toBeLessThan(600_000);
  await page.goto('/tests/lab/cpu-engine.html');
  await expect(page.locator('#state')).toHaveText('ready');
  const l = lab(page);
  // Served with COOP/COEP: the page is cross-origin isolated, so the engine may use threads.
  expect(await l.probe()).toMatchObject({ usable: true, isolated: true });
  expect(await l.isCached()).toBe(false);

  const loaded = await l.load();
  expect(loaded.cached).toBe(true);
  // Download progress counted the real file, to its end.
  const bytes = loaded.progress.filter((p: { total?: number }) => p.total);
  expect(bytes.at(-1)).toMatchObject({ loaded: gguf.length, total: gguf.length });
  expect(loaded.progress.at(-1)).toMatchObject({ progress: 1 });

  let n = 0;
  for (const set of TOOL_SETS)
    for (const words of ['我猜五十', '我们玩你画我猜吧', '给我一个提示', '写一张卡片：小猫']) {
      const r = await l.step(
        [
          { role: 'system', content: `你是陪小朋友玩的机器人（${set.name}）。每一步只输出一个 JSON 对象。` },
          { role: 'user', content: words },
        ],
        set.tools,
      );
      n++;
      expect(r.error, `${set.name} / ${words}: ${r.invalid}`).toBeUndefined();
      expect(r.invalid, `${set.name} / ${words}`).toEqual([]);
      expect(set.tools.map((t) => t.name)).toContain(r.step.action);
      // The step streamed: its pieces add up to the text decoded.
      expect(r.deltas.length).toBeGreaterThan(5);
      expect(r.deltas.join('')).toBe(r.step.raw);
    }
  expect(n).toBe(16);
});

test('two threads when cross-origin isolated; a cached model and engine load with the network gone; delete removes it', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/tests/lab/cpu-engine.html');
  const l = lab(page);
  const multi = await l.load(2);
  expect(multi.details).toMatchObject({ threads: 2, multiThread: true });

  // Offline: the model (OPFS) and the engine's .wasm (Cache API) come from this device. (The lab
  // page has no service worker, so its worker starts while online; in the app the service worker
  // precaches the worker's code.)
  await page.reload();
  await expect(page.locator('#state')).toHaveText('ready');
  expect(await lab(page).isCached()).toBe(true);
  files.offline = true;
  const before = files.requests.length;
  try {
    await page.context().setOffline(true);
    const again = await lab(page).load(1);
    expect(again.details).toMatchObject({ threads: 1, multiThread: false });
    const r = await lab(page).step([{ role: 'user', content: '你好' }], TOOL_SETS[1].tools);
    expect(r.error).toBeUndefined();
    expect(r.invalid).toEqual([]);
  } finally {
    await page.context().setOffline(false);
    files.offline = false;
  }
  expect(files.requests.length).toBe(before);

  await lab(page).deleteCached();
  expect(await lab(page).isCached()).toBe(false);
});

test('a file that is not a whole model is refused before it is used, with what happened: an HTML page, a cut-off file, a corrupt one, a missing address', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/tests/lab/cpu-engine.html');
  await expect(page.locator('#state')).toHaveText('ready');
  const load = (path: string) => page.evaluate((url) => (globalThis as any).__cpuLab.load(url).then(() => 'loaded', (e: Error & { code?: string }) => `${e?.code}|${e?.message ?? e}`), files.url(path));
  expect(await load('/models/page.gguf')).toMatch(/model_file_bad.*这是一个网页（HTML），不是模型文件/s);
  expect(await load('/models/cut.gguf')).toMatch(/model_file_bad.*文件不完整/s);
  expect(await load('/models/garbled.gguf')).toMatch(/model_file_bad/);
  const missing = await load('/models/none.gguf');
  expect(missing).toMatch(/HTTP 404/);
  expect(missing).toContain(files.url('/models/none.gguf'));
  // Nothing of them was kept as a model on this device.
  expect(await page.evaluate((url) => (globalThis as any).__cpuLab.isCached(url), files.url('/models/page.gguf'))).toBe(false);
});
