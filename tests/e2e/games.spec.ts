/**
 * Both built-in games played start to finish in Chromium through the real game Worker and the
 * A2A MessagePort transport, with the demo policies as the model (tests/lab/games.html). The page
 * seeds every game worker with `?seed=`; each test opens it with a seed whose secret it knows.
 */
import { expect, test, type Page } from '@playwright/test';
import { drawGuessCards, halvingGuesses, seedForSecret } from './support/seeds.ts';

// Whole games on a shared 2-core machine: generous limits, since timing never decides pass/fail.
test.describe.configure({ timeout: 180_000 });

interface Outcome {
  /** Every reply of the request in order: the sentences sent at once, then the final one. */
  replies: string[];
  /** What the child heard: every reply, joined. */
  heard: string;
  final: string | null;
  session: string | null;
  error: string | null;
}

class Child {
  private n = 0;
  constructor(private readonly page: Page) {}

  async open(gameId: string, seed: number) {
    await this.page.goto(`/tests/lab/games.html?seed=${seed}`);
    await expect(this.page.locator('body[data-ready="true"]')).toBeAttached();
    await this.page.selectOption('#game', gameId);
  }

  /** Clicks a button; returns the number of the request it sent. */
  async click(kind: 'start' | 'message' | 'end', text: string): Promise<number> {
    await this.page.fill('#text', text);
    await this.page.click(kind === 'message' ? '#send' : `#${kind}`);
    return ++this.n;
  }

  async outcome(n: number): Promise<Outcome> {
    const done = this.page.locator(`#log li[data-request="${n}"].final, #log li[data-request="${n}"].error`);
    await expect(done).toHaveCount(1);
    const replies = await this.page.locator(`#log li.reply[data-request="${n}"]`).allTextContents();
    const final = this.page.locator(`#log li.final[data-request="${n}"]`);
    const error = this.page.locator(`#log li.error[data-request="${n}"]`);
    return {
      replies,
      heard: replies.join(''),
      final: (await final.count()) ? await final.textContent() : null,
      session: (await final.count()) ? await final.getAttribute('data-session') : null,
      error: (await error.count()) ? await error.getAttribute('data-code') : null,
    };
  }

  async say(kind: 'start' | 'message' | 'end', text: string): Promise<Outcome> {
    return this.outcome(await this.click(kind, text));
  }

  lab<T>(fn: string, ...args: unknown[]): Promise<T> {
    return this.page.evaluate(([f, a]) => (window as unknown as { lab: Record<string, (...x: unknown[]) => unknown> }).lab[f as string](...(a as unknown[])), [fn, args] as const) as Promise<T>;
  }

  reacts(): Promise<string[]> {
    return this.page.evaluate(() =>
      ((window as unknown as { lab: { deviceCalls: Array<{ op: string; arg?: { expression: string; gesture: string } }> } }).lab.deviceCalls)
        .filter((c) => c.op === 'react')
        .map((c) => `${c.arg!.expression}+${c.arg!.gesture}`),
    );
  }

  lastDeviceOp(): Promise<string> {
    return this.page.evaluate(() => (window as unknown as { lab: { deviceCalls: Array<{ op: string }> } }).lab.deviceCalls.at(-1)!.op);
  }
}

test.describe('猜数字 through the game worker', () => {
  test('a win by halving: counts down the tries, nods on the right number, ends the session', async ({ page }) => {
    const secret = 63;
    const guesses = halvingGuesses(secret); // 50, 75, 62, 68, 65, 63
    const child = new Child(page);
    await child.open('guess-number', seedForSecret(secret));
    const start = await child.say('start', '我们玩猜数字吧');
    expect(start).toMatchObject({ heard: '我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧！说“我猜”再加上一个数字就行。', session: 'active' });
    for (const [i, n] of guesses.slice(0, -1).entries()) {
      const answer = await child.say('message', `我猜${n}`);
      expect(answer).toMatchObject({ session: 'active', heard: `${n} ${n > secret ? '大了！再小' : '小了！再大'}一点哦，还有 ${6 - i} 次机会。再猜一个吧！` });
    }
    const last = await child.say('message', `我猜${secret}`);
    expect(last).toMatchObject({ session: 'ended', heard: `太棒啦！就是 ${secret}！你用了 ${guesses.length} 次就猜对了！下次再一起玩吧！` });
    expect(await child.reacts()).toEqual([...Array(guesses.length - 1).fill('sorry+shake'), 'happy+nod']);
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
    // The session is gone: a late message is told so.
    expect(await child.say('message', '我猜1')).toMatchObject({ session: 'ended', heard: expect.stringContaining('已经结束') });
  });

  test('a loss: seven guesses on the wrong side, then the number is revealed', async ({ page }) => {
    const secret = 30;
    const child = new Child(page);
    await child.open('guess-number', seedForSecret(secret));
    await child.say('start', '玩猜数字');
    expect((await child.say('message', '我猜50')).heard).toBe('50 大了！再小一点哦，还有 6 次机会。再猜一个吧！');
    // Keep guessing on the wrong side: 51 … 56.
    for (let n = 51; n <= 55; n++) expect(await child.say('message', `${n}`)).toMatchObject({ session: 'active', heard: expect.stringMatching(new RegExp(`^${n} 大了`)) });
    const last = await child.say('message', '56');
    expect(last).toMatchObject({ session: 'ended', heard: `56 大了。次数用完啦，答案是 ${secret}。没关系，下次一定能猜中！下次再一起玩吧！` });
    expect(await child.reacts()).toEqual(Array(7).fill('sorry+shake'));
  });

  test('hints do not use a try; end in the middle of a turn cancels it and ends the game', async ({ page }) => {
    const secret = 77;
    const child = new Child(page);
    await child.open('guess-number', seedForSecret(secret));
    await child.say('start', '玩猜数字');
    const hint = await child.say('message', '给我一个提示吧');
    expect(hint.heard).toBe('好，给你一个提示！这个数字是单数。再猜一个吧！');
    const guess = await child.say('message', '我猜50');
    expect(guess.heard).toBe('50 小了！再大一点哦，还有 6 次机会。再猜一个吧！');

    await child.lab('holdNextStep');
    const inflight = await child.click('message', '我猜30');
    await expect.poll(() => child.lab<number>('heldSteps')).toBe(1);
    const end = await child.say('end', '不玩了');
    expect(end.session).toBe('ended');
    expect(end.heard).toBe(`好的，这局先玩到这里。答案是 ${secret}，下次再来玩吧！拜拜！`);
    const cancelled = await child.outcome(inflight);
    expect(cancelled.final).toBeNull();
    expect(cancelled.error).toBe('game_cancelled');
    expect(await child.lab<number>('abortedSteps')).toBe(1);
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
  });
});

test.describe('你画我猜 through the game worker', () => {
  test('drawing, a wrong answer, a hint, a skip, right answers, to the end', async ({ page }) => {
    const seed = 1;
    const cards = drawGuessCards(seed).map((c) => c.name); // 鱼, 斑马, 熊猫
    const child = new Child(page);
    await child.open('draw-guess', seed);
    const start = await child.say('start', '我们玩你画我猜');
    // The rules speak first (working replies); the rules brain's own reply is the next prompt.
    expect(start.replies).toEqual(['我来画一个小动物，你猜猜是什么！', '画好啦！', '第 1 题，这是什么动物呀？', '说出它的名字就行！']);
    expect(start.session).toBe('active');
    const first = await child.lab<string>('animalOnScreen');
    expect(first).toBe(cards[0]);

    const other = await child.lab<string>('otherAnimal', first);
    const wrong = await child.say('message', `是${other}吗`);
    expect(wrong.heard).toBe(`不是${other}哦！再猜猜看，还有 2 次机会。你猜是什么动物？`);
    expect(await child.reacts()).toEqual(['sorry+shake']);

    const hint = await child.say('message', '给我一个提示');
    expect(hint.heard).toMatch(/^好，给你一个提示！/);
    expect(hint.heard).not.toContain(first);

    const skip = await child.say('message', '太难了，跳过吧');
    // Sentence by sentence: the answer first (before the next picture is prepared), then the question.
    expect(skip.replies).toEqual([`这一题是${first}。`, '下一题来咯，看我画！', '画好啦！', '第 2 题，这是什么动物呀？', '说出它的名字就行！']);
    const second = await child.lab<string>('animalOnScreen');
    expect(second).toBe(cards[1]);

    const right = await child.say('message', `我觉得是${second}`);
    expect(right.replies).toEqual(['答对啦！', `就是${second}！`, '下一题来咯，看我画！', '画好啦！', '第 3 题，这是什么动物呀？', '说出它的名字就行！']);
    expect((await child.reacts()).at(-1)).toBe('happy+nod');

    const third = await child.lab<string>('animalOnScreen');
    expect(third).toBe(cards[2]);
    const last = await child.say('message', `是${third}！`);
    expect(last).toMatchObject({ session: 'ended', heard: `答对啦！就是${third}！游戏结束啦！你答对了 2 题，一共 3 题，真棒！下次再来玩吧。谢谢你陪我玩！` });
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
  });

  test('end while the robot is still thinking cancels that turn and tells the answer', async ({ page }) => {
    const seed = 2;
    const child = new Child(page);
    await child.open('draw-guess', seed);
    await child.say('start', '玩你画我猜');
    const animal = await child.lab<string>('animalOnScreen');
    expect(animal).toBe(drawGuessCards(seed)[0].name); // 河马
    await child.lab('holdNextStep');
    const inflight = await child.click('message', '是什么呢');
    await expect.poll(() => child.lab<number>('heldSteps')).toBe(1);
    const end = await child.say('end', '');
    expect(end).toMatchObject({ session: 'ended', heard: `这一题是${animal}。好的，这局就玩到这里，你答对了 0 题。下次再来玩吧！拜拜！` });
    expect((await child.outcome(inflight)).error).toBe('game_cancelled');
  });
});
