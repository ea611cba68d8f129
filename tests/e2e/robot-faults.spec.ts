/**
 * 你画我猜 in the real app on a USB robot that misbehaves the way real ones do (the fake
 * navigator.serial over the firmware simulator, with its fault knobs): a lost ack while a drawing
 * streams, every reply to one stroke lost, an unplug mid-drawing, a robot that acks after 1.5 s.
 * What the child hears must match what the child sees: each gesture once, never 「画好啦」 over a
 * half picture, and after an unplug the next line waits for the on-screen robot's drawing. The
 * link's health shows in 设置 and in 记录.
 */
import { expect, test, type Page } from '@playwright/test';
import { bundleFake, byDrawingId, linesSeen, openWithSerialFake, otherThan, SHORT_DRAWINGS_SEED, strokesOnWire, unplugOnFirstStroke, watchLines } from './support/robot.ts';
import { say as speak, spoken, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';

const say = (page: Page, words: string) => speak(page, words, { waitIdle: true });
const STUCK = '画到一半卡住了，我重新画一次';

let fakeSerial = '';
test.beforeAll(async () => {
  fakeSerial = await bundleFake('tests/e2e/fakes/serial-init.ts');
});

/** The app with the serial fake, the speech fake and the rules brain, short drawings first; the robot connected by a tap. */
async function openConnected(page: Page) {
  await openWithSerialFake(page, fakeSerial, undefined, SHORT_DRAWINGS_SEED);
  await page.getByTestId('connect-robot').click();
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');
}

const faults = (page: Page, patch: Record<string, unknown>) => page.evaluate((p) => Object.assign((window as any).__robotSim.faults, p), patch);
const usbGestures = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__robotSim.state.gestures);
const linkStats = (page: Page): Promise<Record<string, number>> => page.evaluate(() => ({ ...(window as any).__agentcade.robot.link.stats }));
const usbDrawing = (page: Page): Promise<{ id: string; strokes: number; drawn: number; complete: boolean }> =>
  page.evaluate(() => {
    const c = (window as any).__robotSim.state.content;
    return { id: c.id, strokes: c.strokes?.length ?? 0, drawn: c.drawn ?? 0, complete: !!c.complete };
  });

test('every reply to one stroke lost: the robot says it got stuck and redraws; 「画好啦」 only over the whole picture; 设置 and 记录 show it', async ({ page }, info) => {
  await openConnected(page);
  await watchLines(page);
  await faults(page, { loseReplies: { 'draw.stroke': 4 } }); // the robot draws the 4th piece, the tablet never hears of it
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /画好啦！第 1 题，这是什么动物呀？/);
  const drawing = await usbDrawing(page);
  const animal = byDrawingId.get(drawing.id)!;
  expect(drawing).toEqual({ id: drawing.id, strokes: strokesOnWire(animal), drawn: strokesOnWire(animal), complete: true });

  const lines = await linesSeen(page);
  const stuck = lines.findIndex((l) => l.text.includes(STUCK));
  const done = lines.findIndex((l) => l.text.includes('画好啦'));
  expect(stuck, lines.map((l) => l.text).join(' | ')).toBeGreaterThanOrEqual(0);
  expect(done).toBeGreaterThan(stuck);
  // When it says it got stuck, the half picture is already gone; when it says 「画好啦」, all of it is there.
  expect(lines[stuck].usb).toMatchObject({ kind: 'drawing', strokes: 0 });
  for (const l of lines.filter((x) => x.text.includes('画好啦'))) expect(l.usb).toMatchObject({ complete: true, drawn: strokesOnWire(animal) });
  expect(await linkStats(page)).toMatchObject({ ackTimeouts: 1, resends: 2 });
  await page.screenshot({ path: info.outputPath('faults-redrawn.png') });

  // 设置 → 机器人: the link health in plain Chinese, the counters under 技术细节.
  await openGrownUp(page, 'settings');
  const health = page.getByTestId('link-health');
  await expect(health).toContainText('有 2 次机器人没及时回答，平板自动重发了一遍。');
  await expect(health).toContainText('有 1 个动作重发三次也没有回答，没能做成。');
  await health.getByText('技术细节').click();
  await expect(page.locator('[data-testid=link-stats] tr[data-key=ackTimeouts] td')).toHaveText('1');
  for (const [name, size] of [['phone', { width: 390, height: 844 }], ['portrait', { width: 820, height: 1180 }], ['landscape', { width: 1180, height: 820 }]] as const) {
    await page.setViewportSize(size);
    await page.getByTestId('robot-settings').scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`settings-robot-${name}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1180, height: 820 });

  // 记录: the drawing that got stuck, with its reason and the link counters of that picture, in its technical detail.
  await openGrownUp(page, 'trace');
  const round = page.getByTestId('trace-round').first();
  await round.locator('.round-head').click();
  const devices = round.locator('li.kind-group').filter({ has: page.locator('> .row .label', { hasText: /^设备$/ }) });
  await devices.first().locator('> .row .twisty').click();
  const stuckRecord = devices.first().locator('li.kind-device').filter({ hasText: '设备 showDrawing' }).first();
  await stuckRecord.locator('> .row .twisty').click();
  await expect(stuckRecord.locator('pre')).toContainText('robot_picture_incomplete');
  await expect(stuckRecord.locator('pre')).toContainText('"ackTimeouts": 1');
  await page.screenshot({ path: info.outputPath('trace-link-health.png') });
});

test('one lost ack of the nod while the next drawing streams: the robot nods exactly once', async ({ page }) => {
  await openConnected(page);
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /画好啦！第 1 题/);
  const animal = byDrawingId.get((await usbDrawing(page)).id)!;
  await faults(page, { loseAck: { 'head.gesture': 1 } });
  const n = (await spoken(page)).length;
  await say(page, `是${animal.name}`);
  await waitSpoken(page, /画好啦！第 2 题/, n);
  const second = await usbDrawing(page);
  expect(second.id).not.toBe(animal.drawing.id || animal.id);
  expect(second.complete).toBe(true);
  await page.waitForFunction(() => (window as any).__robotSim.state.head.gesture === null);
  expect(await usbGestures(page)).toEqual(['nod']);
  expect((await linkStats(page)).resends).toBeGreaterThanOrEqual(1);
});

test('unplugged mid-drawing: the next line waits until the on-screen robot has the whole drawing', async ({ page }) => {
  await openConnected(page);
  await watchLines(page);
  const unplugged = await unplugOnFirstStroke(page);
  await page.evaluate(() => {
    const w = window as any;
    void w.__unplugged?.then(() => (w.__unpluggedAt = performance.now()));
  });
  await say(page, '我们玩你画我猜吧');
  await unplugged();
  await waitSpoken(page, /画好啦！第 1 题/);
  const lines = await linesSeen(page);
  const done = lines.find((l) => l.text.includes('画好啦'))!;
  const onScreen = done.screen;
  const animal = byDrawingId.get(onScreen.id!)!;
  expect(onScreen).toEqual({ kind: 'drawing', id: onScreen.id, strokes: strokesOnWire(animal), drawn: strokesOnWire(animal), complete: true });
  // The USB robot lost power part-way through this very drawing.
  expect(done.usb).toMatchObject({ kind: 'drawing', id: onScreen.id, complete: false });
  expect(done.usb.drawn!).toBeLessThan(strokesOnWire(animal));
  const unpluggedAt: number = await page.evaluate(() => (window as any).__unpluggedAt);
  console.log(`[robot-faults] unplug → 「画好啦」 handed to speech: ${Math.round(done.at - unpluggedAt)} ms`);
  expect(lines.some((l) => l.text.includes('机器人断开了'))).toBe(true);
});

test('a robot that acks after 1.5 s: the shake still happens once, the game goes on, 设置 says the robot answers slowly', async ({ page }) => {
  await openConnected(page);
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /画好啦！第 1 题/);
  const animal = byDrawingId.get((await usbDrawing(page)).id)!;
  await faults(page, { ackDelay: 1500 });
  const other = otherThan(animal.name);
  let n = (await spoken(page)).length;
  await say(page, `是${other}吗`);
  await waitSpoken(page, new RegExp(`不是${other}哦！再猜猜看`), n);
  await expect.poll(() => usbGestures(page), { timeout: 20_000 }).toEqual(['shake']);
  n = (await spoken(page)).length;
  await say(page, `是${animal.name}`);
  await waitSpoken(page, /画好啦！第 2 题/, n);
  expect((await usbDrawing(page)).complete).toBe(true);
  await expect.poll(() => usbGestures(page)).toEqual(['shake', 'nod']);
  await openGrownUp(page, 'settings');
  await expect(page.getByTestId('link-health')).toContainText('回答得太晚');
  // The timeout it quotes is the one in force (the link's own counter), not the default.
  const inForce = await page.evaluate(() => (window as any).__agentcade.robot.link.stats.ackTimeoutMs as number);
  expect(inForce).toBeGreaterThan(300);
  await expect(page.getByTestId('link-health')).toContainText(`现在等 ${inForce} 毫秒（原来 300 毫秒）`);
});

test('a robot that hears every command but never says done: 设置 calls it a firmware fault, not the cable', async ({ page }, info) => {
  await openConnected(page);
  await faults(page, { noDone: true });
  await say(page, '我们玩你画我猜吧');
  // Cards and the drawing are acknowledged but never reported done: each runs out (Ack's ms + 2 s).
  await expect.poll(async () => (await linkStats(page)).doneTimeouts, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  const stats = await linkStats(page);
  expect(stats).toMatchObject({ crcErrors: 0, resends: 0, ackTimeouts: 0 });
  await openGrownUp(page, 'settings');
  const headline = page.getByTestId('link-health-headline');
  await expect(headline).toContainText('机器人的固件有问题');
  await expect(headline).toContainText('线没有问题');
  await expect(headline).not.toContainText('请检查 USB 线');
  await expect(page.getByTestId('link-health')).toContainText('回答“收到”了，却一直没说做完');
  await page.screenshot({ path: info.outputPath('link-health-firmware-fault.png') });
});
