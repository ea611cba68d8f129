/**
 * Playwright config of bench/start/start.bench.ts (not part of the e2e suite): the e2e tests' test
 * build and preview server (playwright.config.ts) on the bench's own port (E2E_PORT).
 */
import { defineConfig } from '@playwright/test';
import base, { testBuildServer } from '../../playwright.config.ts';

const PORT = Number(process.env.E2E_PORT ?? 4191);

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'start.bench.ts',
  outputDir: '../../test-results/bench-start',
  workers: 1,
  retries: 0,
  timeout: 900_000,
  use: { ...base.use, baseURL: `http://localhost:${PORT}` },
  webServer: testBuildServer(PORT),
});
