import { defineConfig } from '@playwright/test';

// E2E_PORT lets several runs coexist on one machine (each builds into its own folder).
const PORT = Number(process.env.E2E_PORT ?? 4173);

/**
 * The test build served on `port`: built into its own folder, then previewed. AGENTCADE_LAB=1: this
 * build also has the harness pages (tests/lab/*.html); the app's own build does not. The benches that
 * play the real app (bench/latency --app, bench/start) serve it the same way on their own port.
 */
export function testBuildServer(port: number) {
  const out = `.cache/dist-${port}`;
  return {
    command: `npx vite build --logLevel warn --outDir ${out} && npx vite preview --outDir ${out} --port ${port} --strictPort`,
    cwd: import.meta.dirname,
    env: { AGENTCADE_LAB: '1' },
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
  };
}

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
  webServer: testBuildServer(PORT),
});
