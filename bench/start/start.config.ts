/**
 * Playwright config of bench/start/start.bench.ts (not part of the e2e suite): the e2e tests' test
 * build and preview server (playwright.config.ts) on the bench's own port (E2E_PORT).
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

const PORT = Number(process.env.E2E_PORT ?? 4191);
const OUT = `.cache/dist-${PORT}`;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'start.bench.ts',
  outputDir: '../../test-results/bench-start',
  workers: 1,
  retries: 0,
  timeout: 900_000,
  use: { ...base.use, baseURL: `http://localhost:${PORT}` },
  webServer: {
    ...(base.webServer as object),
    command: `npx vite build --logLevel warn --outDir ${OUT} && npx vite preview --outDir ${OUT} --port ${PORT} --strictPort`,
    cwd: resolve(import.meta.dirname, '../..'),
    url: `http://localhost:${PORT}`,
  },
});
