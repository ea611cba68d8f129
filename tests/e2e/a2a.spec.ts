import { expect, test } from '@playwright/test';

// The lab page runs the echo test game in a real module Web Worker and talks to it through the
// SDK Client over the MessagePort transport; everything is checked on what the page shows.
test('start, message and end reach a game worker over A2A and the replies appear on the page', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/tests/lab/a2a.html');
  const log = page.getByRole('list', { name: '回复' });

  await page.getByRole('button', { name: '开始' }).click();
  await expect(log).toContainText('最终回复：开始啦！你说一句，我学一句。（active）');

  await page.getByPlaceholder('要说的话').fill('小猫咪');
  await page.getByRole('button', { name: '发送' }).click();
  await expect(log).toContainText('中间回复：收到第1条消息。（active）');
  await expect(log).toContainText('最终回复：你说：小猫咪（active）');

  // A slow turn is in flight when `end` arrives: the turn is cancelled, then the session ends.
  await page.getByPlaceholder('要说的话').fill('慢慢说');
  await page.getByRole('button', { name: '发送' }).click();
  await expect(log).toContainText('中间回复：收到第2条消息。（active）');
  await page.getByRole('button', { name: '结束' }).click();
  await expect(log).toContainText('已取消');
  await expect(log).toContainText('最终回复：本局结束，一共收到2条消息。（ended）');
  await expect(page.locator('#status')).toHaveText('空闲');
  expect(errors).toEqual([]);
});
