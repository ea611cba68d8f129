/**
 * Remote game agents in real Chromium, against the reference remote game agent (examples/remote-game)
 * started by the test on loopback: a grown-up adds it by address in 设置 → 远程游戏, the arcade shows
 * it with 「来自 <host>」, the child starts it by voice, plays and ends it; a server killed mid-game, a
 * server that stalls, and cards that must be refused (seed 000 §A2A 映射, §出错处理).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { ANIMALS, seeded } from '../../examples/remote-game/game.ts';
import { animalSoundsLogic, startRemoteGameServer, type GameLogic, type RunningServer } from '../../examples/remote-game/server.ts';
import { serveCards, type CardServer } from '../support/a2a/card-server.ts';
import { idle, openApp, say, spoken, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'portrait', width: 820, height: 1180 },
  { name: 'landscape', width: 1180, height: 820 },
];

const closers: Array<() => Promise<void>> = [];
test.afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function serve(opts: { port?: number; game?: GameLogic; basePath?: string } = {}): Promise<RunningServer> {
  const s = await startRemoteGameServer({ port: opts.port ?? 0, seed: 3, ...opts });
  closers.push(() => s.close());
  return s;
}

/** 猜动物叫声, except that "慢慢想" makes a turn that never ends (after saying `first`, when given). */
function slowOn(first?: string): GameLogic {
  const game = animalSoundsLogic(seeded(3));
  return {
    play(t) {
      if (!t.text.includes('慢慢想')) return game.play(t);
      if (first) t.say(first);
      return new Promise((_r, rej) => t.signal.addEventListener('abort', () => rej(t.signal.reason)));
    },
  };
}

async function addGame(page: Page, address: string): Promise<void> {
  await openGrownUp(page, 'settings');
  await page.getByTestId('remote-address').fill(address);
  await page.getByTestId('remote-add').click();
}

async function shoot(page: Page, info: TestInfo, name: string, target?: () => Promise<void>): Promise<void> {
  const size = page.viewportSize();
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await target?.();
    await page.screenshot({ path: info.outputPath(`${name}-${v.name}.png`), fullPage: false });
  }
  if (size) await page.setViewportSize(size);
}

const card = (page: Page) => page.locator('[data-testid="game-card"][data-game="animal-sounds"]');

test('a grown-up adds a remote game by address; the child starts it by voice, plays and ends it', async ({ page }, info) => {
  const server = await serve();
  const host = new URL(server.url).host;
  await openApp(page, { hash: 'settings' });
  await addGame(page, server.url);
  await expect(page.getByTestId('remote-added')).toContainText('已添加「猜动物叫声」');
  const row = page.locator('[data-testid="remote-game"][data-game="animal-sounds"]');
  await expect(row.getByTestId('remote-status')).toHaveText('可以玩');
  await expect(row).toContainText(`来自 ${host}`);
  await expect(row).toContainText('也可以叫：听声音猜动物、动物叫声、猜叫声');
  await shoot(page, info, 'remote-settings', () => row.scrollIntoViewIfNeeded());

  await page.getByTestId('nav-arcade').click();
  await expect(card(page)).toBeVisible();
  await expect(card(page).getByTestId('game-origin')).toHaveText(`来自 ${host}`);
  await expect(card(page)).toHaveAttribute('aria-disabled', 'false');
  await shoot(page, info, 'remote-arcade', () => card(page).scrollIntoViewIfNeeded());

  await say(page, '我们玩猜动物叫声吧');
  await waitSpoken(page, /我们来玩猜动物叫声！一共3题。第1题，听好啦：/);
  await expect(page.getByTestId('current-game')).toContainText('猜动物叫声');
  await expect(card(page).locator('.badge')).toHaveText('正在玩');

  // Answer the first question right: the reply streams in two sentences (答对啦, then the next one).
  const heard = (await spoken(page)).join('');
  const animal = ANIMALS.find((a) => heard.includes(a.sound));
  expect(animal, heard).toBeDefined();
  const before = (await spoken(page)).length;
  await say(page, `是${animal!.names[0]}`, { waitIdle: true });
  await waitSpoken(page, new RegExp(`答对啦！就是${animal!.name}。.*第2题，听好啦`), before);

  await say(page, '不玩了', { waitIdle: true });
  await waitSpoken(page, /不玩啦。这一局你答对了1题/);
  await expect(page.getByTestId('current-game')).toBeHidden();
  await idle(page);
});

test('the server is killed mid-game: the child is told, the session cleared, the card greyed, and back by itself', async ({ page }) => {
  const first = await serve({ game: slowOn('让我想想……') });
  const port = Number(new URL(first.url).port);
  await openApp(page, { hash: 'settings' });
  await addGame(page, first.url);
  await expect(page.getByTestId('remote-added')).toBeVisible();
  await page.getByTestId('nav-arcade').click();

  await card(page).click(); // start by tap
  await waitSpoken(page, /我们来玩猜动物叫声/);
  await say(page, '我慢慢想', { waitIdle: true });
  await waitSpoken(page, /让我想想……/);
  await first.close();

  await waitSpoken(page, /游戏那边连不上了，可能是放游戏的电脑关掉了。/);
  await expect(page.getByTestId('current-game')).toBeHidden();
  await expect(card(page)).toHaveAttribute('aria-disabled', 'true');
  await expect(card(page)).toContainText(`连不上放这个游戏的电脑（127.0.0.1:${port}）`);

  // Tapping the greyed card says why instead of starting it.
  await idle(page);
  const before = (await spoken(page)).length;
  await card(page).click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
  await waitSpoken(page, /猜动物叫声现在还不能玩：连不上放这个游戏的电脑/, before);

  // The server comes back: so does the game, with nobody touching anything.
  await serve({ port, game: slowOn('让我想想……') });
  await expect(card(page)).toHaveAttribute('aria-disabled', 'false', { timeout: 40_000 });
});

test('a server that stalls: after the wait the child hears the game is stuck, the game goes on', async ({ page }) => {
  const server = await serve({ game: slowOn() });
  await openApp(page, { hash: 'settings' });
  await addGame(page, server.url);
  await expect(page.getByTestId('remote-added')).toBeVisible();
  const wait = page.getByTestId('remote-wait');
  await wait.fill('3');
  await wait.blur();
  await page.getByTestId('nav-arcade').click();

  await say(page, '玩猜动物叫声');
  await waitSpoken(page, /我们来玩猜动物叫声/);
  await say(page, '我要慢慢想', { waitIdle: true });
  await expect(page.getByTestId('current-game')).toContainText('游戏在想');
  await waitSpoken(page, /游戏那边好像卡住了/);
  // A failed `message` keeps the session (seed 000 §出错处理).
  await expect(page.getByTestId('current-game')).toContainText('猜动物叫声');
  await expect(page.getByTestId('current-game')).not.toContainText('游戏在想');
  await say(page, '不玩了', { waitIdle: true });
  await waitSpoken(page, /不玩啦/);
  await expect(page.getByTestId('current-game')).toBeHidden();
});

test('cards the arcade must refuse are refused, each with its reason and the technical detail', async ({ page }, info) => {
  const good = await serve();
  const base = JSON.parse(JSON.stringify(good.card));
  const variant = (patch: (c: any) => void) => {
    const c = JSON.parse(JSON.stringify(base));
    patch(c);
    return c;
  };
  const cards: CardServer = await serveCards({
    '/no-tag': variant((c) => (c.skills[0].tags = ['capability:voice'])),
    '/not-streaming': variant((c) => (c.capabilities.streaming = false)),
  });
  closers.push(() => cards.close());
  // A server whose folder names another game than its card's skill id.
  const misnamed = await serve({ basePath: '/other-game' });

  await openApp(page, { hash: 'settings' });
  const refusal = page.getByTestId('remote-refusal');
  const cases: Array<[string, string, RegExp, RegExp]> = [
    [`${cards.baseUrl}/no-tag`, 'skills[].tags', /不是游戏厅的游戏：名片上没有写 desktop-game\/5/, /no skill is tagged "desktop-game\/5"/],
    [`${cards.baseUrl}/not-streaming`, 'capabilities.streaming', /不能一句一句地回答/, /streaming must be true/],
    [misnamed.url, 'skills[0].id', /地址的最后一段是「other-game」，可名片上游戏的编号是「animal-sounds」/, /differs from the game id "other-game"/],
    ['http://192.168.1.20:8787', 'address', /混合内容/, /mixed content/],
  ];
  for (const [address, field, reason, detail] of cases) {
    await addGame(page, address);
    await expect(refusal).toHaveAttribute('data-field', field);
    await expect(refusal).toContainText(reason);
    await refusal.getByText('技术细节').click();
    await expect(refusal.locator('details')).toContainText(detail);
  }
  await shoot(page, info, 'remote-refused', () => refusal.scrollIntoViewIfNeeded());
  await expect(page.getByTestId('remote-game')).toHaveCount(0);
  await page.getByTestId('nav-arcade').click();
  await expect(card(page)).toHaveCount(0);
});
