/**
 * Offline play in the real app: after one online visit, with the network off, the app
 * loads from the service worker and a whole game of 猜数字 is played through the text box with the
 * scripted (demo) model — the game worker and every chunk it loads come from the precache.
 */
import { expect, test, type Page } from '@playwright/test';
import { installSpeechFake } from './fakes/speech-fake.ts';
import { firstVisitWithDemo, spoken } from './support/child.ts';
import { enterPin, setUpAsParent } from './support/parent.ts';
import { DEFAULT_SEED, expectSeedsPinned, guessNumberSecrets, halvingGuesses } from './support/seeds.ts';

// The service worker registers here (playwright.config.ts blocks it by default): a game is played offline after one online visit.
test.use({ serviceWorkers: 'allow' });

// Every seed is pinned: 猜数字 thinks of SECRET (also after the offline reload: the fake starts again).
const [SECRET] = guessNumberSecrets(DEFAULT_SEED);

// A service worker install precaches ~9 MB on a shared, slow machine.
test.describe.configure({ timeout: 180_000 });


/** Sends `words` through the text box and returns what was said in answer (once it matches `pattern`). */
async function exchange(page: Page, words: string, pattern: RegExp): Promise<string> {
  await expect(page.getByTestId('mic-button')).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  const n = (await spoken(page)).length;
  await page.getByTestId('text-input').fill(words);
  await page.getByTestId('send').click();
  let heard = '';
  await expect
    .poll(async () => pattern.test((heard = (await spoken(page)).slice(n).join(''))), { timeout: 20_000 })
    .toBe(true);
  return heard;
}

test('after one online visit, a game of 猜数字 is played with the network off', async ({ page, context }, info) => {
  // First visit, online: the service worker installs and takes control; the demo model is chosen.
  await firstVisitWithDemo(page);

  const fromNetwork: string[] = [];
  await context.setOffline(true);
  try {
    // A request the page gave up (a worker started ahead for another game, stopped when this one
    // started) is aborted, not failed for want of a network.
    page.on('requestfailed', (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && fromNetwork.push(`${r.url()} ${r.failure()?.errorText}`));
    const served: { path: string; sw: boolean }[] = [];
    context.on('response', (r) => served.push({ path: new URL(r.url()).pathname, sw: r.fromServiceWorker() }));
    await page.reload();
    await page.waitForFunction(() => '__agentcade' in window);
    await expectSeedsPinned(page);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    // The saved choice of the demo model came back without the network.
    await expect(page.getByTestId('model-status')).toContainText('规则大脑');

    await exchange(page, '我们玩猜数字吧', /我想好了一个 1 到 100 的数字，你有 7 次机会/);
    await expect(page.getByTestId('current-game')).toContainText('猜数字');
    // Halve the range on every answer: the guesses for the pinned number, the last one right.
    const guesses = halvingGuesses(SECRET);
    for (const guess of guesses.slice(0, -1)) {
      expect(await exchange(page, `我猜${guess}`, /大了|小了|猜对|太棒啦/)).toContain(`${guess} ${guess > SECRET ? '大了' : '小了'}`);
    }
    const won = await exchange(page, `我猜${SECRET}`, /大了|小了|次就猜对了！/);
    expect(won).toContain(`太棒啦！就是 ${SECRET}！你用了 ${guesses.length} 次就猜对了！`);
    await expect(page.getByTestId('current-game')).toHaveCount(0);
    await page.screenshot({ path: info.outputPath('pwa-offline-won.png') });
    // Nothing was needed from the network (a failed request would show here), and the game
    // worker — first started offline — came from the service worker.
    expect(fromNetwork).toEqual([]);
    const worker = served.filter((r) => /\/assets\/game-agent-[^/]+\.js$/.test(r.path));
    expect(worker.length).toBeGreaterThan(0);
    expect(worker.every((r) => r.sw)).toBe(true);
    console.log(`offline: ${served.length} responses, ${served.filter((r) => r.sw).length} from the service worker`);
  } finally {
    await context.setOffline(false);
  }
});

test('设置: storage used and free, and whether the games work offline — honest for the brain chosen', async ({ page }, info) => {
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#settings');
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 60_000 });
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  await page.evaluate(() => (window as any).__agentcade.controller.chooseProvider('scripted'));
  const storage = page.getByTestId('storage-info');
  // The precached app shell counts (the line follows the service worker's install, no tap needed).
  await expect(storage.getByTestId('storage-used')).toContainText(/^\d+(\.\d)? [KMG]B$/);
  await expect(storage.getByTestId('storage-free')).toContainText(/\d( |\.\d )?[KMG]?B$/);
  // The demo brain with the app cached plays offline; this browser's recognition needs the network.
  const verdict = page.getByTestId('status-card').getByTestId('offline-ready');
  await expect(verdict).toHaveText('断网也能玩，但听不懂说话（要打字）');
  await expect(page.getByTestId('part-app')).toHaveText('应用已经存在这台设备上，断网也能打开。');
  await page.screenshot({ path: info.outputPath('settings-status.png'), fullPage: true });

  // Switching to the remote API on this screen: not ready until it has an address…
  await page.locator('input[name=provider][value=remote]').check();
  await expect(verdict).toHaveText('大脑还没准备好');
  await expect(page.getByTestId('part-brain')).toHaveText('家里的电脑还没准备好（还没填家里电脑的地址）。');
  // …and with one, nothing works offline, and it says so.
  await page.getByLabel('接口地址').fill('http://127.0.0.1:9/v1');
  await page.getByLabel('模型名称').fill('qwen2.5:1.5b');
  await page.getByRole('button', { name: '保存并使用' }).click();
  await expect(verdict).toHaveText('断网后不能玩：大脑要联网');
  await page.screenshot({ path: info.outputPath('settings-remote.png'), fullPage: true });
  // …and after a reload, with the remote API still chosen (the grown-up area asks for the PIN again).
  await page.reload();
  await enterPin(page);
  await expect(page.getByTestId('status-card').getByTestId('offline-ready')).toContainText('断网后不能玩');
  await page.locator('input[name=provider][value=scripted]').check();
  await expect(page.getByTestId('status-card').getByTestId('offline-ready')).toHaveText('断网也能玩，但听不懂说话（要打字）');
});
