import { defineConfig } from '@playwright/test';

// E2E_PORT lets several runs coexist on one machine (each builds into its own folder).
const PORT = Number(process.env.E2E_PORT ?? 4173);
const OUT = `.cache/dist-${PORT}`;

// Real Chromium from Debian; speech and serial are faked at the browser API boundary by init scripts.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  // Generous: two Chromium workers share two cores with the preview server; waits end as soon as the state shows.
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    viewport: { width: 1180, height: 820 },
    locale: 'zh-CN',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    },
    screenshot: 'only-on-failure',
  },
  webServer: {
    // AGENTCADE_LAB=1: this build also has the harness pages (tests/lab/*.html); the app's own build does not.
    command: `npx vite build --logLevel warn --outDir ${OUT} && npx vite preview --outDir ${OUT} --port ${PORT} --strictPort`,
    env: { AGENTCADE_LAB: '1' },
    url: `http://localhost:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
  },
});
