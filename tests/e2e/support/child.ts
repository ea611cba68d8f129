/**
 * What a child (and a test) does with the real app: open it with the speech fakes and the demo model,
 * speak through the mic (push-to-talk), type in the text box, and wait for what the robot said.
 * Shared by the app-level specs (arcade, trace-app, robot-app, studio-play, pwa-app).
 */
import { expect, type Page } from '@playwright/test';
import { installSpeechFake, type SpeechFakeOptions } from '../fakes/speech-fake.ts';

/** Opens the app with the speech fakes and picks the demo model explicitly, as a parent would. */
export async function openApp(page: Page, opts: { hash?: string; speech?: SpeechFakeOptions } = {}): Promise<void> {
  await page.addInitScript(installSpeechFake, opts.speech ?? {});
  await page.goto(`/?e2e#${opts.hash ?? 'arcade'}`);
  await page.waitForFunction(() => '__agentcade' in window);
  await page.evaluate(() => (window as any).__agentcade.controller.chooseProvider('scripted'));
  await expect(page.getByTestId('model-status')).toContainText('演示');
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

/** Waits until the robot has said something matching `pattern` (pieces after index `after`, joined). */
export async function waitSpoken(page: Page, pattern: RegExp, after = 0): Promise<void> {
  await expect.poll(async () => pattern.test((await spoken(page)).slice(after).join('')), { timeout: 20_000 }).toBe(true);
}
