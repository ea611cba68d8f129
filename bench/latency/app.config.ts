/**
 * Playwright config of `bench/latency/run.ts --app` (bench/latency/app.bench.ts only): the e2e
 * tests' test build and preview server (playwright.config.ts) on the bench's own port.
 */
import { defineConfig } from '@playwright/test';
import base, { testBuildServer } from '../../playwright.config.ts';

const PORT = Number(process.env.E2E_PORT ?? 4190);

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'app.bench.ts',
  outputDir: '../../test-results/bench-latency-app',
  workers: 1,
  timeout: 3_600_000,
  use: { ...base.use, baseURL: `http://localhost:${PORT}` },
  webServer: testBuildServer(PORT),
});
