/**
 * A Studio game end to end, in Chromium with the demo model: a parent designs 恐龙问答 in the Studio tab,
 * the game appears in the arcade, the child starts it by voice (stubbed ASR), plays it to the end
 * (a wrong answer, then right ones), and the parent sees the play record in the Studio.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_THEMES } from '../../src/studio/demo-decks.ts';
import { installSpeechFake } from './fakes/speech-fake.ts';
import { say as speak, spoken, waitSpoken } from './support/child.ts';
import { Parent } from './support/studio.ts';
import { openGrownUp, setUpAsParent } from './support/parent.ts';

/** The child speaks once the previous round is over. */
const say = (page: Page, words: string) => speak(page, words, { waitIdle: true });

const DINO = DEMO_THEMES['恐龙'].rows;
/** The answer of the question in a spoken sentence (the demo deck's question → its answer). */
function answerOf(sentence: string): string {
  const row = DINO.find((r) => sentence.includes(r[2]));
  if (!row) throw new Error(`no card question in: ${sentence}`);
  return row[0];
}

test('design 恐龙问答 in the Studio, play it in the arcade by voice to the end, see the PlayBook record', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#studio');
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  await page.evaluate(() => (window as any).__agentcade.controller.chooseProvider('scripted'));
  await expect(page.getByTestId('model-status')).toContainText('规则大脑');

  // ── the parent designs the game ──
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await page.getByTestId('new-talk').click();
  const parent = new Parent(page);
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了');
  await expect(page.getByTestId('playbooks')).toContainText('还没有人玩过');

  // ── the arcade lists it like a built-in game ──
  await page.getByTestId('nav-arcade').click();
  const card = page.locator('[data-testid=game-card][data-game^="studio-"]');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('恐龙问答');
  await expect(page.locator('[data-testid=game-card][data-game=guess-number]')).toHaveCount(1);

  // ── the child starts it by voice ──
  await say(page, '我们玩恐龙问答吧');
  let said = await waitSpoken(page, /第1题：.*我是谁？/, 0, 30_000);
  expect(said).toMatch(/^好呀，我们来玩恐龙问答！你好，我是小龙博士！/);
  await expect(page.getByTestId('current-game')).toContainText('恐龙问答');
  const robot = page.getByTestId('on-screen-robot');
  await expect(robot).toHaveAttribute('data-card', /^第1题：/);
  await page.screenshot({ path: info.outputPath('studio-play-1-first-card.png') });

  // A wrong answer: the robot shakes its head and gives a hint.
  const first = answerOf(said);
  const wrong = DINO.map((r) => r[0]).find((a) => a !== first)!;
  let n = (await spoken(page)).length;
  await say(page, `是${wrong}吗`);
  await waitSpoken(page, /提示.*再猜猜看/, n, 30_000);
  await expect(robot).toHaveAttribute('data-gestures', /shake/);

  // Then every card right, until the game says goodbye.
  let answer = first;
  for (let i = 0; i < 6; i++) {
    n = (await spoken(page)).length;
    await say(page, answer);
    said = await waitSpoken(page, /我是谁？|下次再来玩/, n, 30_000);
    if (/你答对了 \d+ 张/.test(said)) break;
    expect(said).toMatch(/^答对了！第\d题/);
    answer = answerOf(said);
  }
  expect(said).toMatch(/你答对了 5 张，一张不落，得了 9 分/);
  await expect(robot).toHaveAttribute('data-gestures', /nod/);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('studio-play-2-finished.png') });

  // ── the parent sees the play record in the Studio ──
  await openGrownUp(page, 'studio');
  const records = page.getByTestId('playbook');
  await expect(records).toHaveCount(1);
  await expect(records.first().getByTestId('playbook-score')).toHaveText('9 分');
  await expect(records.first().getByTestId('playbook-turns')).toHaveText('7 句');
  await expect(records.first()).toContainText('答对 5/5 张');
  await expect(records.first()).toContainText('用时');
  await records.first().locator('summary').click();
  await expect(records.first()).toContainText('孩子：我们玩恐龙问答吧');
  await page.screenshot({ path: info.outputPath('studio-play-3-playbook.png'), fullPage: true });
});
