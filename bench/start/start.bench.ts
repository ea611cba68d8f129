/**
 * `E2E_PORT=4191 npx playwright test -c bench/start/start.config.ts [--reporter line]` (REPEATS=5 to change the repeats)
 *
 * A game's start right after the app opens, in the real app (the test build, Debian Chromium, the
 * rules brain, the speech fake): a tapped 猜数字 card → the first line handed to speech, timed in
 * the page (a capture listener on the card, the speech fake's startedAt). Side by side in one run,
 * alternating, each on a freshly loaded page that has been idle for the same time before the tap:
 * - before: `?warm-ahead=off` (the test build's developer switch): the worker starts at the tap;
 * - after: the app as it ships: the likely next game's worker (the game played last, 猜数字 here)
 *   was started while the arcade was idle (src/ui/warm-ahead.ts).
 */
import { test } from '@playwright/test';
import { installSpeechFake } from '../../tests/e2e/fakes/speech-fake.ts';
import { DEFAULT_SEED, pinSeeds } from '../../tests/e2e/support/seeds.ts';
import { setUpAsParent } from '../../tests/e2e/support/parent.ts';
import { type } from '../../tests/e2e/support/child.ts';
import { percentile } from '../latency/simulate.ts';
import type { Page } from '@playwright/test';

const REPEATS = Number(process.env.REPEATS ?? 5);
const IDLE_MS = 4000;

interface StartWindow {
  __tap: number[];
  __speech: { startedAt: Array<{ text: string; at: number }> };
}

async function startOnce(page: Page, query: string): Promise<number> {
  await page.goto(`/?e2e${query}#arcade`);
  await page.waitForFunction(() => '__agentcade' in window);
  await page.evaluate(() => {
    const w = window as unknown as StartWindow;
    w.__tap = [];
    document.addEventListener('click', (e) => {
      if ((e.target as Element | null)?.closest?.('[data-testid=game-card]')) w.__tap.push(Date.now());
    }, true);
  });
  await page.waitForTimeout(IDLE_MS);
  const before = await page.evaluate(() => (window as unknown as StartWindow).__speech.startedAt.length);
  await page.locator('[data-testid=game-card][data-game=guess-number]').click();
  await page.waitForFunction((n) => (window as unknown as StartWindow).__speech.startedAt.length > n, before, { timeout: 120_000 });
  const { tap, line } = await page.evaluate((n) => {
    const w = window as unknown as StartWindow;
    return { tap: w.__tap[0], line: w.__speech.startedAt[n].at };
  }, before);
  // Ended before the next load (a session left open is ended at the next start, with a line).
  await page.getByTestId('current-game').waitFor();
  await type(page, '不玩了');
  await page.getByTestId('current-game').waitFor({ state: 'detached', timeout: 60_000 });
  return (line - tap) / 1000;
}

test('a start right after the app opens: first words, before and after the worker is started ahead', async ({ page }) => {
  await page.addInitScript(installSpeechFake, { msPerChar: 2 });
  await pinSeeds(page, [DEFAULT_SEED]);
  await page.goto('/?e2e#arcade');
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  // The child played 猜数字 last time.
  await page.evaluate(() => localStorage.setItem('agentcade-last-game', 'guess-number'));
  const runs = { before: [] as number[], after: [] as number[] };
  for (let r = 0; r < REPEATS; r++) {
    runs.before.push(await startOnce(page, '&warm-ahead=off'));
    runs.after.push(await startOnce(page, ''));
  }
  const p50 = (xs: number[]) => percentile(xs, 50);
  console.log(`\n# 刚打开应用就点「猜数字」：点卡片 → 第一句话（真实应用，测试构建，规则大脑，本机 Chromium，与其他任务共用 2 核）`);
  console.log('variant | runs (s) | p50 (s)');
  for (const [k, xs] of Object.entries(runs)) console.log(`${k} | ${xs.map((x) => x.toFixed(2)).join(' ')} | ${p50(xs).toFixed(2)}`);
  console.log(`after / before (p50), side by side in this run: ×${(p50(runs.after) / p50(runs.before)).toFixed(2)}`);
  console.log(JSON.stringify({ startFirstWordsS: { before: p50(runs.before), after: p50(runs.after) }, runs }));
});
