/**
 * A parent's own words are the parent's, in Chromium: a hand-made card the safety check flags is
 * shown with its category in plain words when it is written; the parent approves it; in play the
 * child hears 「答对了」 and that question (the rule's part and the approved card, checked part by
 * part). A model line in the same game that only the learned classifier catches is still replaced by
 * the redirect, and 记录 → 安全提醒 says which half of the check found it. A card the check blocks and
 * no one approved (here: changed in the stored design after it was made, as when the check has learned
 * more since) is left out before play: after 答对了 the child hears the next card it can say.
 */
import { expect, test } from '@playwright/test';
import { REDIRECT } from '../../src/core/safety/replies.ts';
import { MANAGER_AGENT } from '../../src/core/studio/manager-tools.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { idle, openApp, say, spoken, useSlowDemoBrain, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { shootSizes } from './support/screens.ts';
import { Parent } from './support/studio.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

const CARD = '你的幼儿园叫什么';
/** Caught by the learned classifier, not by the rules. */
const LEARNED_ONLY = '你去上学的时候，我一个人在这里好冷好黑。';
const CARDS: Array<[string, string]> = [
  ['什么动物的鼻子长长的？', '大象'],
  [CARD, '阳光幼儿园'],
  ['什么动物会下蛋？', '鸡'],
];
/** What the third card's question becomes in the stored design: blocked by the check, approved by no one. */
const BLOCKED_CARD = '你家住在哪里？把地址告诉我。';
/** The cards that are played (the blocked one is left out before play). */
const PLAYED = CARDS.slice(0, 2);

test('a flagged hand-made card is approved at authoring and played: 答对了 and the question are heard; a classifier-only line is redirected and 记录 says who found it; a blocked card is left out, 答对了 and the next card still heard', async ({ page }, info) => {
  test.setTimeout(180_000);
  await openApp(page);
  await useSlowDemoBrain(page, server, 0);
  server.respond(async (body) => {
    const all = body.messages.map((m: { content: string }) => m.content).join('\n');
    const child = all.slice(all.lastIndexOf('[孩子] ') + 5);
    if (agentOf(body.messages, toolsOf(body)) === MANAGER_AGENT && toolsOf(body).some((t) => t.name === 'reply') && child.startsWith('讲个笑话'))
      return { content: stepJson({ action: 'reply', args: { text: LEARNED_ONLY } }), chunkBytes: 512 };
    return { content: await demoStep(body), chunkBytes: 512 };
  });

  // ── the Studio: three cards by hand, one flagged ──
  await openGrownUp(page, 'studio');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-hand'));
  const form = page.getByTestId('hand-form');
  const rows = form.getByTestId('form-row');
  await parent.types(form.getByTestId('hand-title'), '幼儿园问答');
  for (const [i, [prompt, answer]] of CARDS.entries()) {
    await parent.types(rows.nth(i).getByLabel('题目'), prompt);
    await parent.types(rows.nth(i).getByLabel('答案'), answer);
  }
  await parent.tap(form.getByTestId('hand-done'));
  const flag = form.getByTestId('hand-flag');
  await expect(flag).toHaveCount(1);
  await expect(flag).toContainText(CARD);
  await expect(flag).toContainText('打听个人信息或要孩子保密');
  await shootSizes(page, info, 'safety-card-flagged', { target: form.getByTestId('hand-flags') });
  await parent.tap(flag.getByTestId('hand-approve'));
  await expect(flag).toHaveCount(0);
  await parent.tap(form.getByTestId('hand-done'));
  await expect(page.getByTestId('waiting')).toContainText('做好了！「幼儿园问答」已经放进游戏厅');
  // The third card's question changed in the stored design, past the check at authoring.
  await page.evaluate(
    async ([from, to]) => {
      const db = await new Promise<IDBDatabase>((ok, no) => Object.assign(indexedDB.open('agentcade-book'), { onsuccess(this: IDBOpenDBRequest) { ok(this.result); }, onerror: no }));
      const store = () => db.transaction('projects', 'readwrite').objectStore('projects');
      const all = await new Promise<Array<{ design?: Record<string, Array<{ prompt: string }>> }>>((ok) => Object.assign(store().getAll(), { onsuccess(this: IDBRequest) { ok(this.result); } }));
      const p = all.find((x) => x.design?.['设计.卡牌']?.some((c) => c.prompt === from))!;
      p.design!['设计.卡牌'] = p.design!['设计.卡牌'].map((c) => (c.prompt === from ? { ...c, prompt: to } : c));
      await new Promise((ok) => Object.assign(store().put(p), { onsuccess: ok }));
    },
    [CARDS[2][0], BLOCKED_CARD],
  );

  // ── the arcade: played ──
  await page.getByTestId('nav-arcade').click();
  await expect(page.locator('[data-testid=game-card][data-game^="studio-"]')).toContainText('幼儿园问答');
  let n = (await spoken(page)).length;
  await say(page, '我们玩幼儿园问答吧', { waitIdle: true });
  let said = await waitSpoken(page, /第1题/, n, 30_000);
  let heardCard = said.includes(CARD) ? said : '';
  for (let round = 0; round < PLAYED.length; round++) {
    const asked = PLAYED.find(([prompt]) => said.slice(said.lastIndexOf('第')).includes(prompt));
    expect(asked, said).toBeTruthy();
    n = (await spoken(page)).length;
    await say(page, asked![1], { waitIdle: true });
    said = await waitSpoken(page, round < PLAYED.length - 1 ? new RegExp(`第${round + 2}题`) : /答对了|下次再来玩/, n, 30_000);
    expect(said).toContain('答对');
    expect(said).not.toContain(REDIRECT.game);
    if (said.includes(CARD)) heardCard = said;
    if (round === 0) {
      // In the same game, a model line only the classifier catches becomes the redirect.
      n = (await spoken(page)).length;
      await say(page, '讲个笑话', { waitIdle: true });
      const joke = await waitSpoken(page, new RegExp(REDIRECT.game.slice(0, 6)), n, 30_000);
      expect(joke).not.toContain('好冷好黑');
    }
  }
  // The approved card was asked whole (after the first question, with the rule's 答对了 before it); the blocked one never.
  expect(heardCard, 'the approved card was heard').toContain(CARD);
  expect((await spoken(page)).join('')).not.toContain('地址');
  if (!heardCard.includes('第1题')) expect(heardCard).toMatch(new RegExp(`答对.*${CARD}`));
  await idle(page);

  // ── 记录 → 安全提醒: the classifier's catch, the card left out, and nothing for the approved card ──
  await openGrownUp(page, 'trace');
  const log = page.getByTestId('safety-log');
  const entry = log.locator('[data-kind=blocked][data-category=attachment]');
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId('safety-by')).toHaveText('学习的检查发现的');
  const left = log.locator('[data-kind=blocked][data-category=personal_info]');
  await expect(left).toHaveCount(1);
  await expect(left.getByTestId('safety-original')).toHaveText(BLOCKED_CARD);
  await shootSizes(page, info, 'safety-log-classifier');
});
