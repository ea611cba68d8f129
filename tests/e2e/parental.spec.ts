/**
 * The grown-up gate in Chromium: the first run sets the parent PIN (and shows the recovery code);
 * the child's screen is the arcade alone and cannot reach 设置, 设计室 or 记录 — not by the nav, not
 * by the address — without the PIN; wrong PINs slow down; going back to the arcade and a few idle
 * minutes (a test clock) close the area; the recovery code sets a new PIN.
 */
import { expect, test } from '@playwright/test';
import { installSpeechFake } from './fakes/speech-fake.ts';
import { enterPin, openGrownUp, PARENT_PIN, setUpAsParent } from './support/parent.ts';
import { shootSizes } from './support/screens.ts';
import { type, waitSpoken } from './support/child.ts';

test('the first run sets the PIN; the child cannot reach the grown-up screens without it; the unlock expires', async ({ page }, info) => {
  await page.clock.install({ time: new Date('2025-03-03T10:00:00+08:00') });
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#arcade');

  // ── the first run: the arcade is not there until a parent has set a PIN ──
  await expect(page.getByTestId('first-run')).toBeVisible();
  await expect(page.getByTestId('arcade')).toHaveCount(0);
  await shootSizes(page, info, 'parental-1-first-run');
  // A PIN a child would guess first is refused at its first entry (not after typing it twice).
  for (const weak of ['1234', '0000', '123456']) {
    await page.getByTestId('setup-pin').fill(weak);
    await page.getByTestId('setup-pin-ok').click();
    await expect(page.getByTestId('setup-problem')).toContainText('太好猜');
    await expect(page.getByTestId('recovery-code')).toHaveCount(0);
  }
  await page.reload();
  // The recovery code and the play-time step, as the parent sees them.
  await page.getByTestId('setup-pin').fill('2580');
  await page.getByTestId('setup-pin-ok').click();
  await expect(page.getByTestId('recovery-code')).toBeVisible();
  await shootSizes(page, info, 'parental-1b-recovery-code');
  const code = (await page.getByTestId('recovery-code').textContent())!.trim();
  await page.getByTestId('recovery-next').click();
  await shootSizes(page, info, 'parental-1c-play-time');
  await page.getByTestId('bedtime-on').uncheck();
  await page.getByTestId('setup-done').click();
  expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  // No brain yet: the first run goes on to 选大脑, where the parent takes the demo script.
  await expect(page.getByTestId('brain-setup')).toBeVisible();
  await page.getByTestId('choose-demo').click();
  await page.getByTestId('brain-done').click();

  // ── the child's screen: the arcade, and a 家长 button that asks for the PIN ──
  await expect(page.getByTestId('arcade')).toBeVisible();
  for (const s of ['settings', 'studio', 'trace']) await expect(page.getByTestId(`nav-${s}`)).toHaveCount(0);
  await shootSizes(page, info, 'parental-2-child-screen');
  await page.getByTestId('nav-grown-up').click();
  await expect(page.getByTestId('grown-up-gate')).toBeVisible();
  await shootSizes(page, info, 'parental-3-gate');
  await enterPin(page, '9999');
  await expect(page.getByTestId('gate-message')).toContainText('密码不对');
  await expect(page.getByTestId('voice-settings')).toHaveCount(0);
  await page.getByTestId('gate-cancel').click();
  await expect(page.getByTestId('grown-up-gate')).toHaveCount(0);
  await expect(page.getByTestId('arcade')).toBeVisible();

  // The address does not open it either.
  await page.goto('/?e2e#settings');
  await expect(page.getByTestId('grown-up-gate')).toBeVisible();
  await expect(page.getByTestId('voice-settings')).toHaveCount(0);
  await enterPin(page);
  await expect(page.getByTestId('child-safety-settings')).toBeVisible();
  await expect(page.getByTestId('play-time-settings')).toBeVisible();
  await expect(page.getByTestId('privacy-settings')).toBeVisible();
  await expect(page.getByTestId('privacy-audio')).toHaveAttribute('data-leaves', 'no');
  await expect(page.getByTestId('privacy-brain')).toContainText('规则大脑');
  await expect(page.getByTestId('privacy-brain')).toHaveAttribute('data-leaves', 'no');
  for (const panel of ['child-safety-settings', 'play-time-settings', 'privacy-settings']) {
    await shootSizes(page, info, `parental-4-${panel}`, { target: page.getByTestId(panel) });
  }

  // Back to the arcade: the area is closed again.
  await page.getByTestId('nav-arcade').click();
  await expect(page.getByTestId('nav-settings')).toHaveCount(0);

  // ── the unlock ends after a few idle minutes (the test clock) ──
  await openGrownUp(page, 'trace');
  await expect(page.getByTestId('safety-log')).toBeVisible();
  await page.clock.fastForward('02:00');
  await page.mouse.click(5, 300); // a touch in the area keeps it open
  await page.clock.fastForward('02:30');
  await expect(page.getByTestId('safety-log')).toBeVisible();
  await page.clock.fastForward('03:10');
  await expect(page.getByTestId('safety-log')).toHaveCount(0);
  await expect(page.getByTestId('arcade')).toBeVisible();
  await expect(page.getByTestId('nav-trace')).toHaveCount(0);

  // The child plays on as before.
  await type(page, '你好');
  await waitSpoken(page, /我是小方/);
});

test('wrong PINs make the next try wait, never longer than the wait itself when the clock is turned back; the recovery code has its own back-off', async ({ page }, info) => {
  await page.clock.install({ time: new Date('2025-03-03T10:00:00+08:00') });
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#arcade');
  const code = await setUpAsParent(page);
  await page.getByTestId('nav-grown-up').click();
  for (let i = 0; i < 4; i++) await enterPin(page, '9999');
  await expect(page.getByTestId('gate-message')).toContainText('还可以再试 1 次');
  await enterPin(page, '9999');
  await expect(page.getByTestId('gate-message')).toContainText('再错一次');
  await enterPin(page, '9999');
  await expect(page.getByTestId('gate-wait')).toContainText('后再试');
  await expect(page.getByTestId('gate-pin')).toBeDisabled();
  // The device clock goes back an hour during the minute's wait: still at most a minute.
  await page.clock.setSystemTime(new Date('2025-03-03T09:00:10+08:00'));
  await page.clock.runFor(2000);
  await expect(page.getByTestId('gate-wait')).toHaveText(/请 (1 分钟|\d+ 秒)后再试/);
  await shootSizes(page, info, 'parental-4b-clock-back-wait');
  // Waiting is not undone by a reload, nor stretched by it.
  await page.reload();
  await page.getByTestId('nav-grown-up').click();
  await expect(page.getByTestId('gate-wait')).toHaveText(/请 (1 分钟|\d+ 秒)后再试/);
  await page.clock.fastForward('01:05');
  await expect(page.getByTestId('gate-pin')).toBeEnabled();
  // One more wrong PIN: two minutes. The recovery code is not blocked by the PIN's wait.
  await enterPin(page, '9999');
  await expect(page.getByTestId('gate-wait')).toBeVisible();

  // Forgot the PIN: the recovery code (typed loosely) and a new PIN.
  await page.getByTestId('gate-forgot').click();
  await expect(page.getByTestId('recover-wait')).toHaveCount(0);
  await page.getByTestId('recover-code').fill('AAAA-BBBB-CCCC');
  await page.getByTestId('recover-pin').fill('3691');
  await page.getByTestId('recover-pin2').fill('3691');
  await page.getByTestId('recover-ok').click();
  await expect(page.getByTestId('gate-message')).toContainText('恢复码不对');
  // A wrong code counts on the code's own tries (five before any wait), not the PIN's.
  await expect(page.getByTestId('recover-ok')).toBeEnabled();
  await page.getByTestId('recover-code').fill(code.toLowerCase().replace(/-/g, ' '));
  await page.getByTestId('recover-ok').click();
  const fresh = (await page.getByTestId('recovery-code').textContent())!.trim();
  expect(fresh).not.toBe(code);
  await shootSizes(page, info, 'parental-5-recovered');
  await page.getByTestId('recovery-next').click();
  await expect(page.getByTestId('child-safety-settings')).toBeVisible();
  // The old PIN no longer opens the area; the new one does.
  await page.getByTestId('nav-arcade').click();
  await page.getByTestId('nav-grown-up').click();
  await enterPin(page, PARENT_PIN);
  await expect(page.getByTestId('gate-message')).toContainText('密码不对');
  await enterPin(page, '3691');
  await expect(page.getByTestId('child-safety-settings')).toBeVisible();
});
