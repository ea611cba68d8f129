/**
 * The Studio for parents, in Chromium with the app's demo brain and the speech fakes: design by
 * voice in plain Chinese, write cards by hand (also with no brain), change a draft in words or in a
 * form, redo it with a reason, names that may not clash, deleting a design — and the games played
 * in the arcade. Every tap and utterance is counted (support/studio.ts) for the closing note.
 */
import { expect, test } from '@playwright/test';
import { DEMO_THEMES } from '../../src/studio/demo-decks.ts';
import { childSays, expectPlainWords, openStudio, Parent, shoot, SIZES, spoken } from './support/studio.ts';
import { enterPin, openGrownUp } from './support/parent.ts';
import { type, waitSpoken } from './support/child.ts';
import { shootSizes } from './support/screens.ts';

const RIDDLES = DEMO_THEMES['谜语'].rows;
const riddleAnswer = (said: string) => {
  const row = RIDDLES.find((r) => said.includes(r[2]));
  if (!row) throw new Error(`no riddle in: ${said}`);
  return row[0];
};

test('by voice: 「猜谜语，玩 3 轮」 is designed in plain words, read aloud, and plays 3 rounds in the arcade', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openStudio(page);
  await shoot(page, info, 'studio-home');
  await page.getByTestId('read-aloud').check(); // a setting, once: not counted
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.saysToStudio('猜谜语，玩 3 轮');

  // The first draft, as a parent reads it, and read aloud through the one speaking path.
  const review = page.getByTestId('draft-review');
  await expect(review.getByTestId('draft-summary')).toHaveText('玩法：猜谜语——机器人说谜面，孩子猜谜底，猜错给提示，一共 3 轮');
  await expect.poll(async () => (await spoken(page)).join('')).toContain('玩法想好了');
  await shoot(page, info, 'studio-review');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了！「猜谜语」已经放进游戏厅');
  await expect(page.getByTestId('decided')).toContainText('一共 3 轮');
  await shoot(page, info, 'studio-done');
  parent.lap('设计');

  // ── the child plays it by voice in the arcade ──
  await parent.tap(page.getByTestId('nav-arcade'));
  const card = page.locator('[data-testid=game-card][data-game^="studio-"]');
  await expect(card).toContainText('猜谜语');
  let said = await childSays(page, parent, '我们玩猜谜语吧', /第1题：.*打一/);
  const asked = new Set<number>();
  for (let i = 0; i < 6; i++) {
    asked.add(Number(/第(\d)题/.exec(said)![1]));
    said = await childSays(page, parent, riddleAnswer(said.slice(said.lastIndexOf('第'))), /打一.{1,6}。$|下次再来玩/);
    if (/你答对了/.test(said)) break;
  }
  expect(said).toContain('你答对了 3 张，一张不落');
  expect([...asked]).toEqual([1, 2, 3]);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  parent.lap('玩');
  parent.report(info, '猜谜语（说话设计）');
});

test('「动物叫声」: the demo brain cannot write these cards, the parent writes three (one by voice, one with a drawing) and the robot plays them', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openStudio(page);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.typesToStudio('动物叫声');
  await parent.acceptsAll();
  // Not a loop of theme questions: the card form, with the honest question.
  await expect(page.getByTestId('waiting')).toHaveText('我还不会自己出「动物叫声」的题，你来写几张吧？');
  const rows = page.getByTestId('card-writer').getByTestId('form-row');
  await expect(rows).toHaveCount(3);
  await parent.types(rows.nth(0).getByLabel('题目'), '汪汪汪，是谁在叫？');
  await parent.types(rows.nth(0).getByLabel('答案'), '小狗');
  await parent.types(rows.nth(0).getByLabel('别名'), '狗、狗狗');
  await rows.nth(0).getByLabel('机器人画').selectOption({ label: '狗' });
  parent.taps++; // the drawing picked
  await parent.types(rows.nth(1).getByLabel('题目'), '喵喵喵，是谁在叫？');
  await parent.types(rows.nth(1).getByLabel('答案'), '小猫');
  // The third card said in one breath.
  await parent.says('哞哞哞是谁在叫，答案是牛');
  await expect(rows.nth(2).getByLabel('答案')).toHaveValue('牛');
  await shoot(page, info, 'studio-card-form');
  // Held upright, the parent is at the bottom of the long form: the confirmation (at the top) comes into view.
  await page.setViewportSize(SIZES.portrait);
  await parent.tap(page.getByTestId('write-done'));
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了！「动物叫声问答」已经放进游戏厅');
  await expect(page.getByTestId('waiting')).toBeInViewport();
  await page.setViewportSize(SIZES.landscape);
  parent.lap('设计');

  await parent.tap(page.getByTestId('nav-arcade'));
  await expect(page.locator('[data-testid=game-card][data-game^="studio-"]')).toContainText('动物叫声问答');
  const robot = page.getByTestId('on-screen-robot');
  await childSays(page, parent, '我们玩动物叫声问答吧', /第1题：汪汪汪，是谁在叫？/);
  // A picture card: the robot draws the dog (never its name).
  await expect(robot).toHaveAttribute('data-screen', 'drawing');
  await expect.poll(async () => Number(await robot.getAttribute('data-strokes'))).toBeGreaterThan(0);
  await page.screenshot({ path: info.outputPath('arcade-picture-card.png') });
  await childSays(page, parent, '是狗狗', /第2题：喵喵喵/);
  await childSays(page, parent, '小猫', /第3题：哞哞哞/);
  const said = await childSays(page, parent, '是牛', /下次再来玩/);
  expect(said).toContain('你答对了 3 张，一张不落');
  parent.lap('玩');
  parent.report(info, '动物叫声（手写卡片）');

  await openGrownUp(page, 'studio');
  await expect(page.getByTestId('playbook')).toHaveCount(1);
  await expect(page.getByTestId('playbook').first()).toContainText('答对 3/3 张');
});

test('a draft changed in a form and redone with a reason, reloaded in the middle, and the blackboard only under 技术细节', async ({ page }, info) => {
  test.setTimeout(90_000);
  await openStudio(page);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  // 改一改 in the form built from the tag's schema: 玩几轮.
  await expect(page.getByTestId('draft-summary')).toContainText('一共 5 轮');
  await parent.tap(page.getByTestId('draft-change'));
  const form = page.getByTestId('draft-form');
  await expect(form.getByTestId('field-范式')).toContainText('问答'); // the shape is shown, changed only by words
  await parent.types(form.getByLabel('玩几轮'), '4');
  await shoot(page, info, 'studio-change-form');
  await parent.tap(form.getByTestId('form-save'));
  await expect(page.getByTestId('decided')).toContainText('一共 4 轮');
  await parent.accepts(); // 名字和主题

  // The first deck has hard cards; 重做 with a reason gives an easier one.
  await expect(page.getByTestId('draft-卡片').getByTestId('draft-summary')).toHaveText('一共 7 张卡片');
  await expect(page.getByTestId('draft-卡片')).toContainText('甲龙');
  await parent.tap(page.getByTestId('draft-redo'));
  await parent.tap(page.getByTestId('redo-chip').filter({ hasText: '太难了' }));
  await expect(page.getByTestId('draft-卡片').getByTestId('draft-summary')).toHaveText('一共 5 张卡片');
  await expect(page.getByTestId('draft-卡片')).not.toContainText('甲龙');
  await expect(page.getByTestId('transcript').locator('li.user').last()).toHaveText('我太难了');

  // Reload in the middle: the same draft waits again.
  await page.reload();
  // The grown-up area asks for the PIN again after a reload.
  await enterPin(page);
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await expect(page.getByTestId('draft-卡片').getByTestId('draft-summary')).toHaveText('一共 5 张卡片');
  await expectPlainWords(page, 'after a reload');
  // 技术细节: the blackboard, the worker, the version — for whoever wants them.
  await page.getByTestId('tech-details').locator('summary').click();
  await expect(page.getByTestId('tech-details')).toContainText('黑板');
  await expect(page.getByTestId('tag-设计.卡牌').getByTestId('provenance')).toContainText('第 2 版');
  await page.getByTestId('tech-details').locator('summary').click();
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了！「恐龙问答」');
});

test('no brain: talking is not offered (said plainly), cards written by hand still make a game; a taken name is refused; designs can be deleted', async ({ page }, info) => {
  test.setTimeout(90_000);
  await openStudio(page, { brain: false });
  await expect(page.getByTestId('new-talk')).toBeDisabled();
  await expect(page.getByTestId('no-brain')).toContainText('不用大脑也能做游戏：自己写卡片');
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-hand'));
  const form = page.getByTestId('hand-form');
  const rows = form.getByTestId('form-row');
  // A name already in the arcade is refused, with a free one suggested; too few cards too.
  await parent.types(form.getByTestId('hand-title'), '猜数字');
  await parent.types(rows.nth(0).getByLabel('题目'), '什么动物鼻子长？');
  await parent.types(rows.nth(0).getByLabel('答案'), '大象');
  await parent.tap(form.getByTestId('hand-done'));
  await expect(form.getByTestId('hand-problems')).toContainText('游戏厅里已经有叫「猜数字」的游戏了，换一个名字吧，比如「猜数字 2」');
  await expect(form.getByTestId('hand-problems')).toContainText('「卡片」至少要 3 张（现在 1 张）');
  await parent.types(form.getByTestId('hand-title'), '猜动物朋友');
  await parent.types(rows.nth(1).getByLabel('题目'), '什么动物脖子长？');
  await parent.types(rows.nth(1).getByLabel('答案'), '长颈鹿');
  await parent.types(rows.nth(2).getByLabel('题目'), '什么动物会下蛋？');
  await parent.types(rows.nth(2).getByLabel('答案'), '鸡');
  await shoot(page, info, 'studio-hand-form');
  await parent.tap(form.getByTestId('hand-done'));
  await expect(page.getByTestId('waiting')).toContainText('做好了！「猜动物朋友」已经放进游戏厅');
  parent.lap('设计');
  parent.report(info, '手写卡片（不用大脑）');
  await expect(page.getByTestId('chat-input')).toHaveCount(0);

  // It is in the arcade at once, and plays with no brain chosen (the rules alone): no PIN pad for the child.
  await page.getByTestId('nav-arcade').click();
  const card = page.locator('[data-testid=game-card][data-game^="studio-"]');
  await expect(card).toContainText('猜动物朋友');
  await card.click();
  const first = await waitSpoken(page, /什么动物(鼻子长|脖子长|会下蛋)？/);
  await expect(page.getByTestId('grown-up-gate')).toHaveCount(0);
  const answer = first.includes('鼻子') ? '大象' : first.includes('脖子') ? '长颈鹿' : '鸡';
  const n = (await spoken(page)).length;
  await type(page, answer);
  const after = await waitSpoken(page, /对|答对|棒/, n);
  expect(after).not.toContain('大脑');
  await shootSizes(page, info, 'studio-hand-game-no-brain');
  await type(page, '不玩了');

  // 我的游戏: delete it (asked first); the arcade no longer lists it.
  await openGrownUp(page, 'studio');
  await page.getByTestId('back').click();
  await expect(page.getByTestId('project')).toHaveCount(1);
  await shoot(page, info, 'studio-my-games');
  await page.getByTestId('delete').click();
  await expect(page.getByRole('alertdialog')).toContainText('删掉「猜动物朋友」？游戏厅里也会没有它。');
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('project')).toHaveCount(0);
  await page.getByTestId('nav-arcade').click();
  await expect(page.locator('[data-testid=game-card][data-game^="studio-"]')).toHaveCount(0);
});

test('bad cards are told, nothing typed is lost; the 「豆豆」 quiz gets another name; 3年级 and 2只 are right answers, played with no brain', async ({ page }, info) => {
  test.setTimeout(90_000);
  await openStudio(page, { brain: false });
  await page.getByTestId('new-hand').click();
  const form = page.getByTestId('hand-form');
  const rows = form.getByTestId('form-row');
  const long = '爸'.repeat(500);
  await form.getByTestId('hand-title').fill('豆豆');
  await rows.nth(0).getByLabel('题目').fill('谁最爱吃苹果？');
  await rows.nth(0).getByLabel('答案').fill('豆豆');
  await rows.nth(1).getByLabel('题目').fill(long);
  await rows.nth(1).getByLabel('答案').fill('🐶');
  await rows.nth(2).getByLabel('题目').fill('家里有几只小猫？');
  await rows.nth(2).getByLabel('答案').fill('两只');
  // Told at the field as it is typed, and again when saved; nothing is cut.
  await expect(rows.nth(1).getByTestId('field-note')).toHaveText(['太长了：最多 80 个字，现在 500 个字', '机器人念不出来：🐶，请换成文字']);
  await page.getByTestId('hand-done').click();
  const problems = form.getByTestId('hand-problems');
  await expect(problems).toContainText('「卡片」第 2 张的「题目」太长了（最多 80 个字，现在 500 个字）');
  await expect(problems).toContainText('「卡片」第 2 张的「答案」里有机器人念不出来的符号（🐶），请换成文字');
  await expect(problems).toContainText('游戏的名字「豆豆」也是一张卡片的答案');
  await expect(problems).toContainText('比如「豆豆问答」');
  await expect(rows.nth(1).getByLabel('题目')).toHaveValue(long);
  await expect(rows.nth(1).getByLabel('答案')).toHaveValue('🐶');
  await shootSizes(page, info, 'studio-hand-bad-input', { target: problems });
  // Fixed: the suggested name, a sayable card.
  await form.getByTestId('hand-title').fill('豆豆问答');
  await rows.nth(1).getByLabel('题目').fill('豆豆上几年级？');
  await rows.nth(1).getByLabel('答案').fill('三年级');
  await page.getByTestId('hand-done').click();
  await expect(page.getByTestId('waiting')).toContainText('做好了！「豆豆问答」已经放进游戏厅');

  // Played with no brain; the recognizer writes digits.
  await page.getByTestId('nav-arcade').click();
  await page.locator('[data-testid=game-card][data-game^="studio-"]').click();
  const answers: Record<string, string> = { 苹果: '豆豆', 年级: '3年级', 小猫: '2只' };
  let said = await waitSpoken(page, /第1题：[^？]+？/);
  for (let i = 0; i < 3; i++) {
    const key = Object.keys(answers).find((k) => said.slice(said.lastIndexOf('题：')).includes(k))!;
    const n = (await spoken(page)).length;
    await type(page, answers[key]);
    said = await waitSpoken(page, i < 2 ? /答对了！第\d题：[^？]+？/ : /答对了 3 张/, n);
    expect(said).not.toContain('不对');
  }
});

test('a finished game is changed in the same form (cards added, removed, changed, a new name) as a new version, its play records kept; a half-written form survives the idle lock and a reload', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.clock.install({ time: new Date('2025-03-03T10:00:00+08:00') });
  await openStudio(page, { brain: false });
  await page.getByTestId('new-hand').click();
  const form = page.getByTestId('hand-form');
  const rows = form.getByTestId('form-row');
  await form.getByTestId('hand-title').fill('动物猜猜看');
  const cards = [['什么动物鼻子长？', '大象'], ['什么动物脖子长？', '长颈鹿'], ['什么动物会下蛋？', '鸭']];
  for (const [i, [q, a]] of cards.entries()) {
    await rows.nth(i).getByLabel('题目').pressSequentially(q);
    await rows.nth(i).getByLabel('答案').pressSequentially(a);
  }
  // Typing keeps the grown-up area open; three idle minutes close it; the form comes back as it was.
  await page.clock.runFor(150_000);
  await rows.nth(2).getByLabel('答案').press('End');
  await page.clock.runFor(150_000);
  await expect(form).toBeVisible();
  await page.clock.runFor(40_000);
  await expect(page.getByTestId('arcade')).toBeVisible();
  await openGrownUp(page, 'studio');
  await expect(form.getByTestId('hand-title')).toHaveValue('动物猜猜看');
  await expect(page.getByTestId('noted')).toContainText('上次没写完的卡片还在');
  await page.reload();
  // The address asked for 设计室: the gate asks at once after the reload.
  await expect(page.getByTestId('grown-up-gate')).toBeVisible();
  await enterPin(page);
  await expect(rows.nth(2).getByLabel('答案')).toHaveValue('鸭');
  await shootSizes(page, info, 'studio-hand-draft-kept', { target: form });
  await page.getByTestId('hand-done').click();
  await expect(page.getByTestId('waiting')).toContainText('「动物猜猜看」已经放进游戏厅');

  // Played once: a play record.
  await page.getByTestId('nav-arcade').click();
  await page.locator('[data-testid=game-card][data-game^="studio-"]').click();
  await waitSpoken(page, /第1题/);
  await type(page, '不玩了');
  await waitSpoken(page, /下次/);
  await openGrownUp(page, 'studio');
  await page.getByTestId('back').click();
  await expect(page.getByTestId('playbook')).toHaveCount(1);

  // 改卡片: the same form, filled in; one card changed, one removed, one added, a new name.
  await page.getByTestId('edit-cards').click();
  await expect(form.getByTestId('hand-title')).toHaveValue('动物猜猜看');
  await expect(rows).toHaveCount(3);
  await rows.nth(2).getByLabel('答案').fill('鸡');
  await rows.nth(1).getByTestId('remove-row').click();
  await form.getByTestId('add-row').click();
  await rows.nth(2).getByLabel('题目').fill('什么动物会跳？');
  await rows.nth(2).getByLabel('答案').fill('袋鼠');
  await form.getByTestId('hand-title').fill('动物朋友');
  await shootSizes(page, info, 'studio-edit-cards', { target: form });
  await page.getByTestId('hand-done').click();
  await expect(page.getByTestId('waiting')).toContainText('「动物朋友」已经放进游戏厅');
  await page.getByTestId('back').click();
  await expect(page.getByTestId('project')).toHaveCount(1);
  await expect(page.getByTestId('project')).toContainText('第 2 版');
  await expect(page.getByTestId('playbook')).toHaveCount(1);
  // The arcade plays the new version.
  await page.getByTestId('nav-arcade').click();
  const card = page.locator('[data-testid=game-card][data-game^="studio-"]');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('动物朋友');
  await card.click();
  const said = await waitSpoken(page, /第1题：[^？]+？/);
  expect(said).not.toContain('脖子长');
});
