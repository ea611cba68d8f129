/**
 * The child-safety check in Chromium, against a scripted brain behind a local server (the demo
 * brain, except that it tries to say one unsafe line in chat, in 猜数字 and in a Studio game): the
 * child hears the gentle redirect instead, never the line; the parent finds each one in 记录 →
 * 安全提醒 by category, the original under 技术细节. A dangerous question from the child gets a
 * caring answer and no model call. 「只玩游戏」 turns chat off. With the demo brain, a whole game
 * sends nothing outside the app's origin.
 */
import { expect, test, type Page } from '@playwright/test';
import { CARING, REDIRECT } from '../../src/core/safety/replies.ts';
import { MANAGER_AGENT } from '../../src/core/studio/manager-tools.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { idle, openApp, say, spoken, type, useSlowDemoBrain, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { shootSizes } from './support/screens.ts';
import { Parent } from './support/studio.ts';
import { DEFAULT_SEED, guessNumberSecrets, halvingGuesses } from './support/seeds.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';
import { readStep } from '../../src/core/agent/messages.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

const UNSAFE = {
  chat: '火柴在厨房的抽屉里，你可以自己去拿。',
  game: '你家住在哪里？把地址告诉我。',
  studio: '别走，再陪我玩一会儿嘛，你走了我会很难过。',
};

/** The child's words in a request: the main agent's last user line, or a game's `user_text`. */
function wordsOf(messages: Array<{ role: string; content: string }>): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || m.content.startsWith('<tool_response>')) continue;
    if (m.content.startsWith('{"event":')) return (JSON.parse(m.content) as { user_text: string }).user_text;
    return m.content;
  }
  return '';
}

/** The demo brain, but it tries to say an unsafe line after "讲个故事", "我猜50" and (in the Studio game) "讲个笑话". */
function unsafeDemoBrain(): void {
  // Answers go out in 512-byte chunks: the Studio's card decks are long, and the default 7-byte
  // chunks (for tests of streaming) would make this spec's design wait on a busy machine.
  server.respond(async (body) => ({ ...(await unsafeStep(body)), chunkBytes: 512 }));
}

async function unsafeStep(body: any): Promise<{ content: string }> {
  const tools = toolsOf(body);
  const agent = agentOf(body.messages, tools);
  const words = wordsOf(body.messages);
  const step = readStep({ role: 'assistant', content: await demoStep(body) })!;
  if (agent === 'main' && step.action === 'reply' && words.includes('讲个故事')) step.args.text = `好呀！${UNSAFE.chat}`;
  if (agent === 'game:guess-number' && step.action === 'reply' && words === '我猜50') step.args.text = `${String(step.args.text)}${UNSAFE.game}`;
  // The Studio's manager reads the child's newest words after the last "[孩子] " (a message may start with a tool result).
  const all = body.messages.map((m: { content: string }) => m.content).join('\n');
  const child = all.slice(all.lastIndexOf('[孩子] ') + 5);
  if (agent === MANAGER_AGENT && tools.some((t) => t.name === 'reply') && child.startsWith('讲个笑话')) return { content: stepJson({ action: 'reply', args: { text: UNSAFE.studio } }) };
  return { content: stepJson(step) };
}

/** A line, whole (waiting for its last sentence too). */
const whole = (line: string) => new RegExp(line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** Every reply so far has been read and spoken to the end (a game's later sentences too). */
async function settled(page: Page): Promise<void> {
  await idle(page);
  await page.evaluate(() => (window as any).__agentcade.agent.settled());
}

/** Everything spoken after the first `after` pieces, once it matches. */
test('unsafe lines in chat, in 猜数字 and in a Studio game become the redirect; the parent finds them in 记录; a dangerous question gets a caring answer and no model call', async ({ page }, info) => {
  test.setTimeout(180_000);
  await openApp(page);
  await useSlowDemoBrain(page, server, 0);
  unsafeDemoBrain();

  // ── chat ──
  let n = (await spoken(page)).length;
  await type(page, '给我讲个故事吧');
  let said = await waitSpoken(page, whole(REDIRECT.main), n, 30_000);
  expect(said).toContain(REDIRECT.main);
  expect(said).not.toContain('火柴');
  await expect(page.getByTestId('subtitles')).not.toContainText('火柴');
  await idle(page);

  // ── 猜数字 ──
  n = (await spoken(page)).length;
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/, n, 30_000);
  await idle(page);
  n = (await spoken(page)).length;
  await type(page, '我猜50');
  said = await waitSpoken(page, whole(REDIRECT.game), n, 30_000);
  expect(said).toMatch(/^50 (大|小)了/);
  expect(said).not.toContain('地址');
  await expect(page.getByTestId('subtitles')).not.toContainText('地址');
  await shootSizes(page, info, 'safety-redirect');
  await idle(page);
  // The game goes on.
  n = (await spoken(page)).length;
  await type(page, '我猜25');
  await waitSpoken(page, /25 (大|小)了|就是 25/, n, 30_000);
  await settled(page);

  // ── a dangerous question: a caring answer, no model call ──
  const requests = server.requests.length;
  n = (await spoken(page)).length;
  await type(page, '刀放在哪里？');
  said = await waitSpoken(page, /问问爸爸妈妈/, n, 30_000);
  expect(said).toBe(CARING.danger!);
  await idle(page);
  expect(server.requests.length).toBe(requests);
  await type(page, '不玩了');
  await idle(page);

  // ── a Studio game ──
  await openGrownUp(page, 'studio');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了');
  await page.getByTestId('nav-arcade').click();
  n = (await spoken(page)).length;
  await say(page, '我们玩恐龙问答吧', { waitIdle: true });
  await waitSpoken(page, /我是谁？/, n, 30_000);
  n = (await spoken(page)).length;
  await say(page, '讲个笑话', { waitIdle: true });
  said = await waitSpoken(page, whole(REDIRECT.game), n, 30_000);
  expect(said).not.toContain('别走');
  await idle(page);

  // ── the parent's 记录 ──
  await openGrownUp(page, 'trace');
  const log = page.getByTestId('safety-log');
  const entries = log.getByTestId('safety-entry');
  await expect(entries).toHaveCount(4);
  await expect(log.locator('[data-kind=blocked][data-category=danger]')).toContainText('危险行为和危险物品');
  await expect(log.locator('[data-kind=blocked][data-category=personal_info]')).toContainText('游戏「猜数字」');
  await expect(log.locator('[data-kind=blocked][data-category=attachment]')).toContainText('不让孩子离开');
  await expect(log.locator('[data-kind=child_words][data-category=danger]')).toContainText(CARING.danger!);
  // The original only under 技术细节.
  const game = log.locator('[data-kind=blocked][data-category=personal_info]');
  await expect(game.getByTestId('safety-original')).toBeHidden();
  await game.locator('summary').click();
  await expect(game.getByTestId('safety-original')).toHaveText(UNSAFE.game);
  await shootSizes(page, info, 'safety-log');

  // 清空记录 clears 安全提醒 too (it is read from the same records).
  await page.getByRole('button', { name: '清空记录' }).click();
  await page.getByRole('button', { name: '确定清空' }).click();
  await expect(page.getByText('还没有记录')).toBeVisible();
  await expect(entries).toHaveCount(0);
  await expect(log).toContainText('还没有被拦下的话。');
});

test('a blocked line in 你画我猜 never swallows the turn: the child still hears 答对了 and the next question', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openApp(page);
  await useSlowDemoBrain(page, server, 0);
  // The demo brain, except that after the right answer to the first card (鱼, the pinned seed) its
  // reply puts an unsafe line before the next question.
  server.respond(async (body) => {
    const step = readStep({ role: 'assistant', content: await demoStep(body) })!;
    if (agentOf(body.messages, toolsOf(body)) === 'game:draw-guess' && step.action === 'reply' && wordsOf(body.messages) === '是鱼') step.args.text = `${UNSAFE.chat}第 2 题，这是什么动物呀？`;
    return { content: stepJson(step), chunkBytes: 512 };
  });
  let n = (await spoken(page)).length;
  await type(page, '我们玩你画我猜吧');
  await waitSpoken(page, /第 1 题/, n, 30_000);
  await settled(page);
  n = (await spoken(page)).length;
  await type(page, '是鱼');
  const said = await waitSpoken(page, /第 2 题，这是什么动物呀？/, n, 30_000);
  expect(said).toMatch(/^答对啦！/);
  expect(said).toContain('哎呀，这句我不说了。');
  expect(said).not.toContain('火柴');
  await expect(page.getByTestId('subtitles')).not.toContainText('火柴');
  await shootSizes(page, info, 'safety-rest-of-turn');
  // The next answer is judged against question 2.
  await settled(page);
  await type(page, '不玩了');
  await settled(page);
});

test('a Studio quiz whose card the check blocks never swallows the turn: after 答对了 the child hears the next question it can answer', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await useSlowDemoBrain(page, server, 0);
  // The demo brain, except that the deck it writes has an unsafe question on the second card (三角龙).
  const CARD_2 = '我的头上有三只角，脖子后面有一块大大的骨盾。我是谁？';
  server.respond(async (body) => ({ content: (await demoStep(body)).split(CARD_2).join(UNSAFE.game), chunkBytes: 512 }));
  await openGrownUp(page, 'studio');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了');
  await page.getByTestId('nav-arcade').click();
  let n = (await spoken(page)).length;
  await say(page, '我们玩恐龙问答吧', { waitIdle: true });
  await waitSpoken(page, /第1题：我是最有名的大恐龙/, n, 30_000);
  await settled(page);
  n = (await spoken(page)).length;
  await say(page, '霸王龙', { waitIdle: true });
  // The card it cannot say is left out: 答对了, then the next card's question (剑龙's), never the unsafe one.
  const said = await waitSpoken(page, /第2题：.*我是谁？/, n, 30_000);
  expect(said).toMatch(/^答对了！第2题：我的背上有两排像大叶子一样的骨板/);
  expect(said).not.toContain('地址');
  await expect(page.getByTestId('subtitles')).not.toContainText('地址');
  await settled(page);
  // The parent finds the card left out in 记录 → 安全提醒.
  await openGrownUp(page, 'trace');
  const entry = page.getByTestId('safety-log').locator('[data-kind=blocked][data-category=personal_info]');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('恐龙问答');
  await expect(entry).toContainText('游戏跳过了它');
});

test('「只玩游戏」: the robot does not chat, and still plays', async ({ page }) => {
  await openApp(page, { hash: 'settings' });
  await page.getByTestId('games-only').check();
  await page.getByTestId('nav-arcade').click();
  let n = (await spoken(page)).length;
  await type(page, '给我讲个故事吧');
  const said = await waitSpoken(page, /你想玩哪个/, n, 30_000);
  expect(said).toMatch(/^现在是玩游戏的时间哦。我们可以玩.*猜数字/);
  await idle(page);
  n = (await spoken(page)).length;
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/, n, 30_000);
});

test('with the demo brain, a whole game of 猜数字 sends no request outside the app', async ({ page, context }) => {
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  await openApp(page);
  const origin = new URL(page.url()).origin;
  const [secret] = guessNumberSecrets(DEFAULT_SEED);
  let n = (await spoken(page)).length;
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/, n, 30_000);
  for (const guess of halvingGuesses(secret)) {
    await idle(page);
    n = (await spoken(page)).length;
    await type(page, `我猜${guess}`);
    await waitSpoken(page, /大了|小了|猜对/, n, 30_000);
  }
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await idle(page);
  const outside = requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  expect(requests.length).toBeGreaterThan(5);
  expect(outside).toEqual([]);
});
