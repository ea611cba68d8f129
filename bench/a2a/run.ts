/**
 * A2A transport benchmark (not a test): request → first reply latency through the full transport
 * vs a raw postMessage round trip, measured in Chromium on tests/lab/a2a-bench.html.
 *
 *   npx tsx bench/a2a/run.ts [--n 500] [--port 4182] [--dist .cache/dist-bench-a2a] [--no-build]
 *
 * Builds the app with its harness pages (AGENTCADE_LAB=1) into its own folder (unless --no-build and
 * the folder holds the bench page), serves it with
 * `vite preview`, drives Debian's Chromium with playwright-core and prints p50/p95 and their ratio.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const N = Number(arg('n', '500'));
const PORT = Number(arg('port', '4182'));
const DIST = arg('dist', '.cache/dist-bench-a2a');
const root = resolve(import.meta.dirname, '../..');

if (!args.includes('--no-build') || !existsSync(resolve(root, DIST, 'tests/lab/a2a-bench.html'))) {
  console.log(`building into ${DIST} …`);
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', DIST], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, AGENTCADE_LAB: '1' },
  });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const server = spawn('npx', ['vite', 'preview', '--outDir', DIST, '--port', String(PORT), '--strictPort'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stop);

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the preview server did not answer at ${url}`);
}

const url = `http://localhost:${PORT}/tests/lab/a2a-bench.html`;
try {
  await waitForServer(url);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-first-run', '--disable-background-networking'] });
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => 'runA2ABench' in window);
  type Stats = { n: number; p50: number; p95: number; mean: number };
  const result = (await page.evaluate(
    (n) => (window as unknown as { runA2ABench(n: number): Promise<unknown> }).runA2ABench(n),
    N,
  )) as { a2a: Stats; raw: Stats; ratioP50: number; ratioP95: number };
  const version = browser.version();
  await browser.close();
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  console.log(`\nA2A request → first reply, ${N} rounds each, interleaved (Chromium ${version})`);
  console.log(`  full transport (SDK Client → MessagePort → SDK server in a Worker → reply)  p50 ${ms(result.a2a.p50)}  p95 ${ms(result.a2a.p95)}  mean ${ms(result.a2a.mean)}`);
  console.log(`  raw postMessage round trip (same GameInput, same Worker)                    p50 ${ms(result.raw.p50)}  p95 ${ms(result.raw.p95)}  mean ${ms(result.raw.mean)}`);
  console.log(`  ratio  p50 ×${result.ratioP50.toFixed(1)}   p95 ×${result.ratioP95.toFixed(1)}`);
} finally {
  stop();
}
