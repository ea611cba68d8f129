import { expect, test, type Page } from '@playwright/test';
import type { SpeechFakeOptions } from './fakes/speech-fake.ts';
import { installWorkerWatch } from './fakes/worker-watch.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { chooseHandsFree, idle, micTimeline, openApp, say, sayHandsFree, spoken, type, useRemoteBrain, useSlowDemoBrain, waitSpoken, watchGameRequests } from './support/child.ts';
import { DEFAULT_SEED, guessNumberSecrets } from './support/seeds.ts';
import { openGrownUp } from './support/parent.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { deferred } from '../support/deferred.ts';

// Every seed is pinned (openApp): 猜数字 thinks of this number (63), so every answer is known; the
// guesses below (50, then halving: 75, 62) are all wrong for it, so no game ends by chance.
const [SECRET] = guessNumberSecrets(DEFAULT_SEED);
/** What the demo game says to a wrong guess `n` (first words of its answer). */
const wrong = (n: number) => `${n} ${n > SECRET ? '大了' : '小了'}`;

const open = (page: Page, speech: SpeechFakeOptions = {}) => openApp(page, { speech });

// A remote brain for the tests that need a slow one (the demo brain behind a local server).
let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

test('a child says "我们玩猜数字吧", plays, and says "不玩了"', async ({ page }, info) => {
  await open(page);
  await page.screenshot({ path: info.outputPath('arcade-idle.png') });

  await say(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了一个 1 到 100 的数字/);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
  await expect(page.getByTestId('subtitles')).toContainText('我们玩猜数字吧');
  // The round is over once the first reply is spoken: the mic can listen again.
  await idle(page);

  // The robot's seed at start, then the game worker's: both pinned.
  expect(await page.evaluate(() => (window as any).__seeds.drawn)).toEqual([DEFAULT_SEED, DEFAULT_SEED]);

  let n = (await spoken(page)).length;
  await say(page, '我猜50');
  await waitSpoken(page, new RegExp(`${wrong(50)}！.*还有 6 次机会`), n);
  await idle(page);
  await page.screenshot({ path: info.outputPath('arcade-playing.png') });

  n = (await spoken(page)).length;
  await say(page, '不玩了');
  await waitSpoken(page, new RegExp(`答案是 ${SECRET}`), n);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  // Each side's words are on screen as subtitles.
  await expect(page.locator('[data-who=child]')).toHaveCount(3);
  await expect(page.locator('[data-who=game]').first()).toBeVisible();
});

test('chat while idle: the main agent answers itself, no game starts', async ({ page }) => {
  await open(page);
  await say(page, '你好');
  await waitSpoken(page, /你好呀！我是小方/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  // "再说一遍" repeats the last sentence verbatim.
  await idle(page);
  await type(page, '再说一遍');
  const robot = page.locator('[data-who=robot]');
  await expect(robot).toHaveCount(2);
  expect(await robot.nth(1).textContent()).toBe(await robot.nth(0).textContent());
  await expect(robot.nth(1)).toContainText('你好呀！我是小方');
});

test('a message while the game is still busy gets "请稍等"', async ({ page }) => {
  await open(page);
  // A slow brain: the game is still drawing after its first sentence.
  await useSlowDemoBrain(page, server, 1500);
  await type(page, '我们玩你画我猜吧');
  await waitSpoken(page, /我来画一个小动物/);
  await expect(page.getByTestId('current-game')).toContainText('游戏在想');
  await type(page, '是小猫吗');
  await waitSpoken(page, /请稍等/);
  // The game was not interrupted: its question still comes.
  await waitSpoken(page, /这是什么动物/);
  await expect(page.getByTestId('current-game')).not.toContainText('游戏在想');
});

test('你画我猜: while the robot thinks about an answer the drawing stays on screen with a small thinking sign', async ({ page }, info) => {
  await open(page);
  // The demo brain, except that once the game is on, the main agent's model waits until the test lets it go.
  let gate: Promise<void> | null = null;
  const release = deferred();
  server.respond(async (body) => {
    if (gate && agentOf(body.messages, toolsOf(body)) === 'main') await gate;
    return { content: await demoStep(body) };
  });
  await useRemoteBrain(page, server.baseUrl, 'demo-brain');
  const robot = page.getByTestId('on-screen-robot');
  let n = (await spoken(page)).length;
  await type(page, '我们玩你画我猜吧');
  await waitSpoken(page, /第 1 题，这是什么动物呀？/, n);
  await idle(page);
  await page.evaluate(() => (window as any).__agentcade.agent.settled());
  await expect(robot).toHaveAttribute('data-screen', 'drawing');
  // A question for the robot itself: its model answers (held here), and the robot thinks meanwhile.
  gate = release.promise;
  n = (await spoken(page)).length;
  await type(page, '你叫什么名字呀');
  await expect(robot).toHaveAttribute('data-sign', 'thinking');
  await expect(page.getByTestId('thinking-sign')).toBeVisible();
  await expect(robot).toHaveAttribute('data-screen', 'drawing');
  await expect(robot).toHaveAttribute('data-face', '');
  await page.screenshot({ path: info.outputPath('draw-guess-thinking-sign.png') });
  release.resolve();
  await waitSpoken(page, /小方/, n);
  await idle(page);
  await expect(robot).toHaveAttribute('data-sign', '');
  await expect(robot).toHaveAttribute('data-screen', 'drawing');
});

test('a game worker killed mid-turn: a spoken error, and the app keeps working', async ({ page }) => {
  await page.addInitScript(installWorkerWatch);
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await useSlowDemoBrain(page, server, 2000);
  await type(page, '我猜50');
  await expect(page.getByTestId('current-game')).toContainText('游戏在想');
  expect(await page.evaluate(() => (window as any).__gameWorkers.crash('guess-number'))).toBe(true);
  await waitSpoken(page, /游戏突然停下来了/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await useSlowDemoBrain(page, server, 0);
  // Still working: chat, and a fresh game.
  const n = (await spoken(page)).length;
  await type(page, '你好');
  await waitSpoken(page, /你好呀/, n);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/, n + 1);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});

test('tap a game card to play; tap anywhere stops the talking', async ({ page }) => {
  await open(page, { msPerChar: 400 });
  await page.locator('[data-testid=game-card][data-game=guess-number]').click();
  await expect(page.getByTestId('speaking-now')).toContainText('我想好了');
  const cancels = await page.evaluate(() => (window as any).__speech.cancels);
  await page.getByTestId('subtitles').click();
  await expect.poll(() => page.evaluate(() => (window as any).__speech.cancels)).toBeGreaterThan(cancels);
  await expect(page.getByTestId('speaking-now')).toHaveCount(0);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});

test('no Chinese voice and a denied mic: clear messages, subtitles and the text box still work', async ({ page }, info) => {
  await open(page, { voices: 'none', micDenied: true });
  await expect(page.getByTestId('voice-status')).toContainText('无中文语音');
  await page.getByTestId('mic-button').click();
  await expect(page.getByTestId('speech-note')).toContainText('麦克风没有被允许');
  await expect(page.getByTestId('speech-note')).toContainText('字幕');
  await type(page, '你好');
  await expect(page.getByTestId('subtitles')).toContainText('你好呀！我是小方');
  await page.screenshot({ path: info.outputPath('arcade-no-voice.png') });
});

test('screens: settings and trace', async ({ page }, info) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await openGrownUp(page, 'settings');
  await expect(page.getByTestId('voice-settings')).toBeVisible();
  await page.screenshot({ path: info.outputPath('settings.png'), fullPage: true });
  await openGrownUp(page, 'trace');
  await page.waitForTimeout(500);
  await page.screenshot({ path: info.outputPath('trace.png') });
  await openGrownUp(page, 'studio');
  await page.screenshot({ path: info.outputPath('studio.png') });
  await page.getByTestId('nav-arcade').click();
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});

test('hands-free: after one tap the mic listens again by itself after each answer, never while speaking', async ({ page }, info) => {
  await open(page);
  await chooseHandsFree(page);
  await expect(page.getByTestId('mic-button')).toHaveAttribute('aria-label', '开始听');
  await page.getByTestId('mic-button').click(); // the only tap
  await sayHandsFree(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了一个 1 到 100 的数字/);
  // The child plays three turns just by talking, halving the range on the game's answers (all wrong
  // for the pinned number, so the game goes on).
  for (const guess of [50, 75, 62]) {
    const n = (await spoken(page)).length;
    await sayHandsFree(page, `我猜${guess}`);
    await waitSpoken(page, new RegExp(wrong(guess)), n);
  }
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
  await expect.poll(() => page.evaluate(() => (window as any).__speech.listening())).toBe(true);
  await page.screenshot({ path: info.outputPath('arcade-hands-free.png') });
  let t = await micTimeline(page);
  expect(t.overlaps, t.events.join('\n')).toEqual([]);
  // Stopped for each of the robot's answers and listening again after it: start + 3 guesses.
  expect(t.resumed).toBeGreaterThanOrEqual(4);

  // A game that speaks again after the round is over (你画我猜 draws, then asks): the mic, listening
  // again after the first sentence, must stop for the second one too.
  let n = (await spoken(page)).length;
  await sayHandsFree(page, '不玩了');
  await waitSpoken(page, /下次再来玩|这局先玩到这里/, n);
  await useSlowDemoBrain(page, server, 1500);
  n = (await spoken(page)).length;
  await sayHandsFree(page, '我们玩你画我猜吧');
  await waitSpoken(page, /我来画一个小动物/, n);
  await waitSpoken(page, /这是什么动物/, n);
  await expect.poll(() => page.evaluate(() => (window as any).__speech.listening())).toBe(true);
  t = await micTimeline(page);
  expect(t.overlaps, t.events.join('\n')).toEqual([]);
  const ask = t.events.findIndex((e) => e.startsWith('say-start:') && e.includes('这是什么动物'));
  expect(t.events.slice(ask).includes('mic-on')).toBe(true);
});

test('"大声点" during a game: the voice gets louder at once, the game is sent nothing', async ({ page }) => {
  await open(page);
  // A parent had set the volume lower (the settings slider).
  await page.evaluate(() => (window as any).__agentcade.updateSpeechSettings({ volume: 0.6 }));
  await say(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await idle(page);
  const requests = await watchGameRequests(page);

  let n = (await spoken(page)).length;
  await say(page, '大声点');
  await waitSpoken(page, /好的，我大声一点。/, n);
  const utterances = await page.evaluate(() => (window as any).__speech.utterances);
  expect(utterances.at(-1)).toMatchObject({ text: '好的，我大声一点。', volume: 0.8 });
  expect(await requests()).toEqual([]);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('agentcade.speech-settings') ?? '{}'));
  expect(saved.volume).toBe(0.8);
  await idle(page);

  // At the top it says so, and still sends nothing.
  n = (await spoken(page)).length;
  await say(page, '声音大一点');
  await waitSpoken(page, /好的，我大声一点。/, n);
  await idle(page);
  n = (await spoken(page)).length;
  await say(page, '大声一点');
  await waitSpoken(page, /已经最大声啦。/, n);
  expect(await requests()).toEqual([]);
  await idle(page);

  // The game kept its turn: the next guess is the next thing it hears, answered at the new volume.
  n = (await spoken(page)).length;
  await say(page, '我猜50');
  await waitSpoken(page, new RegExp(wrong(50)), n);
  expect(await requests()).toEqual([{ gameId: 'guess-number', kind: 'message', text: '我猜50' }]);
  const last = (await page.evaluate(() => (window as any).__speech.utterances)).at(-1);
  expect(last.volume).toBe(1);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');
});
