/**
 * Cards the Studio's model writes are checked when the draft is shown to the parent, in Chromium: the
 * model (the demo brain behind a test server, one card of its dinosaur deck changed into a question
 * about the child's home) proposes a deck; the review lists the flagged card with its category in plain
 * words, 采用 waits; the parent approves that text and takes the deck.
 */
import { expect, test } from '@playwright/test';
import { demoStep } from '../support/demo-brain-server.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { openApp, useRemoteBrain } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { Parent } from './support/studio.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

/** A card of the demo deck (src/studio/demo-decks.ts) and what the scripted model writes instead. */
const DEMO_PROMPT = '我全身披着硬硬的盔甲，尾巴像一把大锤子。我是谁？';
const FLAGGED = '你家住在哪个小区，门牌号是多少？';

test("a card the Studio's model wrote is flagged at review with its category; 采用 waits until the parent approves it", async ({ page }, info) => {
  test.setTimeout(90_000);
  await openApp(page);
  server.respond(async (body) => ({ content: (await demoStep(body)).replaceAll(DEMO_PROMPT, FLAGGED), pieceChars: 4096, chunkBytes: 65_536 })); // whole replies: a quick test
  await useRemoteBrain(page, server.baseUrl, 'demo-brain');
  await openGrownUp(page, 'studio');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  // The drafts before the cards (how it is played, its name) are taken as they are.
  const cards = page.getByTestId('draft-卡片');
  for (let i = 0; i < 4 && !(await cards.isVisible()); i++) await parent.accepts();
  await expect(cards).toContainText(FLAGGED);

  const flag = page.getByTestId('draft-flag');
  await expect(flag).toHaveCount(1);
  await expect(flag).toHaveAttribute('data-category', 'personal_info');
  await expect(flag).toContainText(`「${FLAGGED}」：打听个人信息或要孩子保密`);
  await expect(page.getByTestId('draft-accept')).toBeDisabled();
  await page.getByTestId('draft-flags').scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('studio-draft-flagged.png') });

  await parent.tap(flag.getByTestId('draft-approve'));
  await expect(page.getByTestId('draft-flags')).toHaveCount(0);
  await parent.accepts();
  await expect(page.getByTestId('draft-卡片')).toHaveCount(0);
  // The approval is kept with the design, as for a hand-made card.
  const approved = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((ok, no) => Object.assign(indexedDB.open('agentcade-book'), { onsuccess(this: IDBOpenDBRequest) { ok(this.result); }, onerror: no }));
    const all = await new Promise<Array<{ approved?: string[] }>>((ok) => Object.assign(db.transaction('projects').objectStore('projects').getAll(), { onsuccess(this: IDBRequest) { ok(this.result); } }));
    return all.flatMap((p) => p.approved ?? []);
  });
  expect(approved).toEqual([FLAGGED]);
});
