import { chromium, expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The service worker registers here (playwright.config.ts blocks it by default): this spec is about the installed app, its precache and its updates.
test.use({ serviceWorkers: 'allow' });

// The build the webServer serves (playwright.config.ts builds into .cache/dist-<port>).
const PORT = Number(process.env.E2E_PORT ?? 4173);
const DIST = resolve(import.meta.dirname, '../..', `.cache/dist-${PORT}`);

// The machine running these is shared and slow; a service worker install precaches ~9 MB.
test.describe.configure({ timeout: 180_000 });

async function waitForControl(page: Page) {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });
}

/** Width and height from a PNG's IHDR. */
function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

test('the manifest is valid and Chromium finds the app installable', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await request.get(href!)).json();
  expect(manifest).toMatchObject({
    name: '机器人游戏厅',
    lang: 'zh-CN',
    display: 'standalone',
    orientation: 'landscape',
    start_url: '/',
    theme_color: '#ffb347',
  });
  const want = new Set(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']);
  for (const icon of manifest.icons as { src: string; sizes: string; purpose: string; type: string }[]) {
    const res = await request.get(`/${icon.src}`);
    expect(res.ok(), icon.src).toBe(true);
    const [w, h] = pngSize(await res.body());
    expect(`${w}x${h}`).toBe(icon.sizes);
    want.delete(`${icon.sizes} ${icon.purpose}`);
  }
  expect([...want]).toEqual([]);

  // Chromium's own installability checks; Playwright's usual contexts count as incognito
  // (never installable), so this one runs in a persistent profile.
  const profile = mkdtempSync(join(tmpdir(), 'agentcade-pwa-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    baseURL: `http://localhost:${PORT}`,
    args: ['--no-first-run', '--disable-sync'],
  });
  try {
    const p = ctx.pages()[0] ?? (await ctx.newPage());
    await p.goto('/');
    await waitForControl(p);
    const cdp = await ctx.newCDPSession(p);
    const app = await cdp.send('Page.getAppManifest');
    expect(app.errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the service worker precaches every JS chunk, workers included, and never touches WebLLM caches', async ({ page }) => {
  // A model cache that exists before the service worker installs (WebLLM's cache names).
  await page.goto('/tests/lab/trace.html');
  await page.evaluate(async () => {
    const c = await caches.open('webllm/model');
    await c.put('https://models.example/params_shard_0.bin', new Response('weights'));
  });
  await page.goto('/');
  await waitForControl(page);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const urls: string[] = [];
    for (const n of names.filter((n) => n.includes('precache'))) {
      for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
    }
    const weights = await (await caches.open('webllm/model')).match('https://models.example/params_shard_0.bin');
    return { names, urls, weights: weights ? await weights.text() : null };
  });
  expect(cached.weights).toBe('weights');
  const js = readdirSync(resolve(DIST, 'assets')).filter((f) => f.endsWith('.js'));
  const workers = js.filter((f) => /^(game-agent|model)-/.test(f));
  expect(workers.length).toBeGreaterThan(0);
  for (const f of js) expect(cached.urls, f).toContain(`/assets/${f}`);
  expect(cached.urls).toContain('/index.html');
  // Harness pages (this build has them, AGENTCADE_LAB=1) and their entry chunks stay out.
  expect(cached.urls.filter((u) => u.startsWith('/tests/') || u.startsWith('/assets/lab/'))).toEqual([]);
});

test('after one visit the app loads with the network off, from the service worker', async ({ page, context }) => {
  await page.goto('/');
  await waitForControl(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page).toHaveTitle('机器人游戏厅');
    await expect(page.locator('h1')).toHaveText('机器人游戏厅');
    // a deep link falls back to the app shell
    await page.goto('/some/deep/link');
    await expect(page.locator('h1')).toHaveText('机器人游戏厅');
    expect(await page.evaluate(() => fetch('/manifest.webmanifest').then((r) => r.ok))).toBe(true);
  } finally {
    await context.setOffline(false);
  }
});

test('storage used and free is shown once the app is cached', async ({ page }) => {
  await page.goto('/');
  await waitForControl(page);
  await page.goto('/tests/lab/trace.html');
  await page.waitForSelector('body[data-ready="1"]');
  await expect(page.getByTestId('storage-used')).not.toHaveText('未知');
  await expect(page.getByTestId('storage-free')).toContainText(/B$/);
});

test('a new version is offered only when no game is running, and applied on request', async ({ page }) => {
  await page.goto('/tests/lab/trace.html?sw');
  await waitForControl(page);
  await page.reload(); // a returning visit: the page starts under the installed version
  await waitForControl(page);
  await page.getByTestId('game-running').check();
  await page.evaluate(async () => (await caches.open('webllm/wasm')).put('https://libs.example/model.wasm', new Response('wasm')));
  // A new version is deployed: the served sw.js changes (restored afterwards).
  const swPath = resolve(DIST, 'sw.js');
  const original = readFileSync(swPath, 'utf8');
  writeFileSync(swPath, `${original}\n// next version\n`);
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await page.waitForFunction(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting, null, { timeout: 60_000 });
    await expect(page.getByText('有新版本')).toHaveCount(0);
    await page.getByTestId('game-running').uncheck();
    await expect(page.getByText('有新版本')).toBeVisible();
    // Accepting activates the waiting version and reloads the page under it.
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.getByRole('button', { name: '现在更新' }).click()]);
    await page.waitForFunction(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return !r?.waiting && !!navigator.serviceWorker.controller;
    }, null, { timeout: 60_000 });
    await expect(page.getByText('有新版本')).toHaveCount(0);
    // the new version's activation cleaned old precaches, never WebLLM's
    expect(await page.evaluate(async () => (await (await caches.open('webllm/wasm')).match('https://libs.example/model.wasm'))?.text())).toBe('wasm');
  } finally {
    writeFileSync(swPath, original);
  }
});
