/**
 * The trace inside the real app: a round of 猜数字 played with the scripted (demo) model
 * shows in 记录 as the tree user → main agent → A2A request → game tools → replies → speech, the
 * secret number hidden until the round that reveals it, and everything survives a reload.
 * A reload in the middle of a game ends the session cleanly and the child is told.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { idle, openApp, spoken, type, waitSpoken } from './support/child.ts';
import { openGrownUp } from './support/parent.ts';
import { DEFAULT_SEED, guessNumberSecrets } from './support/seeds.ts';

// Every seed is pinned (openApp): the number 猜数字 thinks of, never 50 (the guess below).
const [SECRET] = guessNumberSecrets(DEFAULT_SEED);

const open = (page: Page, hash = 'arcade') => openApp(page, { hash });

const INTERRUPTED = '刚才的游戏中断了，想玩的话，再跟我说一次吧。';

/** Every stored event of the trace, as recorded (the raw store, not the redacted view). */
async function storedEvents(page: Page): Promise<Array<{ kind: string; name?: string; source: string; data?: any; requestId?: string; roundId?: string; contextId?: string; durationMs?: number }>> {
  return page.evaluate(async () => {
    const rt = (window as any).__agentcade;
    await rt.recorder.flush();
    const g = await (await rt.traceStore).load();
    return g.rounds.flatMap((r: { events: unknown[] }) => r.events);
  });
}

const expand = (li: Locator) => li.locator('> .row .twisty').click();

/** Opens a round and its main-agent node; returns the A2A request nodes. */
async function openRound(round: Locator): Promise<Locator> {
  await round.locator('.round-head').click();
  await expand(round.locator('li.kind-main'));
  return round.locator('li.kind-a2a_request');
}

test('a round of 猜数字 in the app: the tree in 记录, the number hidden until revealed, kept after reload', async ({ page }, info) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了一个 1 到 100 的数字/);
  await idle(page);
  expect(SECRET).not.toBe(50);
  let n = (await spoken(page)).length;
  await type(page, '我猜50');
  await waitSpoken(page, new RegExp(`50 ${SECRET < 50 ? '大' : '小'}了`), n);
  await idle(page);

  // What was recorded for the guess, by kind and source (one model step per game step, not two).
  const events = await storedEvents(page);
  const secret: number = events.find((e) => e.kind === 'game_tool' && e.data?.secret)!.data.secret.number;
  expect(secret).toBe(SECRET);
  const guess = events.find((e) => e.kind === 'a2a_request' && e.data?.kind === 'message')!;
  const ofGuess = events.filter((e) => e.requestId === guess.requestId && e.kind !== 'a2a_request');
  // The rules take the guess and say its verdict first (pre-executed steps, recorded as steps with
  // `pre`), sentence by sentence ("50 小了！" at once, then the rest); the brain's reply is the third.
  expect(ofGuess.map((e) => `${e.kind}:${e.name}`).sort()).toEqual(
    ['model_step:submit_guess', 'model_step:say', 'model_step:reply', 'device:react', 'game_tool:submit_guess', 'game_tool:say', 'reply:undefined', 'reply:undefined', 'reply:undefined', 'speech:spoken', 'speech:spoken', 'speech:spoken'].sort(),
  );
  expect(ofGuess.filter((e) => e.kind === 'model_step' && e.data?.pre).map((e) => e.name)).toEqual(['submit_guess', 'say']);
  for (const e of ofGuess.filter((e) => e.kind !== 'reply')) expect(e.durationMs, `${e.kind} ${e.name}`).toBeGreaterThanOrEqual(0);
  expect(events.filter((e) => e.kind === 'model_step' && e.source === 'game:guess-number' && !e.requestId)).toEqual([]);
  // The robot output module's own executions are there too.
  expect(events.some((e) => e.kind === 'device' && e.source === 'robot' && e.name === 'react')).toBe(true);

  await openGrownUp(page, 'trace');
  const rounds = page.getByTestId('trace-round');
  await expect(rounds).toHaveCount(2);
  const first = rounds.last(); // newest first
  await expect(first).toContainText('第 1 轮');
  await expect(first).toContainText('我们玩猜数字吧');

  // user → main agent → A2A request → game tools → replies → speech
  const requests = await openRound(first);
  await expect(first.locator('li.kind-user_input')).toContainText('用户：「我们玩猜数字吧」');
  await expect(first.locator('li.kind-main > .row')).toContainText('主 Agent');
  await expect(first.locator('li.kind-main > ul > li.kind-main_tool')).toContainText('start_game');
  await expect(requests).toHaveCount(1);
  const start = requests.first();
  await expect(start).toContainText('A2A 请求 → guess-number（start）');
  await expand(start);
  await expect(start.locator('> ul > li.kind-group > .row .label')).toHaveText(['游戏工具', '回复', '播报']);
  const tools = start.locator('> ul > li.kind-group').first();
  await expand(tools);
  const pick = tools.locator('li.kind-game_tool').filter({ hasText: '含未揭晓答案' });
  await expect(pick).toHaveCount(1);
  await expand(pick);
  await expect(pick.locator('pre')).toContainText('［未揭晓］');
  await expect(pick.locator('pre')).not.toContainText(`"number": ${secret}`);
  const speech = start.locator('> ul > li.kind-group').nth(2);
  await expand(speech);
  // The rules' start line first, then the brain's reply (the rules' next prompt).
  await expect(speech.locator('li.kind-speech').first()).toContainText('我想好了一个 1 到 100 的数字');
  await expect(speech.locator('li.kind-speech')).toHaveCount(2);
  await page.screenshot({ path: info.outputPath('trace-app-round.png'), fullPage: true });

  // The guess (second round): its request has the game's tools, its reply, the speech and the robot.
  const second = rounds.first();
  const guessNode = (await openRound(second)).first();
  await expect(guessNode).toContainText('guess-number（message）：「我猜50」');
  await expand(guessNode);
  await expect(guessNode.locator('> ul > li.kind-group > .row .label')).toHaveText(['游戏工具', '回复', '播报', '设备']);

  // "不玩了" ends the game and says the number: from then on the first round shows it.
  await page.getByTestId('nav-arcade').click();
  n = (await spoken(page)).length;
  await type(page, '不玩了');
  await waitSpoken(page, new RegExp(`答案是 ${secret}`), n);
  await idle(page);

  const showsSecret = async () => {
    await openGrownUp(page, 'trace');
    await expect(rounds).toHaveCount(3);
    await expect(rounds.first()).toContainText('不玩了');
    const req = (await openRound(rounds.last())).first();
    await expand(req);
    const t = req.locator('> ul > li.kind-group').first();
    await expand(t);
    const p = t.locator('li.kind-game_tool').filter({ hasText: 'secret' });
    await expect(p).not.toContainText('含未揭晓答案');
    await expand(p);
    await expect(p.locator('pre')).toContainText(`"number": ${secret}`);
  };
  await showsSecret();

  // Persisted: the same rounds, and the same view, after a reload.
  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  await showsSecret();
  await expect(rounds.nth(1)).toContainText('我猜50');
  // Nothing was running at the reload: no recovery round, nothing said about an interruption.
  expect((await spoken(page)).join('')).not.toContain(INTERRUPTED);
});

test('a reload in the middle of a game: the child is told once, and the session is not ended a second time', async ({ page }, info) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了/);
  await idle(page);
  await expect(page.getByTestId('current-game')).toContainText('猜数字');

  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  await waitSpoken(page, new RegExp(INTERRUPTED));
  await expect(page.getByTestId('subtitles')).toContainText(INTERRUPTED);
  await expect(page.getByTestId('current-game')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('trace-app-interrupted.png') });

  await openGrownUp(page, 'trace');
  const recovery = page.getByTestId('trace-round').first();
  await expect(recovery).toContainText('重新打开：结束中断的游戏');
  await openRound(recovery);
  await expect(recovery.locator('li.kind-user_input')).toContainText('应用：');
  await expect(recovery.locator('li.kind-main > ul > li.kind-main_tool')).toContainText('end_interrupted_game');
  await expand(recovery.locator('.tree > li.kind-group').filter({ has: page.locator('> .row .label', { hasText: '播报' }) }));
  await expect(recovery.locator('li.kind-speech')).toContainText(INTERRUPTED);
  // The page sent `end` as it went away (pagehide), so the reload does not end the session again:
  // the recovery round holds no second request to the game.
  await expect(recovery.locator('li.kind-a2a_request')).toHaveCount(0);

  const events = await storedEvents(page);
  const started = events.find((e) => e.kind === 'a2a_request' && e.data?.kind === 'start')!;
  const recovered = events.filter((e) => e.kind === 'main_tool' && e.name === 'end_interrupted_game');
  expect(recovered).toHaveLength(1);
  expect(recovered[0]).toMatchObject({ contextId: started.data.contextId, data: { gameId: 'guess-number', outcome: 'end sent as the page went away' } });
  expect(events.filter((e) => e.kind === 'a2a_request' && e.data?.reason === 'interrupted')).toHaveLength(0);

  // Once told, never again: another reload says nothing about it.
  await page.reload();
  await page.waitForFunction(() => '__agentcade' in window);
  await page.waitForTimeout(1000);
  expect((await spoken(page)).join('')).not.toContain(INTERRUPTED);
});

test('记录 for a parent: a round of 猜数字 reads as 孩子说 / 机器人说 / what the game did, with nothing opened; design steps under their design', async ({ page }, info) => {
  await open(page);
  await type(page, '我们玩猜数字吧');
  await waitSpoken(page, /我想好了一个 1 到 100 的数字/);
  await idle(page);
  const n = (await spoken(page)).length;
  await type(page, '我猜50');
  await waitSpoken(page, /50 (大|小)了/, n);
  await idle(page);
  const heard = (await spoken(page)).slice(n).join('');

  // A design in the Studio: its brain's steps are recorded meanwhile.
  await openGrownUp(page, 'studio');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await page.getByTestId('new-talk').click();
  await expect(page.getByTestId('studio')).toHaveAttribute('data-busy', '0');
  await page.getByTestId('chat-input').fill('猜谜语，玩 3 轮');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('draft-review')).toBeVisible();

  await openGrownUp(page, 'trace');
  const rounds = page.getByTestId('trace-round');
  await expect(rounds).toHaveCount(2);
  const guess = rounds.first();
  await expect(guess.getByTestId('round-said')).toHaveText('孩子说「我猜50」');
  await expect(guess.getByTestId('round-robot')).toHaveText(`机器人说「${heard}」`);
  await expect(guess.getByTestId('round-happened')).toHaveText(`猜了 50，${SECRET > 50 ? '偏小' : '偏大'}，还剩 6 次`);
  await expect(guess.getByTestId('round-duration')).toHaveText(/^机器人回答用了 \d+(\.\d)? (毫秒|秒)$/);
  const start = rounds.last();
  await expect(start.getByTestId('round-happened')).toHaveText('开了一局：想好了 1 到 100 之间的一个数，有 7 次机会');
  // Nothing technical shows until 技术细节 is opened, and no answer before it is revealed.
  for (const r of [guess, start]) {
    const text = await r.innerText();
    for (const term of ['A2A', 'submit_guess', 'tries_left', 'too_small', 'too_big', '{', 'game:']) expect(text, `「${term}」 in 「${text}」`).not.toContain(term);
    // The secret as a number of its own, outside the time taken (「263 毫秒」 or 「63 毫秒」 says nothing of it).
    const took = (await r.getByTestId('round-duration').allInnerTexts()).join('');
    const said = text.replace(took, '');
    expect(said, `the secret in 「${said}」`).not.toMatch(new RegExp(`(?<![\\d.])${SECRET}(?![\\d.])`));
    await expect(r.locator('li.node')).toHaveCount(0);
  }
  // The Studio's steps: under their design, not in the child's round, no unfiled records.
  const design = page.getByTestId('trace-design');
  await expect(design).toHaveCount(1);
  await expect(design).toContainText(/设计「新游戏」：大脑想了 \d+ 步/);
  await expect(page.getByText(/没有归入任何一轮/)).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('trace-for-parents.png'), fullPage: true });
  // 技术细节 still holds the developer's tree.
  await expect((await openRound(guess)).first()).toContainText('guess-number（message）：「我猜50」');
});
