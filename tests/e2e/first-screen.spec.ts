/**
 * The first screen by network measure (bench/bundle/network.ts) on a fresh profile: the child-safety
 * check's tables (pinyin and character normalization, the learned classifier's weights) are not
 * fetched before anyone touches the app, and the first touch fetches them (before any line is said).
 * The budget of the first screen's JavaScript is checked on the app's own build by bench/bundle
 * (`npm test` runs it): this build also holds the harness pages, which split the chunks differently.
 */
import { expect, test } from '@playwright/test';
import { measureByNetwork, pinFieldReady } from '../../bench/bundle/network.ts';

const SAFETY_TABLES = /\/assets\/(pinyin|safety-model)-[\w-]+\.js$/;

test('the safety tables are not part of the first screen; the first touch loads them', async ({ browser, baseURL, page }) => {
  const m = await measureByNetwork(browser, baseURL!, pinFieldReady);
  expect(m.firstScreen.files.some((f) => /\/assets\/main-[\w-]+\.js$/.test(f.path)), 'the app loaded its entry').toBe(true);
  expect(m.firstScreen.files.filter((f) => SAFETY_TABLES.test(f.path)).map((f) => f.path)).toEqual([]);

  await page.goto('/');
  await pinFieldReady(page);
  const tables = page.waitForRequest((r) => SAFETY_TABLES.test(new URL(r.url()).pathname));
  await page.getByTestId('setup-pin').click();
  await tables;
});
