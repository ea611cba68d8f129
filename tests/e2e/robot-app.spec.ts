/**
 * The robot inside the real app: a fake navigator.serial (tests/e2e/fakes/serial-init.ts, the real
 * firmware simulator on the far side of real byte streams) and the speech fake. The child taps
 * 连接机器人, plays 你画我猜 by voice, and the robot draws, nods and shakes; unplugged mid-game the
 * on-screen robot takes over with a spoken notice. A robot without a pen greys out 你画我猜.
 */
import { expect, test, type Page } from '@playwright/test';
import { bundleFake, byDrawingId, openWithSerialFake, otherThan, strokesOnWire } from './support/robot.ts';
import { say as speak, spoken, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { DEFAULT_SEED, drawGuessCards } from './support/seeds.ts';

/** The child speaks once the previous round is over. */
const say = (page: Page, words: string) => speak(page, words, { waitIdle: true });

const UNPLUGGED = '机器人断开了，我先在屏幕上陪你玩';

// Every seed is pinned: the animals 你画我猜 asks, in order.
const CARDS = drawGuessCards(DEFAULT_SEED);

let fakeSerial = '';
test.beforeAll(async () => {
  fakeSerial = await bundleFake('tests/e2e/fakes/serial-init.ts');
});

const open = (page: Page, hello?: Record<string, unknown>) => openWithSerialFake(page, fakeSerial, hello);

/**
 * Records what both robots did (the USB sim behind the fake serial, and the on-screen robot's sim):
 * every finished drawing and every face shown. Faces are held only until the next sentence has been
 * spoken, so the test keeps a history instead of polling a moment.
 */
async function watchRobots(page: Page) {
  await page.evaluate(() => {
    type S = { face: string | null; content: { kind: string; id?: string; strokes?: unknown[]; drawn?: number; complete?: boolean } };
    const w = window as any;
    const watch = (sim: { subscribe(cb: (s: S) => void): void }) => {
      const log = { drawings: [] as Array<{ id: string; strokes: number; drawn: number }>, faces: [] as string[], started: [] as string[] };
      let face: string | null = null;
      sim.subscribe((s) => {
        if (s.face && s.face !== face) log.faces.push(s.face);
        face = s.face;
        const c = s.content;
        if (c.kind === 'drawing' && c.id && log.started.at(-1) !== c.id) log.started.push(c.id);
        if (c.kind === 'drawing' && c.complete && c.drawn === c.strokes?.length && log.drawings.at(-1)?.id !== c.id)
          log.drawings.push({ id: c.id!, strokes: c.strokes!.length, drawn: c.drawn! });
      });
      return log;
    };
    w.__usbLog = watch(w.__robotSim.sim);
    w.__screenLog = watch(w.__agentcade.robot.screenSim);
  });
}
type RobotLog = { drawings: Array<{ id: string; strokes: number; drawn: number }>; faces: string[]; started: string[] };
const usbLog = (page: Page): Promise<RobotLog> => page.evaluate(() => (window as any).__usbLog);
const screenLog = (page: Page): Promise<RobotLog> => page.evaluate(() => (window as any).__screenLog);
const usbGestures = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__robotSim.state.gestures);
const serialRequests = (page: Page): Promise<number> => page.evaluate(() => (window as any).__robotSim.serial.requests);

test('connect by tap, play 你画我猜 on the USB robot, unplug mid-game: the on-screen robot takes over', async ({ page }, info) => {
  const t0 = Date.now();
  const lap = (what: string) => console.log(`[robot-app] ${what}: ${Date.now() - t0} ms`);
  await open(page);
  await watchRobots(page);
  const status = page.getByTestId('robot-link-status');
  const onScreen = page.getByTestId('on-screen-robot');
  await expect(status).toHaveText('屏幕机器人');
  await expect(onScreen).toHaveAttribute('data-active', 'screen');

  // 1. Tap 连接机器人: the chooser (the fake grants the robot), the hello, ready.
  await page.getByTestId('connect-robot').click();
  await expect(status).toHaveText('机器人：已连接');
  await expect(onScreen).toHaveAttribute('data-active', 'robot');
  await expect(page.getByTestId('connect-robot')).toHaveCount(0);
  expect(await serialRequests(page)).toBe(1);
  await page.screenshot({ path: info.outputPath('robot-app-connected.png') });
  lap('connected');

  // 2. The child asks for 你画我猜: the robot draws the first animal, stroke by stroke.
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /画好啦！第 1 题，这是什么动物呀？/);
  await expect(page.getByTestId('current-game')).toContainText('你画我猜');
  const first = (await usbLog(page)).drawings[0];
  expect(first).toBeTruthy();
  const animal = byDrawingId.get(first.id)!;
  expect(animal.name).toBe(CARDS[0].name);
  expect(first.strokes).toBe(strokesOnWire(animal));
  expect(first.drawn).toBe(first.strokes);
  await page.screenshot({ path: info.outputPath('robot-app-drawn.png') });
  lap('first drawing on the robot');

  // 3. A wrong answer: the robot shakes its head and looks sorry.
  let n = (await spoken(page)).length;
  const other = otherThan(animal.name);
  const facesBefore = (await usbLog(page)).faces.length;
  await say(page, `是${other}吗`);
  await waitSpoken(page, new RegExp(`不是${other}哦！再猜猜看`), n);
  // The instant cue over the drawing being guessed is no face (the drawing stays on the robot; the app
  // shows a small thinking sign beside it); then the verdict's face.
  await expect.poll(async () => (await usbLog(page)).faces.slice(facesBefore)).toEqual(['sorry']);
  expect((await usbLog(page)).faces.slice(0, facesBefore)).toContain('thinking'); // before any drawing, the cue is the face
  await expect.poll(() => usbGestures(page)).toEqual(['shake']);
  // The child watches the head shake to its end before answering again (a gesture queued behind it
  // would start later, and the cable is pulled soon after the answer).
  await page.waitForFunction(() => (window as any).__robotSim.state.head.gesture === null);

  // 4. The right answer: a nod and a happy face; then the robot starts the next drawing.
  //    Mid-way through that drawing the cable is pulled (one-shot hook on the sim: first stroke drawn).
  await page.evaluate((firstId) => {
    const sim = (window as any).__robotSim;
    let pulled = false;
    sim.sim.subscribe((s: { content: { kind: string; id?: string; drawn?: number; strokes?: unknown[] } }) => {
      const c = s.content;
      if (pulled || c.kind !== 'drawing' || c.id === firstId || (c.drawn ?? 0) < 1) return;
      pulled = true;
      (window as any).__pulledAt = { id: c.id, drawn: c.drawn };
      setTimeout(() => sim.unplug(), 0);
    });
  }, first.id);
  n = (await spoken(page)).length;
  await say(page, `是${animal.name}`);
  await waitSpoken(page, new RegExp(`答对啦！就是${animal.name}！`), n);
  await expect.poll(async () => (await usbLog(page)).faces.filter((f) => f !== 'thinking')).toEqual(['sorry', 'happy']);
  await expect.poll(() => usbGestures(page)).toEqual(['shake', 'nod']);
  lap('wrong + right answered on the robot');

  // 5. Unplugged mid-drawing: the on-screen robot takes over, says so (spoken and shown), and has the whole picture.
  await expect(onScreen).toHaveAttribute('data-active', 'screen');
  await expect(page.getByTestId('robot-notice')).toHaveText(UNPLUGGED);
  await waitSpoken(page, new RegExp(UNPLUGGED), n);
  await expect(page.getByTestId('subtitles')).toContainText(UNPLUGGED);
  await expect(status).not.toHaveText('机器人：已连接');
  await expect(page.getByTestId('connect-robot')).toBeVisible();
  const pulledAt = await page.evaluate(() => (window as any).__pulledAt);
  await waitSpoken(page, /画好啦！第 2 题，这是什么动物呀？/, n);
  await page.screenshot({ path: info.outputPath('robot-app-unplugged.png') });
  lap('unplugged, on-screen robot in charge');

  const second = (await screenLog(page)).drawings.at(-1)!;
  expect(second.id).not.toBe(first.id);
  const animal2 = byDrawingId.get(second.id)!;
  expect(animal2.name).toBe(CARDS[1].name);
  expect(second.strokes).toBe(strokesOnWire(animal2));
  // It really was mid-drawing: the cable went after the first stroke of this very drawing.
  expect(pulledAt.id).toBe(second.id);
  expect(pulledAt.drawn).toBeLessThan(second.strokes);
  // The USB robot got only part of it before the cable went.
  const usb = await usbLog(page);
  expect(usb.started).toContain(second.id);
  expect(usb.drawings.map((d) => d.id)).not.toContain(second.id);

  // 6. The game goes on, on the screen: a right answer makes the on-screen robot nod, happy.
  const screenFaces = (await screenLog(page)).faces.length;
  n = (await spoken(page)).length;
  await say(page, `我觉得是${animal2.name}`);
  await waitSpoken(page, new RegExp(`答对啦！就是${animal2.name}！`), n);
  await expect.poll(async () => (await screenLog(page)).faces.slice(screenFaces).filter((f) => f !== 'thinking')).toEqual(['happy']);
  await expect(onScreen).toHaveAttribute('data-gestures', 'shake,nod,nod');
  expect(await usbGestures(page)).toEqual(['shake', 'nod']); // nothing reached the unplugged robot
  await expect(page.getByTestId('current-game')).toContainText('你画我猜');
  await waitSpoken(page, /画好啦！第 3 题/, n);
  await page.screenshot({ path: info.outputPath('robot-app-on-screen.png') });
  lap('answered on the on-screen robot');
});

test('a robot that cannot draw greys out 你画我猜 with the reason; it reconnects by itself after a reload', async ({ page }, info) => {
  await open(page, { draw: { strokes: false, maxPoints: 0 } });
  const card = page.locator('[data-testid=game-card][data-game=draw-guess]');
  await expect(card).toHaveAttribute('aria-disabled', 'false'); // the on-screen robot can do everything

  await page.getByTestId('connect-robot').click();
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');
  await expect(card).toHaveAttribute('aria-disabled', 'true');
  await expect(card).toContainText('「你画我猜」需要机器人会画画，现在连着的机器人还不会');
  await expect(page.locator('[data-testid=game-card][data-game=guess-number]')).toHaveAttribute('aria-disabled', 'false');
  await page.screenshot({ path: info.outputPath('robot-app-no-draw.png') });

  // Asking for it by voice gets the reason, and no game starts.
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /你画我猜现在还不能玩：「你画我猜」需要机器人会画画/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);

  // Reload: the granted robot reconnects without a tap, and its hello still rules.
  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');
  expect(await serialRequests(page)).toBe(0);
  await expect(card).toHaveAttribute('aria-disabled', 'true');

  // Unplugged: the on-screen robot can draw, so the game is back.
  await page.evaluate(() => (window as any).__robotSim.unplug());
  await expect(page.getByTestId('on-screen-robot')).toHaveAttribute('data-active', 'screen');
  await expect(card).toHaveAttribute('aria-disabled', 'false');
  // Tapping 连接机器人 with nothing to pick says so (the fake's chooser finds no robot while unplugged).
  await page.getByTestId('connect-robot').click();
  await expect(page.getByTestId('robot-error')).toHaveText('没有选到机器人，可以再点一次连接。');
});

test('a robot that cannot shake its head still plays 你画我猜: its face says no, the on-screen robot shakes, 设置 says so in one line', async ({ page }, info) => {
  await open(page, { gestures: ['nod'], servos: ['pitch'] });
  await watchRobots(page);
  const card = page.locator('[data-testid=game-card][data-game=draw-guess]');
  await page.getByTestId('connect-robot').click();
  await expect(page.getByTestId('robot-link-status')).toHaveText('机器人：已连接');
  // Not greyed out: the game plays with what is there.
  await expect(card).toHaveAttribute('aria-disabled', 'false');

  // The main agent names it among the games, and it starts.
  await say(page, '我们玩你画我猜吧');
  await waitSpoken(page, /画好啦！第 1 题，这是什么动物呀？/);
  await expect(page.getByTestId('current-game')).toContainText('你画我猜');

  // A wrong answer: the USB robot looks sorry (it cannot shake), the on-screen robot shakes for it.
  const n = (await spoken(page)).length;
  const other = otherThan(CARDS[0].name);
  await say(page, `是${other}吗`);
  await waitSpoken(page, new RegExp(`不是${other}哦！再猜猜看`), n);
  await expect.poll(async () => (await usbLog(page)).faces.filter((f) => f !== 'thinking')).toEqual(['sorry']);
  await expect(page.getByTestId('on-screen-robot')).toHaveAttribute('data-gestures', 'shake');
  expect(await usbGestures(page)).toEqual([]);

  await openGrownUp(page, 'settings');
  await expect(page.getByTestId('robot-stand-in')).toHaveText('这个机器人不会摇头：游戏照样玩，要摇头时它做出表情，屏幕上的机器人替它摇头。');
  await page.screenshot({ path: info.outputPath('robot-app-no-shake-settings.png') });
});
