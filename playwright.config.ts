import { defineConfig } from '@playwright/test';

// E2E_PORT lets several runs coexist on one machine (each builds into its own folder).
const PORT = Number(process.env.E2E_PORT ?? 4173);

/** The test build's folder for `port`. AGENTCADE_LAB=1: this build also has the harness pages (tests/lab/*.html); the app's own build does not. */
export const testBuildDir = (port: number) => `.cache/dist-${port}`;

/**
 * The test build served on `port`: built into its own folder, then previewed. `prebuilt`: the folder
 * was just built by the caller (scripts/test.sh builds it in the background while the one-core steps
 * run), so it is only previewed. The benches that play the real app (bench/latency --app, bench/start)
 * serve it the same way on their own port.
 */
export function testBuildServer(port: number, prebuilt = false) {
  const out = testBuildDir(port);
  const build = `npx vite build --logLevel warn --outDir ${out} && `;
  return {
    command: `${prebuilt ? '' : build}npx vite preview --outDir ${out} --port ${port} --strictPort`,
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
    // A fresh context per test would install the service worker and precache the whole app (≈ 28 MB)
    // each time, beside the test, on the same two cores. Only the specs about the installed app, its
    // offline play and what the status says of it let it register (test.use({ serviceWorkers: 'allow' })).
    serviceWorkers: 'block',
  },
  // E2E_PREBUILT=1 (scripts/test.sh only): the test build in .cache/dist-<port> was made by this same run.
  webServer: testBuildServer(PORT, process.env.E2E_PREBUILT === '1'),
});
