import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

type Lab = { labTrace: { seedRound(o?: { text?: string; reveal?: boolean }): Promise<string> } };

async function open(page: Page) {
  await page.goto('/tests/lab/trace.html');
  await page.waitForSelector('body[data-ready="1"]');
}
const seed = (page: Page, o?: { text?: string; reveal?: boolean }) => page.evaluate((o) => (window as unknown as Lab).labTrace.seedRound(o), o);

test('a recorded round shows as a tree, persists across reload, exports and clears', async ({ page }) => {
  await open(page);
  await expect(page.getByText('还没有记录')).toBeVisible();
  await seed(page);

  const round = page.getByTestId('trace-round');
  await expect(round).toHaveCount(1);
  await expect(round).toContainText('第 1 轮');
  await expect(round).toContainText('我们来玩你画我猜吧');
  await round.locator('.round-head').click();
  // user → main agent → A2A request → game tools → replies → speech → device
  await expect(round.getByText('主 Agent', { exact: true })).toBeVisible();
  await round.locator('li.kind-main > .row .twisty').click();
  const request = round.locator('li.kind-a2a_request');
  await expect(request).toContainText('A2A 请求 → draw-guess（start）');
  await request.locator('> .row .twisty').click();
  const sections = request.locator('> ul > li.kind-group > .row .label');
  await expect(sections).toHaveText(['游戏工具', '回复', '播报', '设备']);
  // the request spans from sending (433 ms) to the end of its speech (3010 ms)
  await expect(request.locator('> .row .meta')).toContainText('2.6 秒');

  // the unrevealed answer is hidden; the API key was never stored
  const pick = request.locator('li.kind-group').first();
  await pick.locator('> .row .twisty').click();
  const tool = pick.locator('li.kind-game_tool');
  await expect(tool).toContainText('含未揭晓答案');
  await tool.locator('> .row .twisty').click();
  await expect(tool.locator('pre')).toContainText('［未揭晓］');
  await expect(page.locator('body')).not.toContainText('长颈鹿');
  await round.locator('li.kind-model_step > .row .twisty').click();
  await expect(round.locator('li.kind-model_step pre')).toContainText('［已隐藏］');
  await expect(page.locator('body')).not.toContainText('sk-lab-secret');

  // persisted
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await expect(page.getByTestId('trace-round')).toHaveCount(1);

  // a later round reveals the answer: the first round's secret is shown from then on
  await seed(page, { text: '是长颈鹿吗', reveal: true });
  await expect(page.getByTestId('trace-round')).toHaveCount(2);
  const first = page.getByTestId('trace-round').last(); // newest first
  await expect(first).toContainText('第 1 轮');
  await first.locator('.round-head').click();
  await first.locator('li.kind-main > .row .twisty').click();
  await first.locator('li.kind-a2a_request > .row .twisty').click();
  await first.locator('li.kind-a2a_request li.kind-group').first().locator('> .row .twisty').click();
  await first.locator('li.kind-game_tool > .row .twisty').click();
  await expect(first.locator('li.kind-game_tool pre')).toContainText('长颈鹿');

  // export round 2 only
  await page.getByLabel('导出起始轮').selectOption('2');
  await page.getByLabel('导出结束轮').selectOption('2');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出记录文件' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^agentcade-trace-\d{8}-\d{4}\.json$/);
  const doc = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(doc).toMatchObject({ format: 'agentcade-trace', version: 1, range: { from: 2, to: 2, total: 2 }, secretsShown: false });
  expect(doc.rounds.map((r: { text: string }) => r.text)).toEqual(['是长颈鹿吗']);
  expect(doc.rounds[0].events.map((e: { kind: string }) => e.kind)).toEqual(['user_input', 'model_step', 'main_tool', 'a2a_request', 'game_tool', 'device', 'reply', 'speech']);
  expect(JSON.stringify(doc)).not.toContain('sk-lab-secret');

  // clear
  await page.getByRole('button', { name: '清空记录' }).click();
  await page.getByRole('button', { name: '确定清空' }).click();
  await expect(page.getByText('还没有记录')).toBeVisible();
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await expect(page.getByTestId('trace-round')).toHaveCount(0);
});
