/**
 * What a parent sees of the brain: the status strip says the brain's last real state (连不上 once
 * a request failed, not the name of a brain that no longer answers), the model name is picked from
 * what 测试连接 found on the server, and an address without http:// is explained as an address.
 */
import { expect, test } from '@playwright/test';
import { childLines } from '../../src/core/errors/catalogue.ts';
import { startOpenAITestServer } from '../support/openai-test-server.ts';
import { openApp, spoken, type, useSlowDemoBrain, waitSpoken } from './support/child.ts';

test('the server goes away: a short outage is 「卡住了」, a lasting one sends the child to a grown-up, and the status strip says 连不上', async ({ page }) => {
  test.setTimeout(120_000);
  const server = await startOpenAITestServer();
  try {
    await openApp(page);
    await useSlowDemoBrain(page, server, 0);
    await expect(page.getByTestId('model-status')).toHaveText('大脑：家里的电脑（要联网）');
    await type(page, '你好');
    await waitSpoken(page, /你好呀/);
    await server.close();
    const escaped = (code: string) => new RegExp(childLines(code).map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
    // The first two failed rounds in a row: the robot is stuck, not the settings.
    for (const words of ['你是谁', '你喜欢什么颜色']) {
      const before = (await spoken(page)).length;
      await type(page, words);
      await waitSpoken(page, escaped('main_model_stuck'), before);
    }
    await expect(page.getByTestId('model-status')).toHaveText('大脑：家里的电脑（连不上）');
    // The third: the fault lasts, and the child is told to ask a grown-up.
    const before = (await spoken(page)).length;
    await type(page, '天空为什么是蓝的');
    await waitSpoken(page, escaped('model_remote_network'), before);
    await expect(page.getByTestId('model-status')).toHaveText('大脑：家里的电脑（连不上）');
    await expect(page.getByTestId('model-status')).toHaveClass(/bad/);
  } finally {
    await server.close().catch(() => undefined);
  }
});

test('测试连接 lists the models and the model name is picked from them', async ({ page }) => {
  const server = await startOpenAITestServer();
  try {
    await page.goto('/tests/lab/settings.html');
    await page.locator('input[name=provider][value=remote]').check();
    await page.getByLabel('接口地址').fill(server.baseUrl);
    await page.getByRole('button', { name: '测试连接' }).click();
    await expect(page.getByTestId('remote-connection')).toContainText('电脑上的模型：test-model');
    // Nothing typed yet: the server's first chat model is filled in (the one the test tried), the others offered.
    const list = page.getByTestId('remote-model-list');
    await expect(list).toHaveValue('test-model');
    await list.selectOption('test-model');
    await expect(list).toHaveValue('test-model');
    await page.getByRole('button', { name: '保存并使用' }).click();
    await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');
  } finally {
    await server.close();
  }
});

test('an address without http:// gets a message about the address, not about a model', async ({ page }) => {
  await page.goto('/tests/lab/settings.html');
  await page.locator('input[name=provider][value=remote]').check();
  await page.getByLabel('接口地址').fill('192.168.1.20:11434/v1');
  const problem = page.getByTestId('remote-problem');
  await expect(problem).toContainText('接口地址不是完整的网址');
  await expect(problem).toContainText('http://');
  await expect(problem).not.toContainText('模型编号');
  await expect(page.getByRole('button', { name: '保存并使用' })).toBeDisabled();
});
