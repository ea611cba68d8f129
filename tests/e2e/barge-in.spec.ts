import { expect, test as base, type Page } from '@playwright/test';
import { chooseHandsFree, openApp, sayHandsFree, spoken, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { ROBOT_LINE, voiceWav, type WavName } from '../support/voice-wavs.ts';
import type { SpeechFakeOptions } from './fakes/speech-fake.ts';

// Barge-in on real audio: Chromium's fake capture device plays a recording (made now with
// espeak-ng/sox) into getUserMedia, and the voice-activity model (Silero via onnxruntime-web's
// wasm) runs on it for real; recognition stays faked at its API.
// Each recording needs its own browser (the capture file is a launch argument): `capture` picks it.
const test = base.extend<{ capture: WavName; micAllowed: boolean; page: Page }>({
  capture: ['silence', { option: true }],
  micAllowed: [true, { option: true }],
  page: async ({ playwright, baseURL, viewport, locale, launchOptions, capture, micAllowed, serviceWorkers }, use) => {
    const wav = voiceWav(capture);
    const browser = await playwright.chromium.launch({
      ...launchOptions,
      args: [...(launchOptions.args ?? []), '--use-fake-device-for-media-stream', ...(micAllowed ? ['--use-fake-ui-for-media-stream'] : []), `--use-file-for-fake-audio-capture=${wav.path}`],
    });
    const context = await browser.newContext({ baseURL, viewport, locale, permissions: micAllowed ? ['microphone'] : [], serviceWorkers });
    await use(await context.newPage());
    await browser.close();
  },
});
const capture = (name: WavName) => test.use({ capture: name });

const rt = (page: Page, expr: string) => page.evaluate((e) => new Function('rt', `return ${e}`)((window as any).__agentcade), expr);

/** Hands-free on, the one tap, and the detector loaded and hearing the microphone. */
async function handsFree(page: Page, speech: SpeechFakeOptions, bargeIn = true): Promise<void> {
  await openApp(page, { speech });
  await chooseHandsFree(page);
  await page.getByTestId('mic-button').click();
  if (!bargeIn) {
    await page.evaluate(() => (window as any).__agentcade.updateSpeechSettings({ bargeIn: false }));
    return;
  }
  await expect.poll(() => rt(page, 'rt.bargeIn.status'), { timeout: 30_000 }).toBe('on');
  await expect.poll(() => rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(10);
}

// The game's opening reply, spoken slowly: a long reply (≈ 10 s).
const SLOW = { msPerChar: 400, endpointMs: 120_000 };

test.afterEach(async ({ page }, info) => {
  if (info.status !== info.expectedStatus)
    console.log(JSON.stringify(await page.evaluate(() => ({ t: (window as any).__speech.timeline, loop: (window as any).__agentcade.loop.log, b: (window as any).__agentcade.bargeIn.log, d: (window as any).__agentcade.bargeIn.detail, spoken: (window as any).__speech.spoken }))));
});

test.describe('the child talks over a long reply', () => {
  capture('guess');
  test('the reply stops at once and 「我猜五十」 is the next turn, finished when the child stops', async ({ page }, info) => {
    // 说话时可以打断 off at first, so the recording (played from when the microphone opens) starts
    // once the long reply is being spoken: the parent turns it on then.
    await handsFree(page, SLOW, false);
    await sayHandsFree(page, '我们玩猜数字吧');
    await expect.poll(() => page.evaluate(() => (window as any).__speech.started.some((t: string) => /我想好了/.test(t)))).toBe(true);
    await page.evaluate(() => (window as any).__agentcade.updateSpeechSettings({ bargeIn: true }));
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
});

for (const name of ['silence', 'noise'] as const) {
  test.describe(`${name} in the room`, () => {
    capture(name);
    test(`${name} never stops the robot`, async ({ page }) => {
      await handsFree(page, { msPerChar: 120 });
      await sayHandsFree(page, '我们玩猜数字吧');
      await waitSpoken(page, /我想好了/);
      expect(await page.evaluate(() => (window as any).__speech.cancels)).toBe(0);
      expect(await rt(page, 'rt.bargeIn.log')).not.toContain('barge-in');
      expect(await rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(50);
    });
  });
}

test.describe("the robot's own voice in the microphone", () => {
  capture('robot');
  test('its own line, heard back in step with its playback, does not stop it (echo guard)', async ({ page }) => {
    const wav = voiceWav('robot');
    await handsFree(page, { echo: { text: ROBOT_LINE, speechMs: wav.endMs! - wav.onsetMs! } });
    // Past the model's warm-up (the page is busy at first, and its timers run late).
    await expect.poll(() => rt(page, 'rt.bargeIn.framesHeard')).toBeGreaterThan(60);
    // The robot says its line three times, each in step with the recording's loop (which started
    // when the microphone opened): its voice reaches the microphone as it plays.
    await page.evaluate(
      async ({ line, periodMs, onsetMs }) => {
        const voice = (window as any).__agentcade.voice;
        const opened = (window as any).__speech.micOpenedAt as number;
        for (let i = 0; i < 3; i++) {
          const wait = (periodMs - ((performance.now() - opened - onsetMs) % periodMs)) % periodMs;
          await new Promise((r) => setTimeout(r, Math.max(0, wait - 5)));
          await voice.say(line, 'main');
        }
      },
      { line: ROBOT_LINE, periodMs: wav.durationMs, onsetMs: wav.onsetMs! },
    );
    expect((await spoken(page)).filter((t) => t === ROBOT_LINE)).toHaveLength(3);
    expect(await page.evaluate(() => (window as any).__speech.cancels)).toBe(0);
    const log: string[] = await rt(page, 'rt.bargeIn.log');
    expect(log).not.toContain('barge-in');
    expect(log).toContain('echo'); // the detector did hear speech, and the guard held
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
