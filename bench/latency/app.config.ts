/**
 * Playwright config of `bench/latency/run.ts --app` (bench/latency/app.bench.ts only): the e2e
 * tests' test build and preview server (playwright.config.ts) on the bench's own port.
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

const PORT = Number(process.env.E2E_PORT ?? 4190);
const OUT = `.cache/dist-${PORT}`;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'app.bench.ts',
  outputDir: '../../test-results/bench-latency-app',
  workers: 1,
  timeout: 3_600_000,
  use: { ...base.use, baseURL: `http://localhost:${PORT}` },
  webServer: {
    ...(base.webServer as object),
    command: `npx vite build --logLevel warn --outDir ${OUT} && npx vite preview --outDir ${OUT} --port ${PORT} --strictPort`,
    cwd: resolve(import.meta.dirname, '../..'),
    url: `http://localhost:${PORT}`,
  },
});
