/**
 * More shapes than a quiz: 故事接龙 and 我说你做 designed by voice with the demo brain and played to
 * the end in the arcade — through the same game runtime, protocol and speaking path as every game —
 * with a PlayBook record for each. Taps and utterances are counted for the closing note.
 */
import { expect, test } from '@playwright/test';
import { childSays, openStudio, Parent, shoot } from './support/studio.ts';
import { openGrownUp } from './support/parent.ts';

test('故事接龙: designed by voice, told with the robot turn by turn, ended with a retelling, PlayBook written', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openStudio(page);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.saysToStudio('我想和孩子讲故事，不要问答');
  await expect(page.getByTestId('draft-summary')).toContainText('玩法：故事接龙');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了！「森林故事接龙」已经放进游戏厅');
  await expect(page.getByTestId('decided')).toContainText('故事这样开头：「从前，森林里住着一只爱唱歌的小兔子。」');
  parent.lap('设计');

  await parent.tap(page.getByTestId('nav-arcade'));
  const robot = page.getByTestId('on-screen-robot');
  let said = await childSays(page, parent, '我们玩森林故事接龙吧', /你来接下一句吧！/);
  expect(said).toContain('从前，森林里住着一只爱唱歌的小兔子。');
  await childSays(page, parent, '小兔子遇到了一只小猫', /该你接着讲啦！/);
  await expect(robot).toHaveAttribute('data-gestures', /nod/);
  await childSays(page, parent, '它们一起去摘苹果', /该你接着讲啦！|你来接！/);
  // A scary turn is brought back gently.
  said = await childSays(page, parent, '突然来了一个大怪兽', /你来接！/);
  expect(said).toContain('别怕');
  said = await childSays(page, parent, '大家一起跳舞', /下次再来玩/);
  expect(said).toContain('我们的故事讲完啦！故事是这样的：');
  expect(said).toContain('小兔子遇到了一只小猫');
  expect(said).not.toContain('怪兽');
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('arcade-story-end.png') });
  parent.lap('玩');
  parent.report(info, '故事接龙');

  await openGrownUp(page, 'studio');
  const record = page.getByTestId('playbook');
  await expect(record).toHaveCount(1);
  await expect(record.first().getByTestId('playbook-turns')).toHaveText('5 句');
  await expect(record.first()).not.toContainText('答对'); // a story is not scored
  await record.first().locator('summary').click();
  await expect(record.first()).toContainText('孩子：大家一起跳舞');
  await shoot(page, info, 'studio-story-playbook');
});

test('我说你做: designed by voice for a 6-year-old, the robot shows each action and plays a trick round, PlayBook written', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openStudio(page);
  const parent = new Parent(page);
  await parent.tap(page.getByTestId('new-talk'));
  await parent.saysToStudio('给6岁的孩子玩我说你做');
  await expect(page.getByTestId('draft-summary')).toContainText('玩法：我说你做');
  await parent.acceptsAll();
  await expect(page.getByTestId('decided')).toContainText('有一轮小陷阱');
  await expect(page.getByTestId('waiting')).toContainText('做好了！「我说你做」已经放进游戏厅');
  parent.lap('设计');

  await parent.tap(page.getByTestId('nav-arcade'));
  const robot = page.getByTestId('on-screen-robot');
  await childSays(page, parent, '我们玩我说你做吧', /我说：摸摸鼻子！/);
  await expect(robot).toHaveAttribute('data-card', '我说：摸摸鼻子！');
  await childSays(page, parent, '做好了', /我说：点点头！/);
  // The robot shows 点点头 with its head.
  await expect(robot).toHaveAttribute('data-gestures', /nod/);
  await childSays(page, parent, '做好了', /我说：拍拍手！/);
  // Round 4 is the trick: no 「我说」.
  let said = await childSays(page, parent, '做好了', /摇摇头！/);
  expect(said).not.toMatch(/我说：摇摇头/);
  await expect(robot).toHaveAttribute('data-card', '摇摇头！');
  said = await childSays(page, parent, '我没做', /我说：笑一笑！/);
  expect(said).toContain('没上当');
  said = await childSays(page, parent, '做好了', /下次再来玩/);
  expect(said).toContain('5 个动作全都做对了');
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  parent.lap('玩');
  parent.report(info, '我说你做');

  await openGrownUp(page, 'studio');
  await expect(page.getByTestId('playbook')).toHaveCount(1);
  await expect(page.getByTestId('playbook').first().getByTestId('playbook-turns')).toHaveText('6 句');
  await expect(page.getByTestId('playbook').first()).toContainText('做对 5/5 个');
});
