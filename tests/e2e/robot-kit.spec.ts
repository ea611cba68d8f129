/**
 * The conformance kit in the app (设置 → 机器人 → 检测机器人固件), on Web Serial: the fake
 * navigator.serial (tests/e2e/fakes/serial-init.ts) with the firmware simulator passes and the
 * report downloads with its bytes, then the app gets its robot back; a broken firmware (the
 * independent fake with a wrong CRC) fails, showing the exact bytes it sent.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { CHECKS } from '../../src/core/robot/conformance/suite.ts';
import type { ConformanceReport } from '../../src/core/robot/conformance/report.ts';
import { bundleFake } from './support/robot.ts';
import { openApp } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';

let fakeSerial = '';
test.beforeAll(async () => {
  fakeSerial = await bundleFake('tests/e2e/fakes/serial-init.ts');
});

// The whole suite talks to the robot for about 35 s (a 10 s nod with 5 s of silence, gestures,
// stalls): on the page's fake clock (page.clock), which runs it in a few seconds, in the same order.
test.setTimeout(90_000);

const VIEWPORTS = [
  ['phone', { width: 390, height: 844 }],
  ['portrait', { width: 820, height: 1180 }],
  ['landscape', { width: 1180, height: 820 }],
] as const;

/**
 * Opens the app on the page's fake clock, flowing with real time until the kit stops it: every
 * timer of the app and the simulated robot is the clock's from the start (a timer made before the
 * clock is installed could not be cleared after it, and would fire anyway).
 */
async function open(page: Page, firmware?: string) {
  await page.clock.install();
  if (firmware) await page.addInitScript((f) => Object.assign(globalThis, { __robotFirmware: f }), firmware);
  await page.addInitScript({ content: fakeSerial });
  await openApp(page);
}

/**
 * Starts the kit and runs it to its report on the page's fake clock: the kit's waits (a 10 s nod,
 * 5 s of silence for the watchdog, stalls) and the simulated robot's motions pass as fast as the
 * page can run them, in the same order and with the same durations as on real time.
 */
async function runKit(page: Page): Promise<void> {
  await stopPageTime(page);
  await page.getByTestId('kit-start').click();
  await finishKit(page);
}

/**
 * Stops the page's clock until runFor moves it: left flowing, page time would also pass with real
 * time, so how busy the machine is would decide how far the robot and the kit's waits move between
 * two frames.
 */
async function stopPageTime(page: Page): Promise<void> {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
}

/** Runs the page's clock until the kit's report shows, then lets page time flow again. */
async function finishKit(page: Page): Promise<void> {
  await runClockUntil(page, () => page.getByTestId('kit-summary').isVisible(), 'the kit to finish');
  await page.clock.resume();
}

/** Moves the page's fake clock on, half a second at a time, until `done` (at most two minutes of page time). */
async function runClockUntil(page: Page, done: () => Promise<boolean>, what: string): Promise<void> {
  for (let simulated = 0; !(await done()); simulated += 500) {
    if (simulated > 120_000) throw new Error(`waited 120 s of page time for ${what}`);
    await page.clock.runFor(500);
  }
}

async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

test('a robot on Web Serial passes every check; the report exports with its bytes; the app gets the robot back', async ({ page }, info) => {
  await open(page);
  await page.getByTestId('connect-robot').click();
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');

  await openGrownUp(page, 'settings');
  const section = page.getByTestId('robot-settings');
  await expect(section.getByTestId('robot-model')).toHaveText('agentcade-sim');
  await expect(section.getByTestId('link-health-headline')).toHaveText('连接很稳定。');
  await section.getByTestId('open-robot-kit').click();
  await expect(page.getByTestId('robot-kit')).toBeVisible();

  await stopPageTime(page);
  await page.getByTestId('kit-start').click();
  // The kit took the robot: the game area plays with the on-screen robot meanwhile.
  await expect(page.getByTestId('robot-link-status')).toHaveText('屏幕机器人');
  await expect(page.getByTestId('kit-progress')).toContainText('正在检测USB 机器人');
  await finishKit(page);
  const summary = page.getByTestId('kit-summary');
  // A failed check is named with what the kit saw, so a failure here says which check and why.
  expect(await page.locator('[data-testid=kit-result][data-status=fail]').allInnerTexts()).toEqual([]);
  await expect(summary).toHaveAttribute('data-fail', '0');
  await expect(summary).toContainText('全部通过');
  await expect(summary).toContainText('E2E00001');
  await expect(page.getByTestId('kit-result')).toHaveCount(CHECKS.length);
  await expect(page.locator('[data-testid=kit-result][data-status=fail]')).toHaveCount(0);

  const text = await download(page, 'kit-export-text');
  expect(text.name).toMatch(/^agentcade-robot-conformance-E2E00001-.*\.txt$/);
  expect(text.text).toContain(`result: PASS — ${CHECKS.length} passed, 0 failed, 0 skipped`);
  expect(text.text).toContain('[PASS] dup.window');
  const json = JSON.parse((await download(page, 'kit-export-json')).text) as ConformanceReport;
  expect(json.summary).toEqual({ pass: CHECKS.length, fail: 0, skip: 0 });
  expect(json.hello).toMatchObject({ serial: 'E2E00001', proto: 1 });

  for (const [name, size] of VIEWPORTS) {
    await page.setViewportSize(size);
    await page.screenshot({ path: info.outputPath(`kit-pass-${name}.png`) });
  }
  await page.setViewportSize({ width: 1180, height: 820 });

  // Given back: the link finds the robot again by itself.
  await runClockUntil(page, async () => (await page.getByTestId('robot-link-status').textContent()) === '机器人：已连接', 'the robot back');
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');
  await page.getByTestId('kit-back').click();
  await expect(page.getByTestId('robot-settings-status')).toHaveText('现在：机器人已连接');
});

test('broken firmware (a wrong CRC): the kit fails and shows the bytes the robot sent, with the CRC it should have', async ({ page }, info) => {
  await open(page, 'broken-crc');
  await openGrownUp(page, 'settings');
  await page.getByTestId('open-robot-kit').click();
  await runKit(page);
  const summary = page.getByTestId('kit-summary');
  await expect(summary).toContainText('没通过');
  const hello = page.locator('[data-testid=kit-result][data-id="hello.answer"]');
  await expect(hello).toHaveAttribute('data-status', 'fail');
  const bytes = hello.getByTestId('kit-bytes');
  await expect(bytes).toContainText('CRC mismatch: the frame carries 0x');
  await expect(bytes).toContainText('the right CRC with its two bytes swapped — send the low byte first (§2.2)');
  // The hello as sent, byte for byte: an Event whose COBS block of 254 bytes starts `ff 7b 22 65 76 65 6e 74` ({"event).
  await expect(bytes).toContainText(/04 01 04 [0-9a-f]{2} ff 7b 22 65 76 65 6e 74/);
  for (const [name, size] of VIEWPORTS) {
    await page.setViewportSize(size);
    await page.screenshot({ path: info.outputPath(`kit-fail-${name}.png`) });
  }
  const text = await download(page, 'kit-export-text');
  expect(text.text).toContain('[FAIL] hello.answer');
  expect(text.text).toMatch(/rx {2}unreadable block: CRC mismatch/);
  expect(text.text).toContain('limit: no screen readback');

  // A reload keeps the report: back on the kit's page, the same results, failures first, bytes and all.
  const before = await page.getByTestId('kit-result').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-id')}:${r.getAttribute('data-status')}`));
  expect(before[0]).toBe('hello.answer:fail');
  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  await openGrownUp(page, 'settings');
  await page.getByTestId('open-robot-kit').click();
  await expect(page.getByTestId('kit-restored')).toContainText('的检测');
  await expect(page.getByTestId('kit-summary')).toContainText('没通过');
  expect(await page.getByTestId('kit-result').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-id')}:${r.getAttribute('data-status')}`))).toEqual(before);
  await expect(page.locator('[data-testid=kit-result][data-id="hello.answer"]').getByTestId('kit-bytes')).toContainText('CRC mismatch');
});

test('an 8-bit seq: the kit names the cause once, its two failures under it and first in the list', async ({ page }, info) => {
  await open(page, 'broken-seq8');
  await openGrownUp(page, 'settings');
  await page.getByTestId('open-robot-kit').click();
  await runKit(page);
  const summary = page.getByTestId('kit-summary');
  await expect(summary).toHaveAttribute('data-fail', '2');
  const cause = page.getByTestId('kit-cause');
  await expect(cause).toHaveCount(1);
  await expect(cause).toHaveAttribute('data-id', 'seq-8bit');
  await expect(cause).toContainText('seq 只用了 8 位');
  await expect(cause).toContainText('Ping #256 was answered as #0');
  await expect(cause).toContainText('ping、req.seq');
  const order = await page.getByTestId('kit-result').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
  expect(order.slice(0, 2)).toEqual(['fail', 'fail']);
  expect(order.slice(2)).not.toContain('fail');
  await expect(page.locator('[data-testid=kit-result][data-id=ping]').getByTestId('kit-failure-cause')).toContainText('seq 只用了 8 位');
  await expect(page.getByTestId('kit-limits')).toContainText('看不到屏幕');
  await page.screenshot({ path: info.outputPath('kit-cause-landscape.png'), fullPage: true });
});
