import { expect, test } from '@playwright/test';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { toolsOf } from '../support/demo-brain-server.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';

// The model settings screen (tests/lab/settings.html mounts src/ui/settings/ModelSettings.svelte over
// the app's model hub). This Chromium has no usable GPU, like the CI machines.

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

test('without WebGPU the settings screen says so and offers the CPU engine or the remote API', async ({ page }) => {
  await page.goto('/tests/lab/settings.html');
  // The automatic choice on this machine (no GPU, a browser that runs the CPU engine, not measured yet): the rules brain.
  await expect(page.getByTestId('engine-choice')).toContainText('这台设备适合：规则大脑');
  await expect(page.getByTestId('engine-choice')).toContainText('没有可用的显卡');
  await expect(page.getByTestId('engine-choice')).toContainText('要先在这台设备上测过够快才会用它');
  await expect(page.getByRole('radio', { name: /自动选择/ })).toBeChecked();
  await page.getByRole('radio', { name: /本机慢速大脑（/ }).check();
  await expect(page.getByTestId('cpu-state')).toHaveText('状态：未下载');
  await page.getByRole('radio', { name: /本机大脑（用显卡/ }).check();
  const alert = page.getByTestId('no-webgpu');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('不能在本机用显卡运行大脑');
  await expect(page.getByTestId('webgpu-probe')).toContainText('这台设备不能用显卡运行大脑');
  await expect(page.getByTestId('local-state')).toHaveText('状态：本机不能运行模型');
  await expect(page.getByRole('button', { name: '下载并加载', exact: true })).toBeDisabled();
  await expect(alert.getByRole('button', { name: '改用本机慢速大脑' })).toBeVisible();
  await expect(alert.getByRole('button', { name: '用规则大脑玩' })).toBeVisible();
  await alert.getByRole('button', { name: '用家里的电脑当大脑' }).click();
  await expect(page.getByLabel('接口地址')).toBeVisible();
  await expect(page.locator('input[name=provider][value=remote]')).toBeChecked();
});

test('an agent step round-trips through the remote API (test server), in the page and from a worker', async ({ page }) => {
  let n = 0;
  // 测试连接 probes the output mode with its own small step (a greeting); steps answer with a reply.
  server.respond((body) =>
    toolsOf(body).some((t) => t.name === 'greet')
      ? { content: '{"greet":{"text":"你好"}}' }
      : { content: stepJson({ action: 'reply', args: { text: `你好呀，我是测试服务器（第${++n}次）` } }), chunkBytes: 5 },
  );
  await page.goto('/tests/lab/settings.html');
  await page.locator('input[name=provider][value=remote]').check();
  await page.getByLabel('接口地址').fill(server.baseUrl);
  await page.getByLabel('模型名称').fill('test-model');
  await page.getByLabel('API 密钥（可不填）').fill('sk-test');
  await page.getByRole('button', { name: '保存并使用' }).click();
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');

  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByTestId('remote-connection')).toContainText('连上了！电脑上的模型：test-model');
  await expect(page.getByTestId('remote-mode')).toContainText('结构化输出方式：JSON Schema（严格）');

  await page.getByLabel('对“大脑”说一句').fill('你是谁？');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-result')).toHaveText('回答：你好呀，我是测试服务器（第1次）');
  const sent = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
  expect(sent.headers.authorization).toBe('Bearer sk-test');
  expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: '你是谁？' });
  expect(Object.keys(sent.body.response_format.json_schema.schema.anyOf[0].properties)).toEqual(['reply']);

  // The same hub serves a worker through a MessagePort (as game agents do).
  await page.getByRole('button', { name: '从工作线程试一步' }).click();
  await expect(page.getByTestId('worker-result')).toHaveText('工作线程收到回答：你好呀，我是测试服务器（第2次）（远程接口：test-model）');

  // The choice persists across a reload.
  await page.reload();
  await expect(page.locator('input[name=provider][value=remote]')).toBeChecked();
  await expect(page.getByLabel('接口地址')).toHaveValue(server.baseUrl);
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');
});

test('a failing remote API is reported clearly, not silently', async ({ page }) => {
  server.respond(() => ({ status: 500, body: JSON.stringify({ error: { message: 'out of VRAM' } }) }));
  await page.goto('/tests/lab/settings.html');
  await page.locator('input[name=provider][value=remote]').check();
  await page.getByLabel('接口地址').fill(server.baseUrl);
  await page.getByLabel('模型名称').fill('test-model');
  await page.getByRole('button', { name: '保存并使用' }).click();
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-error')).toContainText('远程接口返回错误');
  await expect(page.getByTestId('try-error')).toContainText('HTTP 500');
  await expect(page.getByTestId('try-error')).toContainText('out of VRAM');
});

test('the demo script is chosen only explicitly and named honestly', async ({ page }) => {
  await page.goto('/tests/lab/settings.html');
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：未选择模型');
  await page.getByRole('radio', { name: '规则大脑（不用下载）' }).check();
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：规则大脑（不用模型）');
  await page.getByLabel('对“大脑”说一句').fill('你好');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-result')).toHaveText('回答：（规则大脑）你说的是：“你好”');
});

test('the model worker loads in Chromium and builds the bounded-whitespace grammar for a step', async ({ page }) => {
  await page.goto('/tests/lab/settings.html');
  const ebnf = await page.evaluate(() =>
    (globalThis as unknown as { __llmWorkerGrammar: (t: unknown) => Promise<string> }).__llmWorkerGrammar([
      { name: 'submit_guess', description: '猜', parameters: { type: 'object', properties: { number: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['number'] } },
      { name: 'reply', description: '回答', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    ]),
  );
  expect(ebnf).toMatch(/^root ::= /m);
  expect(ebnf).toContain('"\\"submit_guess\\""');
  expect(ebnf).toContain('[ \\n\\t]{0,2}'); // whitespace bounded
});
