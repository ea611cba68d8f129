/**
 * The Android path in Chromium: no navigator.serial, a fake navigator.usb
 * (tests/e2e/fakes/usb-init.ts, bundled from src/robot/sim/usb-sim.ts) with a simulated CDC-ACM
 * robot, and the app's own web-serial-polyfill on top, driven through tests/lab/robot.html.
 */
import { expect, test, type Page } from '@playwright/test';
import { bundleFake, unplugOnFirstStroke } from './support/robot.ts';

let fakeUsb = '';

test.beforeAll(async () => {
  fakeUsb = await bundleFake('tests/e2e/fakes/usb-init.ts');
});

test.beforeEach(async ({ context }) => {
  await context.addInitScript({ content: fakeUsb });
});

type UsbView = { drawn: number; strokes: number; gestures: string[]; requests: number; maxPendingIn: number; log: string[]; hasSerial: boolean };
const view = (page: Page) =>
  page.evaluate((): UsbView => {
    type Sim = {
      state: { content: { drawn?: number; strokes?: unknown[] }; gestures: string[] };
      usb: { requests: number };
      device: { maxPendingIn: number; log: string[] };
    };
    const r = (globalThis as unknown as { __robotSim: Sim }).__robotSim;
    return {
      drawn: r.state.content.drawn ?? 0,
      strokes: r.state.content.strokes?.length ?? 0,
      gestures: r.state.gestures,
      requests: r.usb.requests,
      maxPendingIn: r.device.maxPendingIn,
      log: r.device.log,
      hasSerial: 'serial' in navigator,
    };
  });

test('Android path: tap to connect over WebUSB, draw, nod, unplug, re-plug without a tap', async ({ page }) => {
  await page.goto('/tests/lab/robot.html');
  expect((await view(page)).hasSerial).toBe(false);
  await page.getByTestId('connect').click();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  await expect(page.getByTestId('robot-status')).toHaveText('机器人已连接');
  const v = await view(page);
  expect(v.requests).toBe(1);
  expect(v.log).toContain('SET_LINE_CODING 115200 8N1');

  await page.getByTestId('draw').click();
  await expect.poll(async () => (await view(page)).drawn).toBe(10);
  await expect(page.getByTestId('result')).toHaveText('{"device_completed":true}');
  await page.getByTestId('right').click();
  await expect.poll(async () => (await view(page)).gestures).toEqual(['nod']);
  // Chromium's own streams: still one USB read in flight at a time.
  expect((await view(page)).maxPendingIn).toBe(1);

  // Replace the finished drawing first, so "drawn > 0" below can only mean the new drawing has started.
  await page.getByTestId('progress').click();
  await expect.poll(async () => (await view(page)).strokes).toBe(0);
  const unplugged = await unplugOnFirstStroke(page);
  await page.getByTestId('draw').click();
  await unplugged();
  const onScreen = page.getByTestId('on-screen-robot');
  await expect(page.getByTestId('robot-notice')).toHaveText('机器人断开了，我先在屏幕上陪你玩');
  await expect(onScreen).toHaveAttribute('data-active', 'screen');
  // The result is the on-screen robot's: the drawing is finished where the child now looks.
  await expect(page.getByTestId('result')).toHaveText('{"device_completed":true,"shown_on":"screen"}');
  await expect(onScreen).toHaveAttribute('data-strokes', '10');

  await page.evaluate(() => (globalThis as unknown as { __robotSim: { plug(): void } }).__robotSim.plug());
  await expect(page.getByTestId('robot-status')).toHaveText('机器人已连接');
  await expect(onScreen).toHaveAttribute('data-active', 'robot');
  await expect.poll(async () => (await view(page)).strokes).toBe(10); // resynced after re-plug
  expect((await view(page)).requests).toBe(1);
});

test('Android path: a granted robot reconnects by itself after a reload', async ({ page }) => {
  await page.goto('/tests/lab/robot.html');
  await page.getByTestId('connect').click();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  expect((await view(page)).requests).toBe(0);
});
