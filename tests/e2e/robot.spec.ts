/**
 * The robot in Chromium: a fake navigator.serial (tests/e2e/fakes/serial-init.ts, bundled here
 * from the real simulator) on the far side of real byte streams, driven through tests/lab/robot.html.
 */
import { expect, test, type Page } from '@playwright/test';
import { bundleFake, unplugOnFirstStroke } from './support/robot.ts';

let fakeSerial = '';

test.beforeAll(async () => {
  fakeSerial = await bundleFake('tests/e2e/fakes/serial-init.ts');
});

test.beforeEach(async ({ context }) => {
  await context.addInitScript({ content: fakeSerial });
});

type SimView = { face: string | null; content: { kind: string; drawn?: number; strokes?: unknown[] }; gestures: string[] };
const simState = (page: Page) =>
  page.evaluate(() => {
    const s = (globalThis as unknown as { __robotSim: { state: SimView } }).__robotSim.state;
    return { face: s.face, kind: s.content.kind, drawn: s.content.drawn ?? 0, strokes: s.content.strokes?.length ?? 0, gestures: s.gestures };
  });
const serialRequests = (page: Page) => page.evaluate(() => (globalThis as unknown as { __robotSim: { serial: { requests: number } } }).__robotSim.serial.requests);

test('connect by tap: a drawing and a nod/shake reach the robot', async ({ page }) => {
  await page.goto('/tests/lab/robot.html');
  const onScreen = page.getByTestId('on-screen-robot');
  await expect(page.getByTestId('robot-status')).toHaveText('屏幕上的机器人');
  await expect(onScreen).toHaveAttribute('data-active', 'screen');

  await page.getByTestId('connect').click();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  await expect(page.getByTestId('robot-status')).toHaveText('机器人已连接');
  await expect(onScreen).toHaveAttribute('data-active', 'robot');
  expect(await serialRequests(page)).toBe(1);

  await page.getByTestId('draw').click();
  await expect.poll(async () => (await simState(page)).drawn).toBe(10);
  await expect(page.getByTestId('result')).toHaveText('{"device_completed":true}');

  await page.getByTestId('right').click();
  await expect.poll(async () => (await simState(page)).face).toBe('happy');
  await expect.poll(async () => (await simState(page)).gestures).toEqual(['nod']);
  // After the sentence has been spoken the face goes and the drawing is back.
  await expect.poll(async () => (await simState(page)).face, { timeout: 15_000 }).toBeNull();
  expect((await simState(page)).kind).toBe('drawing');

  await page.getByTestId('wrong').click();
  await expect.poll(async () => (await simState(page)).face).toBe('sorry');
  await expect.poll(async () => (await simState(page)).gestures).toEqual(['nod', 'shake']);
});

test('unplug mid-drawing: the on-screen robot takes over with a notice; re-plug brings the robot back', async ({ page }) => {
  await page.goto('/tests/lab/robot.html');
  await page.getByTestId('connect').click();
  await expect(page.getByTestId('link-state')).toHaveText('ready');

  const unplugged = await unplugOnFirstStroke(page);
  await page.getByTestId('draw').click();
  await unplugged();

  const onScreen = page.getByTestId('on-screen-robot');
  await expect(page.getByTestId('robot-notice')).toHaveText('机器人断开了，我先在屏幕上陪你玩');
  await expect(page.getByTestId('spoken-notice')).toHaveText('机器人断开了，我先在屏幕上陪你玩');
  await expect(onScreen).toHaveAttribute('data-active', 'screen');
  await expect(page.getByTestId('robot-status')).toContainText('断开');
  // The on-screen robot has the whole drawing, and the result is its own ("drawn" is what the child sees).
  await expect(page.getByTestId('result')).toHaveText('{"device_completed":true,"shown_on":"screen"}');
  await expect(onScreen).toHaveAttribute('data-screen', 'drawing');
  await expect(onScreen).toHaveAttribute('data-strokes', '10');

  // The game goes on, on the screen.
  await page.getByTestId('wrong').click();
  await expect(onScreen).toHaveAttribute('data-face', 'sorry');
  await expect(onScreen).toHaveAttribute('data-gestures', /shake/);

  await page.evaluate(() => (globalThis as unknown as { __robotSim: { plug(): void } }).__robotSim.plug());
  await expect(page.getByTestId('robot-status')).toHaveText('机器人已连接');
  await expect(onScreen).toHaveAttribute('data-active', 'robot');
  // Resynced: the robot came back blank and got the current picture again.
  await expect.poll(async () => (await simState(page)).strokes).toBe(10);
  expect(await serialRequests(page)).toBe(1); // no second tap needed
});

test('a granted robot reconnects by itself after a reload', async ({ page }) => {
  await page.goto('/tests/lab/robot.html');
  await page.getByTestId('connect').click();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveText('ready');
  await expect(page.getByTestId('robot-status')).toHaveText('机器人已连接');
  expect(await serialRequests(page)).toBe(0);
});
