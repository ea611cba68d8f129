/**
 * Play time in Chromium with a test clock (Playwright's clock at the browser API boundary: Date,
 * timers and performance.now): a daily limit — warned once five minutes before, the running game
 * ended gently with its answer told, "明天见", a calm locked screen that survives a reload and the
 * device clock turned back, open again the next day; bedtime — warned, ended, locked until morning,
 * a parent's 15 more minutes with the PIN.
 */
import { expect, test, type Page } from '@playwright/test';
import { idle, openApp, spoken, type, waitSpoken } from './support/child.ts';
import { enterPin, openGrownUp } from './support/parent.ts';
import { shootSizes } from './support/screens.ts';
import { DEFAULT_SEED, guessNumberSecrets } from './support/seeds.ts';

test.use({ timezoneId: 'Asia/Shanghai' });

const [SECRET] = guessNumberSecrets(DEFAULT_SEED);

/** What the robot says from now on while `act` runs (pieces joined), once it matches `pattern`. */
async function heard(page: Page, pattern: RegExp, act: () => Promise<void>): Promise<string> {
  const n = (await spoken(page)).length;
  await act();
  return waitSpoken(page, pattern, n);
}

async function startGuessNumber(page: Page): Promise<void> {
  await heard(page, /我想好了一个 1 到 100 的数字/, () => type(page, '我们玩猜数字吧'));
  await idle(page);
}

test('the daily limit: warned once, the game ended with its answer told, locked until the next day — the clock turned back does not reset it', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.clock.install({ time: new Date('2025-03-03T10:00:00+08:00') });
  await openApp(page);
  await startGuessNumber(page);

  // 24 minutes into the game (30 a day): nothing said yet.
  const quiet = (await spoken(page)).length;
  await page.clock.fastForward('24:00');
  await page.clock.fastForward('00:06');
  expect((await spoken(page)).slice(quiet).join('')).not.toContain('五分钟');
  // 26 minutes: the warning, once.
  await heard(page, /还可以玩五分钟哦/, () => page.clock.fastForward('02:00'));
  await idle(page);
  const guess = await heard(page, /50 (大|小)了|就是 50/, () => type(page, '我猜50'));
  expect(guess).not.toContain('五分钟');
  await idle(page);
  const before = (await spoken(page)).length;
  await page.clock.fastForward('01:00');
  await page.clock.fastForward('00:06');
  expect((await spoken(page)).slice(before).join('')).not.toContain('五分钟');

  // 30 minutes: the game ends through its own end (the answer is told), then a goodbye without guilt.
  const end = await heard(page, /明天见/, () => page.clock.fastForward('03:00'));
  expect(end).toContain(`答案是 ${SECRET}`);
  expect(end).toContain('今天的游戏时间用完啦，休息一下眼睛和耳朵，我们明天见！');
  expect(end.indexOf(`答案是 ${SECRET}`)).toBeLessThan(end.indexOf('明天见'));
  const locked = page.getByTestId('locked-screen');
  await expect(locked).toHaveAttribute('data-reason', 'limit');
  await expect(locked).toContainText('今天玩够啦，明天见！');
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await shootSizes(page, info, 'play-time-locked');
  // Words (typed or heard) start nothing on the locked screen.
  expect(await page.evaluate(() => (window as any).__agentcade.agent.handle('我们玩猜数字吧'))).toMatchObject({ route: 'locked', modelCalls: 0 });

  // A reload keeps it (IndexedDB).
  await page.reload();
  await expect(page.getByTestId('locked-screen')).toHaveAttribute('data-reason', 'limit');
  // The device clock turned back a day: still today, still locked.
  await page.clock.setSystemTime(new Date('2025-03-02T10:40:00+08:00'));
  await page.reload();
  await expect(page.getByTestId('locked-screen')).toHaveAttribute('data-reason', 'limit');
  await page.clock.fastForward('00:10');
  await expect(page.getByTestId('locked-screen')).toBeVisible();
  // The parent sees why (and could take the device clock as right).
  await page.getByTestId('locked-parent').click();
  await enterPin(page);
  await page.getByRole('button', { name: '去设置' }).click();
  await expect(page.getByTestId('clock-behind')).toBeVisible();
  await expect(page.getByTestId('play-used')).toContainText('今天已经玩了 30 分钟');
  await page.getByTestId('nav-arcade').click();

  // The next morning it is open again, from zero.
  await page.clock.setSystemTime(new Date('2025-03-04T08:00:00+08:00'));
  await page.clock.fastForward('00:06');
  await expect(page.getByTestId('locked-screen')).toHaveCount(0);
  await startGuessNumber(page);
  await openGrownUp(page, 'settings');
  await expect(page.getByTestId('play-used')).toContainText('今天已经玩了 0 分钟');
});

test('bedtime: warned, ended at its start, locked until the morning; a parent may give 15 more minutes', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.clock.install({ time: new Date('2025-03-03T20:20:00+08:00') });
  await openApp(page, { setup: { bedtime: true } });
  await startGuessNumber(page);
  await heard(page, /快到睡觉时间啦/, () => page.clock.fastForward('06:00'));
  await idle(page);
  const end = await heard(page, /晚安，明天见/, () => page.clock.fastForward('05:00'));
  expect(end).toContain(`答案是 ${SECRET}`);
  const locked = page.getByTestId('locked-screen');
  await expect(locked).toHaveAttribute('data-reason', 'bedtime');
  await expect(locked).toContainText('早上 7:00 以后再来玩');
  await shootSizes(page, info, 'play-time-bedtime');

  // A parent, with the PIN: 15 more minutes.
  await page.getByTestId('locked-parent').click();
  await enterPin(page);
  await page.getByTestId('grant-more').click();
  await expect(locked).toHaveCount(0);
  await expect(page.getByTestId('nav-settings')).toHaveCount(0);
  await heard(page, /我是小方/, () => type(page, '你好'));
  await idle(page);
  await page.clock.fastForward('16:00');
  await expect(page.getByTestId('locked-screen')).toHaveAttribute('data-reason', 'bedtime');

  // The clock turned back to the afternoon: still bedtime.
  await page.clock.setSystemTime(new Date('2025-03-03T15:00:00+08:00'));
  await page.reload();
  await expect(page.getByTestId('locked-screen')).toHaveAttribute('data-reason', 'bedtime');
  // Seven in the morning: open.
  await page.clock.setSystemTime(new Date('2025-03-04T07:01:00+08:00'));
  await page.clock.fastForward('00:06');
  await expect(page.getByTestId('locked-screen')).toHaveCount(0);
});

test('bedtime during a chat (no game): the warning and the goodnight are said too', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.clock.install({ time: new Date('2025-03-03T20:20:00+08:00') });
  await openApp(page, { setup: { bedtime: true } });
  // A chat with pauses longer than a minute between rounds.
  await heard(page, /我是小方/, () => type(page, '你好'));
  await idle(page);
  await page.clock.runFor(180_000);
  await heard(page, /./, () => type(page, '你喜欢什么颜色'));
  await idle(page);
  await heard(page, /快到睡觉时间啦/, () => page.clock.runFor(180_000));
  await idle(page);
  await page.clock.runFor(120_000);
  await heard(page, /./, () => type(page, '你好呀'));
  await idle(page);
  await heard(page, /该睡觉啦，晚安，明天见/, () => page.clock.runFor(150_000));
  await expect(page.getByTestId('locked-screen')).toHaveAttribute('data-reason', 'bedtime');
  await shootSizes(page, info, 'play-time-bedtime-chat');
});

test('a first run inside bedtime says so while setting up', async ({ page }, info) => {
  await page.clock.install({ time: new Date('2025-03-03T21:10:00+08:00') });
  await page.goto('/?e2e#arcade');
  await page.getByTestId('setup-pin').fill('2580');
  await page.getByTestId('setup-pin-ok').click();
  await page.getByTestId('recovery-next').click();
  await expect(page.getByTestId('setup-bedtime')).toContainText('现在是睡觉时间（20:30 到 7:00）');
  await shootSizes(page, info, 'play-time-first-run-bedtime', { target: page.getByTestId('setup-bedtime') });
  // Bedtime turned off here: the note goes.
  await page.getByTestId('bedtime-on').uncheck();
  await expect(page.getByTestId('setup-bedtime')).toHaveCount(0);
});

test('记录 shows how long the child played: yesterday on top, today and the seven days before as bars per game', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.clock.install({ time: new Date('2025-03-03T10:00:00+08:00') });
  await openApp(page);
  // The days before, as the app kept them (play time by day and game).
  await page.evaluate(async () => {
    const db: IDBDatabase = await new Promise((ok, no) => {
      const r = indexedDB.open('agentcade-parental');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(r.error);
    });
    const m = 60_000;
    const history = { '2025-02-25': { chat: 4 * m }, '2025-02-27': { 'guess-number': 12 * m, chat: 3 * m }, '2025-03-01': { 'draw-guess': 18 * m }, '2025-03-02': { 'guess-number': 20 * m, chat: 5 * m } };
    await new Promise((ok) => {
      const tx = db.transaction('kv', 'readwrite');
      tx.objectStore('kv').put(history, 'history');
      tx.oncomplete = ok;
    });
    db.close();
  });
  await page.reload();
  // Today: three minutes of 猜数字, counted as it is played.
  await startGuessNumber(page);
  await page.clock.runFor(180_000);
  await openGrownUp(page, 'trace');
  const chart = page.getByTestId('play-time-chart');
  await expect(chart.getByTestId('play-yesterday')).toHaveText('昨天一共玩了 25 分钟');
  await expect(chart.getByTestId('play-day')).toHaveCount(8);
  await expect(chart.getByTestId('play-day').last()).toHaveAttribute('data-day', '2025-03-03');
  expect(Number(await chart.getByTestId('play-day').last().getAttribute('data-ms'))).toBeGreaterThanOrEqual(180_000);
  await expect(chart.getByTestId('play-today')).toContainText(/今天到现在：[34] 分钟/);
  await expect(chart.getByTestId('play-game').first()).toContainText(/猜数字：3[5-6] 分钟/);
  await expect(chart).toContainText('聊天：12 分钟');
  await expect(page.getByTestId('round-duration').first()).toContainText('机器人回答用了');
  await shootSizes(page, info, 'trace-play-time', { target: chart });
});
