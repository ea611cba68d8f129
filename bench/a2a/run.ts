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
import { benchArg, buildLab, launchChromium, serveLab } from '../lab-browser.ts';

const args = process.argv.slice(2);
const N = Number(benchArg(args, 'n', '500'));
const PORT = Number(benchArg(args, 'port', '4182'));
const DIST = benchArg(args, 'dist', '.cache/dist-bench-a2a');
const PAGE = 'tests/lab/a2a-bench.html';

buildLab(args, DIST, PAGE);
const server = await serveLab(DIST, PORT, PAGE);
try {
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(server.url(PAGE));
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
  server.stop();
}
