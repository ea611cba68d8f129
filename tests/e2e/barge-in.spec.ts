import { readFileSync } from 'node:fs';
import { expect, test as base, type Browser, type LaunchOptions, type Page } from '@playwright/test';
import { chooseHandsFree, openApp, sayHandsFree, spoken, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { ROBOT_LINE, voiceWav, type WavName } from '../support/voice-wavs.ts';
import type { SpeechFakeOptions } from './fakes/speech-fake.ts';

// Barge-in on real audio: Chromium's fake capture device gives the microphone (quiet), and the
// speech fake mixes recordings (made now with espeak-ng/sox) into what getUserMedia gives, when the
// test plays them, or, for the robot's own voice, as each of its lines starts playing (an echo
// caused by the playback, so it is in step whatever the machine's speed). The voice-activity model
// (Silero via onnxruntime-web's wasm) runs on it for real; recognition stays faked at its API.
// One browser serves every test that may use the microphone (a refused microphone needs its own).
const test = base.extend<{ micAllowed: boolean; page: Page }, { micBrowser: Browser }>({
  micAllowed: [true, { option: true }],
  micBrowser: [
    async ({ playwright, launchOptions }, use) => {
      const browser = await playwright.chromium.launch(launchWith(launchOptions, true));
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ playwright, micBrowser, baseURL, viewport, locale, launchOptions, micAllowed, serviceWorkers }, use) => {
    const own = micAllowed ? null : await playwright.chromium.launch(launchWith(launchOptions, false));
    const context = await (own ?? micBrowser).newContext({ baseURL, viewport, locale, permissions: micAllowed ? ['microphone'] : [], serviceWorkers });
    await use(await context.newPage());
    await context.close();
    await own?.close();
  },
});

function launchWith(launchOptions: LaunchOptions, micAllowed: boolean): LaunchOptions {
  const quiet = voiceWav('silence');
  return {
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--use-fake-device-for-media-stream', ...(micAllowed ? ['--use-fake-ui-for-media-stream'] : []), `--use-file-for-fake-audio-capture=${quiet.path}`],
  };
}

/** The recordings the microphone can hear (base64 WAV by name). */
function clips(...names: WavName[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, readFileSync(voiceWav(n).path).toString('base64')]));
}

const rt = (page: Page, expr: string) => page.evaluate((e) => new Function('rt', `return ${e}`)((window as any).__agentcade), expr);

/** Hands-free on, the one tap, and the detector loaded and hearing the microphone. */
async function handsFree(page: Page, speech: SpeechFakeOptions): Promise<void> {
  await openApp(page, { speech });
  await chooseHandsFree(page);
  await page.getByTestId('mic-button').click();
  await expect.poll(() => rt(page, 'rt.bargeIn.status'), { timeout: 30_000 }).toBe('on');
  await expect.poll(() => rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(10);
}

/** The robot says `line` through its one speaking path, and it was said to the end. */
async function robotSays(page: Page, line: string): Promise<void> {
  await page.evaluate((l) => (window as any).__agentcade.voice.say(l, 'main'), line);
}

// The game's opening reply, spoken slowly: a long reply (≈ 10 s).
const SLOW = { msPerChar: 400, endpointMs: 120_000 };

test.afterEach(async ({ page }, info) => {
  if (info.status !== info.expectedStatus)
    console.log(JSON.stringify(await page.evaluate(() => ({ t: (window as any).__speech.timeline, loop: (window as any).__agentcade.loop.log, b: (window as any).__agentcade.bargeIn.log, d: (window as any).__agentcade.bargeIn.detail, spoken: (window as any).__speech.spoken }))));
});

test('the child talks over a long reply: the reply stops at once and 「我猜五十」 is the next turn, finished when the child stops', async ({ page }, info) => {
  const guess = voiceWav('guess');
  await handsFree(page, { ...SLOW, micClips: clips('guess') });
  await sayHandsFree(page, '我们玩猜数字吧');
  // The long reply has been playing for a second: past the echo guard's window at a line's start
  // (a voice that begins with the robot's playback is taken for its echo), with ≈ 10 s still to go.
  await expect
    .poll(() => page.evaluate(() => (window as any).__speech.startedAt.some((s: { text: string; at: number }) => /我想好了/.test(s.text) && Date.now() - s.at >= 1000)))
    .toBe(true);
  // The long reply is being spoken: the child says 「我猜五十」 into the microphone.
  await page.evaluate((fromMs) => (window as any).__speech.playIntoMic('guess', { fromMs }), guess.onsetMs! - 200);
  // The recording's 「我猜五十」 stops the robot: cancelled, the reply never finished.
  await expect.poll(() => rt(page, 'rt.loop.log.includes("barge-in")'), { timeout: 30_000 }).toBe(true);
  expect(await page.evaluate(() => (window as any).__speech.cancels)).toBeGreaterThan(0);
  const cut = await page.evaluate(() => (window as any).__speech.started.filter((t: string) => !(window as any).__speech.spoken.includes(t)));
  expect(cut.length).toBeGreaterThan(0);
  // Recognition is on at once; the recognizer's guess so far is 「我猜五十」, and the detector's
  // end of speech finishes it (the fake recognizer's own silence timeout is two minutes).
  await expect.poll(() => page.evaluate(() => (window as any).__speech.listening())).toBe(true);
  expect(await page.evaluate(() => (window as any).__speech.hearInterim('我猜五十'))).toBe(true);
  await waitSpoken(page, /50 (大了|小了)/);
  expect(await rt(page, 'rt.loop.log')).toContain('speech-end:我猜五十');
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
  await page.screenshot({ path: info.outputPath('barge-in.png') });
});

// One page in one room: quiet, then noise, then the robot's own voice in the microphone. Each step
// checks that nothing so far stopped the robot.
test.describe.serial('what the microphone hears while the robot speaks', () => {
  let page: Page;
  test.beforeAll(async ({ micBrowser, baseURL, viewport, locale }) => {
    const robot = voiceWav('robot');
    const context = await micBrowser.newContext({ baseURL, viewport, locale, permissions: ['microphone'] });
    page = await context.newPage();
    await handsFree(page, { msPerChar: 120, micClips: clips('noise', 'robot'), echo: { text: ROBOT_LINE, clip: 'robot', fromMs: robot.onsetMs!, toMs: robot.endMs! } });
  });
  test.afterAll(async () => {
    await page.context().close();
  });
  const untouched = async () => {
    expect(await page.evaluate(() => (window as any).__speech.cancels)).toBe(0);
    expect(await rt(page, 'rt.bargeIn.log')).not.toContain('barge-in');
  };

  test('silence never stops the robot', async () => {
    await sayHandsFree(page, '我们玩猜数字吧');
    await waitSpoken(page, /我想好了/);
    await untouched();
    expect(await rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(50);
  });

  test('noise never stops the robot', async () => {
    const before: number = await rt(page, 'rt.bargeIn.framesHeard');
    await page.evaluate(() => (window as any).__speech.playIntoMic('noise', { loop: true }));
    await robotSays(page, '我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧');
    await untouched();
    expect(await rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(before + 50);
    await page.evaluate(() => (window as any).__speech.stopMic());
  });

  test('its own line, heard back as it plays, does not stop it (echo guard)', async () => {
    // The robot says its line three times; each playback sounds in the microphone.
    for (let i = 0; i < 3; i++) await robotSays(page, ROBOT_LINE);
    expect((await spoken(page)).filter((t) => t === ROBOT_LINE)).toHaveLength(3);
    await untouched();
    expect(await rt(page, 'rt.bargeIn.log')).toContain('echo'); // the detector did hear speech, and the guard held
  });
});

test.describe('faults: hands-free as before, and 设置 says why', () => {
  test.use({ serviceWorkers: 'block' }); // the precache would serve the file the test takes away
  test('the model files do not load', async ({ page }) => {
    await page.route('**/vad/silero_vad_v5.onnx', (r) => r.fulfill({ status: 404, body: 'gone' }));
    await openApp(page, { speech: { msPerChar: 40 } });
    await chooseHandsFree(page);
    await page.getByTestId('mic-button').click();
    await expect.poll(() => rt(page, 'rt.bargeIn.status'), { timeout: 30_000 }).toBe('load-failed');
    await sayHandsFree(page, '我们玩猜数字吧'); // hands-free still listens by itself
    await waitSpoken(page, /我想好了/);
    await openGrownUp(page, 'settings');
    await expect(page.getByTestId('status-card').getByTestId('part-listening')).toContainText('说话时不能打断：听声音的小程序没能打开');
  });
});

test.describe('no microphone permission', () => {
  test.use({ micAllowed: false });
  test('hands-free works as before, and 设置 says the microphone was not allowed', async ({ page }) => {
    await openApp(page, { speech: { msPerChar: 40 } });
    await chooseHandsFree(page);
    await page.getByTestId('mic-button').click();
    await expect.poll(() => rt(page, 'rt.bargeIn.status'), { timeout: 30_000 }).toBe('denied');
    await sayHandsFree(page, '我们玩猜数字吧');
    await waitSpoken(page, /我想好了/);
    await openGrownUp(page, 'settings');
    await expect(page.getByTestId('status-card').getByTestId('part-listening')).toContainText('说话时不能打断：麦克风没有被允许');
  });
});
