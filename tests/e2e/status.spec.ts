/**
 * Honest status, part by part, in the header's line and in 设置 → 现在的状态: with the demo brain,
 * after one online visit, the network off and the page reloaded from the service worker — with
 * recognition on this device (a fake that reports the on-device language pack) both say 「可以离线
 * 游戏」; with the browser's recognition service (a fake that reports no on-device pack, as Chrome's
 * webkitSpeechRecognition does without one) they say listening needs the network, and offline that
 * it cannot listen now — never 「可以离线游戏」.
 */
import { expect, test, type Page } from '@playwright/test';
import { installSpeechFake, type SpeechFakeOptions } from './fakes/speech-fake.ts';
import { firstVisitWithDemo } from './support/child.ts';
import { openGrownUp, setUpAsParent } from './support/parent.ts';

// The service worker registers here (playwright.config.ts blocks it by default): the status says whether the installed app plays offline.
test.use({ serviceWorkers: 'allow' });

// A service worker install precaches ~9 MB on a shared, slow machine.
test.describe.configure({ timeout: 180_000 });

/** One online visit with the demo brain chosen, then the network off and a reload from the service worker. */
async function visitThenOffline(page: Page, speech: SpeechFakeOptions): Promise<void> {
  await firstVisitWithDemo(page, speech);
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
}

test('demo brain, offline after one visit, listening on this device: the header and 设置 say 可以离线游戏', async ({ page }, info) => {
  await visitThenOffline(page, { recognition: 'on-device' });
  try {
    await expect(page.getByTestId('model-status')).toHaveText('大脑：规则大脑');
    await expect(page.getByTestId('mic-status')).toHaveText('听：在本机');
    await expect(page.getByTestId('voice-status')).toHaveText('说：测试普通话');
    await expect(page.getByTestId('offline-status')).toHaveText('可以离线游戏');
    await page.screenshot({ path: info.outputPath('status-offline-header.png') });
    await openGrownUp(page, 'settings');
    const card = page.getByTestId('status-card');
    await expect(card.getByTestId('offline-ready')).toHaveText('可以离线游戏');
    await expect(card.getByTestId('part-app')).toHaveText('应用已经存在这台设备上，断网也能打开。');
    await expect(card.getByTestId('part-brain')).toHaveText('规则大脑，断网也能用（按游戏规则马上回答，聊天用固定的句子）。');
    await expect(card.getByTestId('part-listening')).toHaveText('在这台设备上听懂说话，断网也能听。');
    await expect(card.getByTestId('part-speaking')).toHaveText('用「测试普通话」说话，这个声音在本机，断网也能说。');
    await expect(card.getByTestId('part-robot')).toContainText('屏幕上的机器人');
    await page.screenshot({ path: info.outputPath('status-offline-settings.png'), fullPage: true });
  } finally {
    await page.context().setOffline(false);
  }
});

test('a recognizer that needs the network: the status says so, and offline it cannot listen — never 可以离线游戏', async ({ page }, info) => {
  await visitThenOffline(page, { recognition: 'network' });
  try {
    await expect(page.getByTestId('mic-status')).toHaveText('听：断网了（请打字）');
    await expect(page.getByTestId('offline-status')).toHaveText('断网也能玩，但听不懂说话（要打字）');
    await openGrownUp(page, 'settings');
    const card = page.getByTestId('status-card');
    await expect(card.getByTestId('part-listening')).toHaveText('听懂说话要用浏览器的联网服务，现在断网了，请打字。');
    await expect(card.getByTestId('part-listening')).toHaveAttribute('data-ok', 'false');
    await expect(card.getByTestId('offline-ready')).not.toContainText('可以离线游戏');
    await page.screenshot({ path: info.outputPath('status-network-asr-offline.png'), fullPage: true });
  } finally {
    await page.context().setOffline(false);
  }
  // Back online: it listens, and still says it needs the network.
  await expect(page.getByTestId('status-card').getByTestId('part-listening')).toHaveText('听懂说话要用浏览器的联网服务：断网后听不懂，要打字。');
  await expect(page.getByTestId('mic-status')).toHaveText('听：要联网');
});

test('a browser with no speech recognition at all: 听：不能（请打字）', async ({ page }) => {
  await page.addInitScript(installSpeechFake, { recognition: 'none' } as SpeechFakeOptions);
  await page.goto('/?e2e#settings');
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  await expect(page.getByTestId('mic-status')).toHaveText('听：不能（请打字）');
  await expect(page.getByTestId('part-listening')).toHaveText('这个浏览器听不懂说话，请在游戏厅的文字框里打字。');
});
