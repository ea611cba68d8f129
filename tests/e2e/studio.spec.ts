import { expect, test, type Page } from '@playwright/test';

const tag = (page: Page, name: string) => page.getByTestId(`tag-${name}`);

async function accept(page: Page, name: string) {
  await expect(tag(page, name)).toHaveAttribute('data-status', 'draft');
  await tag(page, name).getByTestId('accept').click();
  await expect(tag(page, name)).toHaveAttribute('data-status', 'accepted');
}

test('design a 恐龙 quiz end to end: drafts accepted, one rejected and redone, a reload resumes the same question, the project is in the Book', async ({ page }) => {
  await page.goto('/tests/lab/studio.html');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await page.getByTestId('package-quiz-cards').click();
  await expect(page.getByTestId('waiting')).toContainText('说说你想给孩子做个什么样的游戏');

  await page.getByTestId('chat-input').fill('我想给5岁的孩子做一个问答卡牌游戏');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('waiting')).toContainText('请验收「交互范式」的草稿');
  await expect(tag(page, '设计.run_skill清单')).toContainText('present-card');
  await expect(tag(page, '设计.交互范式').getByTestId('provenance')).toContainText('「交互范式」worker w1 · 第 1 轮');
  await accept(page, '设计.交互范式');
  await expect(page.getByTestId('waiting')).toContainText('run_skill清单'); // still waiting for the other draft
  await accept(page, '设计.run_skill清单');

  // Back-chaining reached the theme skill, whose worker asks the parent.
  const question = '「主题」问你：想做什么主题的问答呢？';
  await expect(page.getByTestId('waiting')).toHaveText(question);
  const transcriptBefore = await page.getByTestId('transcript').innerText();
  await page.screenshot({ path: 'test-results/studio-1-question.png', fullPage: true });

  // Reload in the middle: the same project reopens at the same pending question.
  await page.reload();
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await expect(page.getByTestId('waiting')).toHaveText(question);
  expect(await page.getByTestId('transcript').innerText()).toBe(transcriptBefore);
  await expect(tag(page, '设计.交互范式')).toHaveAttribute('data-status', 'accepted');
  await page.getByTestId('option').filter({ hasText: '恐龙' }).click();

  await expect(tag(page, '设计.主题')).toContainText('恐龙问答');
  await accept(page, '设计.主题');

  // The first deck has hard cards; reject it with a reason and get an easier one.
  await expect(page.getByTestId('waiting')).toContainText('请验收「卡牌」的草稿');
  const deck = tag(page, '设计.卡牌');
  await expect(deck.getByTestId('card')).toHaveCount(7);
  await expect(deck).toContainText('甲龙');
  await deck.getByTestId('reject').click();
  await deck.getByTestId('reject-reason').fill('太难了，换简单一点的');
  await deck.getByTestId('confirm-reject').click();
  await expect(deck).toHaveAttribute('data-status', 'draft');
  await expect(deck.getByTestId('card')).toHaveCount(5);
  await expect(deck).not.toContainText('甲龙');
  await expect(deck.getByTestId('provenance')).toContainText('第 2 版');
  await expect(deck).toContainText('驳回记录（1）');
  await page.screenshot({ path: 'test-results/studio-2-redone-deck.png', fullPage: true });
  await accept(page, '设计.卡牌');

  // Edit the rules draft (fewer rounds) and accept the edit.
  const rules = tag(page, '设计.规则');
  await expect(rules).toHaveAttribute('data-status', 'draft');
  await rules.getByTestId('edit').click();
  const json = await rules.getByTestId('edit-text').inputValue();
  await rules.getByTestId('edit-text').fill(json.replace(/"轮数": \d+/, '"轮数": 4'));
  await rules.getByTestId('save-edit').click();
  await expect(rules.getByTestId('status')).toHaveText('已采用（家长修改）');
  await expect(rules).toContainText('4');

  await accept(page, '设计.角色');
  await expect(page.getByTestId('waiting')).toContainText('设计完成');
  await expect(page.getByTestId('transcript')).toContainText('「恐龙问答」已经保存');
  await page.screenshot({ path: 'test-results/studio-3-done.png', fullPage: true });

  // The project is in the Book list, playable.
  await page.getByTestId('back').click();
  const project = page.getByTestId('project').filter({ hasText: '恐龙问答' });
  await expect(project).toHaveCount(1);
  await expect(project).toContainText('可以玩了');
  await page.screenshot({ path: 'test-results/studio-4-book.png', fullPage: true });
  // …and opens again, read-only, with every fact accepted.
  await project.click();
  await expect(page.getByTestId('phase')).toContainText('可以玩了');
  await expect(page.locator('[data-status="draft"]')).toHaveCount(0);
  await expect(page.getByTestId('accept')).toHaveCount(0);
});
