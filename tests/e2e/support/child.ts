/**
 * What a child (and a test) does with the real app: open it with the speech fakes and the demo model,
 * speak through the mic (push-to-talk), type in the text box, and wait for what the robot said.
 * Shared by the app-level specs (arcade, trace-app, robot-app, studio-play, pwa-app).
 */
import { expect, type Page } from '@playwright/test';
import { installSpeechFake, type SpeechFakeOptions } from '../fakes/speech-fake.ts';
import { demoStep } from '../../support/demo-brain-server.ts';
import type { OpenAITestServer } from '../../support/openai-test-server.ts';
import { DEFAULT_SEED, expectSeedsPinned, pinSeeds } from './seeds.ts';
import { openGrownUp, setUpAsParent, type SetupOptions } from './parent.ts';

/**
 * Opens the app with the speech fakes, does the first run as a parent would (a PIN, no bedtime
 * window: the specs run at any hour, and the demo script on 选大脑). Every seed the app draws
 * is `seed` (DEFAULT_SEED unless given; tests/e2e/support/seeds.ts says what it picks), so every
 * game's secret is known in advance. With `hash` a grown-up screen, it is open afterwards.
 */
export async function openApp(page: Page, opts: { hash?: string; speech?: SpeechFakeOptions; seed?: number; setup?: SetupOptions; query?: string } = {}): Promise<void> {
  await page.addInitScript(installSpeechFake, opts.speech ?? {});
  await pinSeeds(page, [opts.seed ?? DEFAULT_SEED]);
  // `query`: the test build's developer switches (`&engine-traits=webllm`).
  await page.goto(`/?e2e${opts.query ?? ''}#${opts.hash ?? 'arcade'}`);
  await page.waitForFunction(() => '__agentcade' in window);
  await expectSeedsPinned(page);
  await setUpAsParent(page, opts.setup);
  await expect(page.getByTestId('model-status')).toContainText('规则大脑');
}

/**
 * A first visit online: the speech fakes, pinned seeds, the service worker installed and in control,
 * the demo brain chosen (so the next visit can be offline).
 */
export async function firstVisitWithDemo(page: Page, speech: SpeechFakeOptions = {}): Promise<void> {
  await page.addInitScript(installSpeechFake, speech);
  await pinSeeds(page, [DEFAULT_SEED]);
  await page.goto('/?e2e#arcade');
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 60_000 });
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  await expect(page.getByTestId('model-status')).toHaveText('大脑：规则大脑');
}

/** The mic button is back to idle: the round is over. */
export async function idle(page: Page): Promise<void> {
  await expect(page.getByTestId('mic-button')).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
}

/** The child speaks: tap the mic (push-to-talk), wait until it listens, say the words. */
export async function say(page: Page, words: string, opts: { waitIdle?: boolean } = {}): Promise<void> {
  if (opts.waitIdle) await idle(page);
  await page.getByTestId('mic-button').click();
  await page.waitForFunction(() => (window as any).__speech.listening());
  expect(await page.evaluate((w) => (window as any).__speech.hear(w), words)).toBe(true);
}

/** The child types in the text box. */
export async function type(page: Page, words: string): Promise<void> {
  await page.getByTestId('text-input').fill(words);
  await page.getByTestId('send').click();
}

/** Every sentence piece the robot has finished saying, in order (recorded by the speech fake). */
export const spoken = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__speech.spoken);

/** Waits until the robot has said something matching `pattern` (pieces after index `after`, joined); returns those pieces joined. */
export async function waitSpoken(page: Page, pattern: RegExp, after = 0, timeout = 20_000): Promise<string> {
  let text = '';
  // Polled often: a turn's end is seen within 100 ms, not after a growing interval.
  await expect.poll(async () => pattern.test((text = (await spoken(page)).slice(after).join(''))), { timeout, intervals: [100] }).toBe(true);
  return text;
}

/** A parent switches the mic to hands-free in 设置 and comes back to the arcade. */
export async function chooseHandsFree(page: Page): Promise<void> {
  await openGrownUp(page, 'settings');
  await page.getByLabel('一直听（机器人说话时自动暂停）').check();
  await page.getByTestId('nav-arcade').click();
}

/** Hands-free: the child just talks once the mic is listening by itself (no tap). */
export async function sayHandsFree(page: Page, words: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => (window as any).__speech.listening()), { timeout: 20_000 }).toBe(true);
  expect(await page.evaluate((w) => (window as any).__speech.hear(w), words)).toBe(true);
}

/**
 * Reads the speech fake's timeline of mic and speech events. `overlaps`: the mic was listening while
 * the robot spoke (half-duplex broken); `resumed`: times the mic listened again after the robot had
 * finished speaking.
 */
export async function micTimeline(page: Page): Promise<{ events: string[]; overlaps: string[]; resumed: number }> {
  const events: string[] = await page.evaluate(() => (window as any).__speech.timeline);
  let mic = false;
  let speaking = 0;
  let afterSpeech = false;
  let resumed = 0;
  const overlaps: string[] = [];
  for (const e of events) {
    if (e === 'mic-on') {
      if (speaking > 0) overlaps.push(e);
      if (afterSpeech) resumed++;
      afterSpeech = false;
      mic = true;
    } else if (e === 'mic-off') mic = false;
    else if (e.startsWith('say-start:')) {
      if (mic) overlaps.push(e);
      speaking++;
    } else if (e.startsWith('say-end:')) {
      speaking = Math.max(0, speaking - 1);
      if (speaking === 0) afterSpeech = true;
    }
  }
  return { events, overlaps, resumed };
}

/**
 * Records every request the app sends to a game agent from now on (kind and words), in
 * `window.__gameRequests`; returns a reader.
 */
export async function watchGameRequests(page: Page): Promise<() => Promise<Array<{ gameId: string; kind: string; text: string }>>> {
  await page.evaluate(() => {
    const w = window as any;
    const games = w.__agentcade.games;
    const request = games.request.bind(games);
    w.__gameRequests = [];
    games.request = (gameId: string, contextId: string, input: { kind: string; text: string }) => {
      w.__gameRequests.push({ gameId, kind: input.kind, text: input.text });
      return request(gameId, contextId, input);
    };
  });
  return () => page.evaluate(() => (window as any).__gameRequests);
}

/**
 * The app's brain becomes the demo brain behind a local OpenAI-compatible server that thinks
 * `delayMs` before every answer (a slow remote brain): for tests that need the game to still be
 * busy when the child speaks again.
 */
export async function useSlowDemoBrain(page: Page, server: OpenAITestServer, delayMs: number): Promise<void> {
  server.respond(async (body) => ({ content: await demoStep(body), delayMs }));
  await useRemoteBrain(page, server.baseUrl, 'demo-brain');
}

/**
 * The turn budget's colour window pinned, stored as the app stores its turn budget (read at every
 * round): a test whose assertion needs the model's reply after the rules' truthful line pins it
 * long, so the machine's speed never decides whether that reply is heard.
 */
export async function pinColourWindow(page: Page, colourMs: number): Promise<void> {
  await page.evaluate((ms) => {
    const key = 'agentcade.settings.turn-budget';
    const stored = (JSON.parse(localStorage.getItem(key) ?? 'null') ?? {}) as Record<string, unknown>;
    localStorage.setItem(key, JSON.stringify({ ...stored, colourMs: ms }));
  }, colourMs);
}

/** The app's brain becomes the OpenAI-compatible server at `baseUrl` (as 设置 would save it). */
export async function useRemoteBrain(page: Page, baseUrl: string, model: string): Promise<void> {
  await page.evaluate(
    async ([baseUrl, model]) => {
      const c = (window as any).__agentcade.controller;
      await c.saveRemote({ baseUrl, model, apiKey: '', timeoutMs: 30_000, disableThinking: false });
      await c.chooseProvider('remote');
    },
    [baseUrl, model],
  );
  await expect(page.getByTestId('model-status')).toContainText('家里的电脑');
}
