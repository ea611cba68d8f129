/**
 * Both built-in games played start to finish in Chromium through the real game Worker and the
 * A2A MessagePort transport, with the demo policies as the model (tests/lab/games.html).
 */
import { expect, test, type Page } from '@playwright/test';

// Whole games on a shared 2-core machine: generous limits, since timing never decides pass/fail.
test.describe.configure({ timeout: 180_000 });

interface Outcome {
  replies: string[];
  final: string | null;
  session: string | null;
  error: string | null;
}

class Child {
  private n = 0;
  constructor(private readonly page: Page) {}

  async open(gameId: string) {
    await this.page.goto('/tests/lab/games.html');
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
    const child = new Child(page);
    await child.open('guess-number');
    const start = await child.say('start', '我们玩猜数字吧');
    expect(start).toMatchObject({ final: '我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧！', session: 'active' });
    let [lo, hi] = [1, 100];
    let last: Outcome | undefined;
    for (let i = 0; i < 7; i++) {
      const n = Math.floor((lo + hi) / 2);
      last = await child.say('message', `我猜${n}`);
      if (last.session === 'ended') break;
      expect(last.final).toContain(`还有 ${6 - i} 次机会`);
      if (last.final!.includes('大了')) hi = n - 1;
      else lo = n + 1;
    }
    expect(last!.session).toBe('ended');
    expect(last!.final).toMatch(/^太棒啦！就是 \d+！/);
    const reacts = await child.reacts();
    expect(reacts.at(-1)).toBe('happy+nod');
    expect(reacts.slice(0, -1).every((r) => r === 'sorry+shake')).toBe(true);
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
    // The session is gone: a late message is told so.
    expect(await child.say('message', '我猜1')).toMatchObject({ session: 'ended', final: expect.stringContaining('已经结束') });
  });

  test('a loss: seven guesses on the wrong side, then the number is revealed', async ({ page }) => {
    const child = new Child(page);
    await child.open('guess-number');
    for (;;) {
      await child.say('start', '玩猜数字');
      const first = await child.say('message', '我猜50');
      if (first.session === 'ended') continue; // 50 was right (1 in 100): play again
      const step = first.final!.includes('大了') ? 1 : -1; // keep guessing on the wrong side
      let last: Outcome | undefined;
      for (let i = 1; i <= 6; i++) last = await child.say('message', `${50 + step * i}`);
      expect(last!.session).toBe('ended');
      expect(last!.final).toMatch(/次数用完啦，答案是 \d+。没关系/);
      expect((await child.reacts()).slice(-7)).toEqual(Array(7).fill('sorry+shake'));
      break;
    }
  });

  test('hints do not use a try; end in the middle of a turn cancels it and ends the game', async ({ page }) => {
    const child = new Child(page);
    await child.open('guess-number');
    await child.say('start', '玩猜数字');
    const hint = await child.say('message', '给我一个提示吧');
    expect(hint.final).toMatch(/^给你一个提示：这个数字是[双单]数。$/);
    const guess = await child.say('message', '我猜50');
    expect(guess.final).toContain('还有 6 次机会');

    await child.lab('holdNextStep');
    const inflight = await child.click('message', '我猜30');
    await expect.poll(() => child.lab<number>('heldSteps')).toBe(1);
    const end = await child.say('end', '不玩了');
    expect(end.session).toBe('ended');
    expect(end.final).toMatch(/^好的，这局先玩到这里。答案是 \d+，下次再来玩吧！$/);
    const cancelled = await child.outcome(inflight);
    expect(cancelled.final).toBeNull();
    expect(cancelled.error).toBe('game_cancelled');
    expect(await child.lab<number>('abortedSteps')).toBe(1);
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
  });
});

test.describe('你画我猜 through the game worker', () => {
  test('drawing, a wrong answer, a hint, a skip, right answers, to the end', async ({ page }) => {
    const child = new Child(page);
    await child.open('draw-guess');
    const start = await child.say('start', '我们玩你画我猜');
    expect(start.replies).toEqual(['我来画一个小动物，你猜猜是什么！', '画好啦！第 1 题，这是什么动物呀？']);
    expect(start.session).toBe('active');
    const first = await child.lab<string>('animalOnScreen');
    expect(first).toBeTruthy();

    const other = await child.lab<string>('otherAnimal', first);
    const wrong = await child.say('message', `是${other}吗`);
    expect(wrong.final).toBe(`不是${other}哦，再猜猜看！还有 2 次机会。`);
    expect(await child.reacts()).toEqual(['sorry+shake']);

    const hint = await child.say('message', '给我一个提示');
    expect(hint.final).toMatch(/^给你一个提示：/);
    expect(hint.final).not.toContain(first);

    const skip = await child.say('message', '太难了，跳过吧');
    expect(skip.replies[0]).toBe(`这一题是${first}。下一题来咯，看我画！`);
    expect(skip.final).toBe('画好啦！第 2 题，这是什么动物呀？');
    const second = await child.lab<string>('animalOnScreen');
    expect(second).not.toBe(first);

    const right = await child.say('message', `我觉得是${second}`);
    expect(right.replies[0]).toBe(`答对啦！就是${second}！下一题来咯，看我画！`);
    expect(right.final).toBe('画好啦！第 3 题，这是什么动物呀？');
    expect((await child.reacts()).at(-1)).toBe('happy+nod');

    const third = await child.lab<string>('animalOnScreen');
    const last = await child.say('message', `是${third}！`);
    expect(last).toMatchObject({ session: 'ended', final: `答对啦！就是${third}！游戏结束啦！你答对了 2 题，一共 3 题，真棒！下次再来玩吧。` });
    await expect.poll(() => child.lastDeviceOp()).toBe('idle');
  });

  test('end while the robot is still thinking cancels that turn and tells the answer', async ({ page }) => {
    const child = new Child(page);
    await child.open('draw-guess');
    await child.say('start', '玩你画我猜');
    const animal = await child.lab<string>('animalOnScreen');
    await child.lab('holdNextStep');
    const inflight = await child.click('message', '是什么呢');
    await expect.poll(() => child.lab<number>('heldSteps')).toBe(1);
    const end = await child.say('end', '');
    expect(end).toMatchObject({ session: 'ended', final: `这一题是${animal}。好的，这局就玩到这里，你答对了 0 题。下次再来玩吧！` });
    expect((await child.outcome(inflight)).error).toBe('game_cancelled');
  });
});
