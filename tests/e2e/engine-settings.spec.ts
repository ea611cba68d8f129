import { expect, test, type Page } from '@playwright/test';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { startDialectServer, type DialectServer } from '../support/dialect-servers.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

// 设置 for a tablet without WebGPU (this Chromium): the rules brain chosen automatically until the CPU
// engine was measured here; the CPU engine downloaded with progress and size, measured on this device
// (and then the automatic choice), used by the try-out, kept for offline; and a remote server set up from
// a preset, whose structured-output mode 测试连接 finds and the settings keep.

const MODEL = '/models/tiny-random.gguf';
const gguf = tinyGguf({ seed: 11 });
let files: FileServer;
let llamacpp: DialectServer;
let locked: DialectServer;
test.beforeAll(async () => {
  files = await startFileServer({ [MODEL]: gguf, '/models/page.gguf': new TextEncoder().encode('<!DOCTYPE html><html><body>hi</body></html>') });
  llamacpp = await startDialectServer('llamacpp-old');
  locked = await startDialectServer('lmstudio', 'test-model', undefined, { apiKey: 'sk-family', listedFirst: ['text-embedding-nomic-embed-text-v1.5'] });
});
test.afterAll(async () => {
  await files.close();
  await llamacpp.close();
  await locked.close();
});

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'portrait', width: 820, height: 1180 },
  { name: 'landscape', width: 1180, height: 820 },
];

async function shots(page: Page, name: string, outputPath: (n: string) => string) {
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.screenshot({ path: outputPath(`${name}-${v.name}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1180, height: 820 });
}

test('the CPU engine from 设置: not the automatic choice before it was measured; downloaded with its size, measured here, answers, loads again by itself', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.goto('/tests/lab/settings.html');
  await expect(page.getByTestId('engine-choice')).toContainText('这台设备适合：规则大脑');
  await page.locator('input[name=provider][value=cpu]').check();
  const panel = page.getByTestId('cpu-panel');
  await expect(panel.getByTestId('cpu-probe')).toContainText('这个浏览器可以在处理器上运行大脑');
  await expect(panel).toContainText('比显卡慢很多');
  await expect(panel.getByRole('combobox', { name: '大脑的大小' })).toContainText('小号慢速大脑（推荐，下载约 491 MB');
  // Developer words only under 技术细节: the model's name and format are there, not in the panel.
  await expect(panel).not.toContainText(/Qwen|GGUF|Q4_K_M|llama\.cpp|WebGPU|CPU/);
  await page.getByTestId('brain-tech').getByText('技术细节').click();
  await expect(page.getByTestId('brain-tech')).toContainText('Qwen2.5-0.5B（GGUF Q4_K_M）');
  await shots(page, 'cpu-not-downloaded', (n) => info.outputPath(n));

  // A self-hosted GGUF (here: the tiny test model).
  await panel.getByText('自备的大脑文件地址（可选）').click();
  // A web page at the address is not a model: refused before anything is let go, saying why.
  await panel.getByLabel('大脑文件的地址').fill(files.url('/models/page.gguf'));
  await panel.getByRole('button', { name: '保存大脑文件地址' }).click();
  await expect(panel.getByTestId('cpu-state')).toContainText('这不是能用的模型文件，原来的大脑照常用（这是一个网页（HTML），不是模型文件');
  await panel.getByLabel('大脑文件的地址').fill(files.url(MODEL));
  await panel.getByRole('button', { name: '保存大脑文件地址' }).click();
  await panel.getByRole('button', { name: '下载并加载慢速大脑' }).click();
  // Loaded, one step answered in the step format, then measured (a step per thread count): on a busy machine this takes a while.
  await expect(panel.getByTestId('cpu-state')).toHaveText('状态：已可离线使用', { timeout: 90_000 });
  // Named for what is really loaded: the self-hosted file.
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：本机自备的慢速大脑');
  await expect(page.getByTestId('brain-tech')).toContainText(`GGUF 文件 ${files.url(MODEL)}`);
  await expect(page.getByTestId('cpu-details')).toContainText(/多线程|单线程/);
  // Measured on this device (the tiny test model is fast): its wait fits, so it is now the automatic choice too.
  await expect(panel.getByTestId('cpu-measured')).toContainText(/在这台设备上测过：孩子说完话后，每轮要等(不到 1 秒|约 \d+ 秒)才有回答，在每轮 20 秒的时限以内。/);
  await expect(page.getByTestId('engine-choice')).toContainText('这台设备适合：本机慢速大脑');

  await page.getByLabel('对“大脑”说一句').fill('你是谁？');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-result')).toContainText('回答：');
  await expect(page.getByTestId('cpu-details')).toContainText('生成');
  await shots(page, 'cpu-ready', (n) => info.outputPath(n));

  // Next start: the model on this device is loaded again without a press, and no download happens.
  const downloads = files.requests.filter((r) => r.method === 'GET').length;
  await page.reload();
  await expect(page.getByTestId('cpu-state')).toHaveText('状态：已可离线使用');
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：本机自备的慢速大脑');
  expect(files.requests.filter((r) => r.method === 'GET').length).toBe(downloads);
});

test('a remote server from a preset: 测试连接 lists its models and finds its output mode, kept after a reload', async ({ page }, info) => {
  await page.goto('/tests/lab/settings.html');
  await page.locator('input[name=provider][value=remote]').check();
  // The home computer's programs get the guide's advice for this page: Ollama lets exactly this page in, not every page.
  await page.getByLabel('服务器类型').selectOption({ label: 'Ollama' });
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('remote-preset-note')).toContainText(`OLLAMA_ORIGINS=${origin} ollama serve`);
  await expect(page.getByLabel('接口地址')).toHaveValue('http://localhost:11434/v1');
  await page.getByLabel('服务器类型').selectOption({ label: 'llama.cpp 服务器（llama-server）' });
  await expect(page.getByLabel('接口地址')).toHaveValue('http://localhost:8080/v1');
  await expect(page.getByTestId('remote-preset-note')).toContainText('llama-server');
  await expect(page.getByTestId('remote-mode')).toContainText('尚未检测');
  await page.getByLabel('接口地址').fill(llamacpp.baseUrl);
  await page.getByLabel('模型名称').fill('test-model');
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByTestId('remote-connection')).toContainText('连上了！电脑上的模型：test-model、test-model-large');
  await expect(page.getByTestId('remote-mode')).toContainText('结构化输出方式：llama.cpp 语法（GBNF）');
  // The model is now picked from the server's list.
  await expect(page.getByTestId('remote-model-list')).toHaveValue('test-model');
  await page.getByRole('button', { name: '保存并使用' }).click();
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-result')).toHaveText('回答：你好呀！');
  expect(llamacpp.requests.at(-1)!.body.grammar).toMatch(/^root ::= /);
  await shots(page, 'remote-mode', (n) => info.outputPath(n));

  await page.reload();
  await expect(page.getByTestId('remote-mode')).toContainText('llama.cpp 语法（GBNF）');
});

test('a server that wants a key: 需要密钥 is the headline and nothing is saved until the key works; its embedding model is not offered', async ({ page }) => {
  await page.goto('/tests/lab/settings.html');
  await page.locator('input[name=provider][value=remote]').check();
  // A cloud service needs a key: with none, 保存并使用 cannot save.
  await page.getByLabel('服务器类型').selectOption({ label: 'OpenAI 兼容的云服务' });
  await page.getByLabel('接口地址').fill(locked.baseUrl);
  await page.getByLabel('模型名称').fill('test-model');
  await expect(page.getByTestId('remote-problem')).toContainText('需要密钥');
  await expect(page.getByTestId('save-remote')).toBeDisabled();
  // Its advice is its own: no other program's settings.
  await expect(page.getByTestId('remote-preset-note')).not.toContainText('OLLAMA');

  // LM Studio behind a key: it lists its models to anyone, and answers only with the key.
  await page.getByLabel('服务器类型').selectOption({ label: 'LM Studio' });
  await page.getByLabel('接口地址').fill(locked.baseUrl);
  await page.getByLabel('模型名称').fill('');
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByTestId('remote-connection-headline')).toHaveText(/^需要密钥：127\.0\.0\.1:\d+ 要 API 密钥才让用。$/);
  await expect(page.getByTestId('remote-connection')).not.toContainText('OLLAMA_ORIGINS');
  await expect(page.getByTestId('remote-problem')).toContainText('需要密钥');
  await expect(page.getByTestId('save-remote')).toBeDisabled();
  // Chat models only, the server's first chat model picked (its embedding model, listed first, is left out).
  await expect(page.getByTestId('remote-model-list')).toHaveValue('test-model');
  await expect(page.getByTestId('remote-model-list').locator('option')).toHaveText(['test-model', 'test-model-large']);
  await expect(page.getByTestId('active-model')).not.toContainText('test-model');

  // The right key: connected, the mode found, and now it can be saved and used.
  await page.getByLabel(/API 密钥/).fill('sk-family');
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByTestId('remote-connection-headline')).toHaveText('连上了！电脑上的模型：test-model、test-model-large（另有 1 个不能聊天的模型没有列出）');
  await expect(page.getByTestId('save-remote')).toBeEnabled();
  await page.getByTestId('save-remote').click();
  await expect(page.getByTestId('active-model')).toHaveText('正在使用：远程接口：test-model');
  await page.getByRole('button', { name: '试一步', exact: true }).click();
  await expect(page.getByTestId('try-result')).toContainText('回答：');
});
