/**
 * What a parent does in the app: the first run (a PIN, the recovery code copied, play time, then
 * 选大脑), and opening the grown-up area with the PIN.
 */
import { expect, type Page } from '@playwright/test';

export const PARENT_PIN = '2580';

export interface SetupOptions {
  /** Keep the bedtime window (off by default: the specs run at any hour of the day). */
  bedtime?: boolean;
  /** Change the daily limit by this many 5-minute steps (negative: less). */
  limitSteps?: number;
  /**
   * On 选大脑, which the first run opens when no brain is chosen yet (and no other grown-up screen
   * was asked for by the address): 'demo' (the default) takes the demo script there and goes to the
   * arcade, or, when the address asked for another screen, is chosen without leaving it; 'later'
   * goes back to the arcade with no brain; 'stay' stays on 选大脑.
   */
  brain?: 'demo' | 'later' | 'stay';
}

/** The first run, as a parent does it: returns the recovery code they wrote down. */
export async function setUpAsParent(page: Page, opts: SetupOptions = {}): Promise<string> {
  await expect(page.getByTestId('first-run')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('setup-pin').fill(PARENT_PIN);
  await page.getByTestId('setup-pin-ok').click();
  const code = (await page.getByTestId('recovery-code').textContent())!.trim();
  await page.getByTestId('recovery-next').click();
  await expect(page.getByTestId('play-time-settings')).toBeVisible();
  if (!opts.bedtime) {
    await page.getByTestId('bedtime-on').uncheck();
    await expect(page.getByTestId('bedtime-start')).toHaveCount(0);
  }
  const steps = opts.limitSteps ?? 0;
  for (let i = 0; i < Math.abs(steps); i++) await page.getByTestId(steps > 0 ? 'limit-plus' : 'limit-minus').click();
  await page.getByTestId('setup-done').click();
  await expect(page.getByTestId('first-run')).toHaveCount(0);
  // The screen the address asked for, or 选大脑 (no brain chosen yet), or the arcade.
  const main = page.locator('main[data-screen]');
  await expect(main).toHaveCount(1);
  const brain = opts.brain ?? 'demo';
  if ((await main.getAttribute('data-screen')) === 'brain' && brain !== 'stay') {
    if (brain === 'demo') {
      await page.getByTestId('choose-demo').click();
      await page.getByTestId('brain-done').click();
    } else await page.getByTestId('nav-arcade').click();
    await expect(page.getByTestId('nav-grown-up')).toBeVisible();
  } else if (brain === 'demo' && (await page.getByTestId('model-status').textContent())?.startsWith('还没有大脑')) {
    // The address asked for another grown-up screen: the demo brain, chosen as 选大脑 would.
    await page.evaluate(() => (window as any).__agentcade.controller.chooseProvider('scripted'));
  }
  return code;
}

/** Types the parent PIN into the gate that is showing. */
export async function enterPin(page: Page, pin = PARENT_PIN): Promise<void> {
  await page.getByTestId('gate-pin').fill(pin);
  await page.getByTestId('gate-pin-ok').click();
}

/** A parent opens a grown-up screen: with the PIN unless the area is open already. */
export async function openGrownUp(page: Page, screen: 'settings' | 'studio' | 'trace'): Promise<void> {
  const tab = page.getByTestId(`nav-${screen}`);
  if (!(await tab.isVisible())) {
    // After a reload on a grown-up screen the gate is already asking (its code may still be loading).
    const app = page.locator('.app');
    await expect(app).toHaveAttribute('data-gate', /asking|closed/);
    if ((await app.getAttribute('data-gate')) === 'closed') await page.getByTestId('nav-grown-up').click();
    await expect(page.getByTestId('grown-up-gate')).toBeVisible();
    await enterPin(page);
    await expect(page.getByTestId('grown-up-gate')).toHaveCount(0);
  }
  await tab.click();
}
