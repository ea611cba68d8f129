import { expect, test, type Page } from '@playwright/test';
import type { SpeechFakeOptions } from './fakes/speech-fake.ts';
import { idle, openApp, say, spoken, type, waitSpoken } from './support/child.ts';

const open = (page: Page, speech: SpeechFakeOptions = {}) => openApp(page, { speech });

test('a child says "我们玩猜数字吧", plays, and says "不玩了"', async ({ page }, info) => {
  await open(page);
  await page.screenshot({ path: info.outputPath('arcade-idle.png') });

  await say(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了一个 1 到 100 的数字/);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
  await expect(page.getByTestId('subtitles')).toContainText('我们玩猜数字吧');
  // The round is over once the first reply is spoken: the mic can listen again.
  await idle(page);

  let n = (await spoken(page)).length;
  await say(page, '我猜50');
  await waitSpoken(page, /(大|小)|猜对/, n);
  await idle(page);
  await page.screenshot({ path: info.outputPath('arcade-playing.png') });

  n = (await spoken(page)).length;
  await say(page, '不玩了');
  await waitSpoken(page, /./, n);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  // Each side's words are on screen as subtitles.
  await expect(page.locator('[data-who=child]')).toHaveCount(3);
  await expect(page.locator('[data-who=game]').first()).toBeVisible();
});

test('chat while idle: the main agent answers itself, no game starts', async ({ page }) => {
  await open(page);
  await say(page, '你好');
  await waitSpoken(page, /你好呀！我是小方/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  // "再说一遍" repeats the last sentence verbatim.
  await idle(page);
  await type(page, '再说一遍');
  const robot = page.locator('[data-who=robot]');
  await expect(robot).toHaveCount(2);
  expect(await robot.nth(1).textContent()).toBe(await robot.nth(0).textContent());
  await expect(robot.nth(1)).toContainText('你好呀！我是小方');
});

test('a message while the game is still busy gets "请稍等"', async ({ page }) => {
  await open(page);
  // Slow every model step so the game is still drawing after its first sentence.
  await page.evaluate(() => ((window as any).__agentcade.hub.delayMs = 1500));
  await type(page, '我们玩你画我猜吧');
  await waitSpoken(page, /我来画一个小动物/);
  await expect(page.getByTestId('current-game')).toContainText('游戏在想');
  await type(page, '是小猫吗');
  await waitSpoken(page, /请稍等/);
  // The game was not interrupted: its question still comes.
  await waitSpoken(page, /这是什么动物/);
  await expect(page.getByTestId('current-game')).not.toContainText('游戏在想');
});

test('a game worker killed mid-turn: a spoken error, and the app keeps working', async ({ page }) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await page.evaluate(() => ((window as any).__agentcade.hub.delayMs = 2000));
  await type(page, '我猜50');
  await expect(page.getByTestId('current-game')).toContainText('游戏在想');
  expect(await page.evaluate(() => (window as any).__agentcade.killGameWorker('guess-number'))).toBe(true);
  await waitSpoken(page, /游戏突然停下来了/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await page.evaluate(() => ((window as any).__agentcade.hub.delayMs = 0));
  // Still working: chat, and a fresh game.
  const n = (await spoken(page)).length;
  await type(page, '你好');
  await waitSpoken(page, /你好呀/, n);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/, n + 1);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});

test('tap a game card to play; tap anywhere stops the talking', async ({ page }) => {
  await open(page, { msPerChar: 400 });
  await page.locator('[data-testid=game-card][data-game=guess-number]').click();
  await expect(page.getByTestId('speaking-now')).toContainText('我想好了');
  const cancels = await page.evaluate(() => (window as any).__speech.cancels);
  await page.getByTestId('subtitles').click();
  await expect.poll(() => page.evaluate(() => (window as any).__speech.cancels)).toBeGreaterThan(cancels);
  await expect(page.getByTestId('speaking-now')).toHaveCount(0);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});

test('no Chinese voice and a denied mic: clear messages, subtitles and the text box still work', async ({ page }, info) => {
  await open(page, { voices: 'none', micDenied: true });
  await expect(page.getByTestId('voice-status')).toContainText('无中文语音');
  await page.getByTestId('mic-button').click();
  await expect(page.getByTestId('speech-note')).toContainText('麦克风没有被允许');
  await expect(page.getByTestId('speech-note')).toContainText('字幕');
  await type(page, '你好');
  await expect(page.getByTestId('subtitles')).toContainText('你好呀！我是小方');
  await page.screenshot({ path: info.outputPath('arcade-no-voice.png') });
});

test('screens: settings and trace', async ({ page }, info) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('voice-settings')).toBeVisible();
  await page.screenshot({ path: info.outputPath('settings.png'), fullPage: true });
  await page.getByTestId('nav-trace').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: info.outputPath('trace.png') });
  await page.getByTestId('nav-studio').click();
  await page.screenshot({ path: info.outputPath('studio.png') });
  await page.getByTestId('nav-arcade').click();
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});
