import { expect, test } from '@playwright/test';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

// The CPU engine end to end in Chromium: the real model worker runs llama.cpp (wllama) on a tiny
// random-weight llama model that this test writes as a GGUF file, and decides steps through the
// real step layer under the step grammar.

let files: FileServer;
const MODEL = '/models/tiny-random.gguf';
test.beforeAll(async () => {
  files = await startFileServer({ [MODEL]: tinyGguf({ seed: 7 }) });
});
test.afterAll(async () => {
  await files.close();
});

test('smoke: loads the tiny GGUF and decodes one step', async ({ page }) => {
  page.on('console', (m) => console.log('page:', m.text()));
  await page.goto('/tests/lab/cpu-engine.html');
  await expect(page.locator('#state')).toHaveText('ready');
  const loaded = await page.evaluate((url) => (globalThis as any).__cpuLab.load(url), files.url(MODEL));
  console.log(JSON.stringify(loaded).slice(0, 500));
  const r = await page.evaluate(() =>
    (globalThis as any).__cpuLab.step(
      [
        { role: 'system', content: '你是小机器人。' },
        { role: 'user', content: '我猜五十' },
      ],
      [
        { name: 'submit_guess', description: '', parameters: { type: 'object', properties: { number: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['number'] } },
        { name: 'reply', description: '', parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 12 } }, required: ['text'] } },
      ],
    ),
  );
  console.log(JSON.stringify(r));
});
