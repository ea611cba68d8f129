/**
 * The first screen by network measure: a fresh Chromium profile opens the built app and every
 * JavaScript file it fetches is counted (gzip of the bytes received) until the first screen is
 * interactive and the network has gone quiet — everything the app loads before anyone touches it.
 * Then each worker chunk is started in the same page, one at a time, and the JavaScript it fetches
 * is counted the same way. The service worker is blocked, so its precache (every chunk, in the
 * background) is not counted.
 *
 * Used by bench/bundle/run.ts (prints it) and tests/e2e/first-screen.spec.ts (fails above the budget).
 */
import type { Browser, Page, Request } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/** The budget of the first screen's JavaScript, gzip (KB = 1024 bytes). */
export const FIRST_SCREEN_BUDGET_KB = 170;

export interface Fetched {
  path: string;
  bytes: number;
  gzip: number;
}

export interface NetworkMeasure {
  firstScreen: { files: Fetched[]; bytes: number; gzip: number };
  workers: Array<{ entry: string; files: Fetched[]; bytes: number; gzip: number }>;
}

const isScript = (r: Request) => r.resourceType() === 'script' || /\.m?js(\?|$)/.test(new URL(r.url()).pathname);

/** Collects the scripts the context requests from now on, with their bodies' sizes. */
function collector(page: Page) {
  const pending = new Map<Request, Promise<Fetched | null>>();
  const listen = (r: Request) => {
    if (!isScript(r)) return;
    pending.set(
      r,
      (async () => {
        const res = await r.response().catch(() => null);
        const body = res ? await res.body().catch(() => null) : null;
        return body ? { path: new URL(r.url()).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length } : null;
      })(),
    );
  };
  page.context().on('request', listen);
  return {
    /** What was requested since the start (or the last take), once every response has arrived. */
    async take(): Promise<Fetched[]> {
      const all = await Promise.all(pending.values());
      pending.clear();
      const byPath = new Map<string, Fetched>();
      for (const f of all) if (f) byPath.set(f.path, f);
      return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path));
    },
    stop: () => page.context().off('request', listen),
  };
}

const total = (files: Fetched[]) => ({ files, bytes: files.reduce((n, f) => n + f.bytes, 0), gzip: files.reduce((n, f) => n + f.gzip, 0) });

/**
 * Opens `baseURL` in a fresh profile, waits for the first screen (`ready`: resolves once it is
 * interactive) and a quiet network, then starts each of `workerEntries` (paths in the build).
 */
export async function measureByNetwork(browser: Browser, baseURL: string, ready: (page: Page) => Promise<void>, workerEntries: string[] = []): Promise<NetworkMeasure> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const seen = collector(page);
    await page.goto('/');
    await ready(page);
    await page.waitForLoadState('networkidle');
    const firstScreen = total(await seen.take());
    const workers: NetworkMeasure['workers'] = [];
    for (const entry of workerEntries) {
      const started = page.waitForEvent('worker');
      await page.evaluate((url) => {
        const w = new Worker(url, { type: 'module' });
        (globalThis as { __measuredWorkers?: Worker[] }).__measuredWorkers = [...((globalThis as { __measuredWorkers?: Worker[] }).__measuredWorkers ?? []), w];
      }, `/${entry}`);
      // Once the worker evaluates a script, its module and every static import of it have loaded.
      await (await started).evaluate(() => true);
      workers.push({ entry, ...total(await seen.take()) });
    }
    seen.stop();
    return { firstScreen, workers };
  } finally {
    await context.close();
  }
}

/** The first run's first screen: the parent's PIN field, ready to type into. */
export async function pinFieldReady(page: Page): Promise<void> {
  await page.getByTestId('setup-pin').waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForFunction(() => {
    const input = document.querySelector<HTMLInputElement>('[data-testid="setup-pin"]');
    return !!input && !input.disabled && !input.readOnly;
  });
}
