import { expect, test } from '@playwright/test';

test('the app shell loads with its Chinese title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('机器人游戏厅');
});
