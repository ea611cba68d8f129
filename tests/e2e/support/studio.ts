/**
 * What a parent does in the Studio (and a child then in the arcade), counted: every tap, every
 * utterance and every typed input goes through these helpers, so a spec can report how many it took
 * to design and play a game, and how long (reported, never asserted). Also the check that the
 * parent's main view holds no developer word, and screenshots at the three sizes.
 */
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { setUpAsParent } from './parent.ts';
import { installSpeechFake } from '../fakes/speech-fake.ts';
import { idle, say, spoken } from './child.ts';

/** Words a parent must never meet in the Studio's main view (only under 技术细节). */
export const DEVELOPER_TERMS = ['worker', 'helper', 'run_skill', '设计.', '运行.', '黑板', '总管', 'JSON'];

export const SIZES = { phone: { width: 390, height: 844 }, portrait: { width: 820, height: 1180 }, landscape: { width: 1180, height: 820 } } as const;

export class Parent {
  taps = 0;
  utterances = 0;
  typed = 0;
  private started = Date.now();
  readonly laps: Array<{ what: string; taps: number; utterances: number; typed: number; seconds: number }> = [];

  constructor(readonly page: Page) {}

  async tap(target: Locator): Promise<void> {
    this.taps++;
    await target.click();
  }

  /** Push-to-talk: one tap on the mic and the words (the same helper the child uses). */
  async says(words: string): Promise<void> {
    this.taps++;
    this.utterances++;
    await say(this.page, words, { waitIdle: true });
  }

  /** Words to the Studio by voice: heard, and in the conversation. */
  async saysToStudio(words: string): Promise<void> {
    await this.says(words);
    await expect(this.page.getByTestId('transcript')).toContainText(words);
  }

  /** Words to the Studio typed in its box and sent: in the conversation. */
  async typesToStudio(words: string): Promise<void> {
    await this.types(this.page.getByTestId('chat-input'), words);
    await this.tap(this.page.getByTestId('send'));
    await expect(this.page.getByTestId('transcript')).toContainText(words);
  }

  /** The Studio has finished thinking. */
  async settled(): Promise<void> {
    await expect(this.page.getByTestId('studio')).toHaveAttribute('data-busy', '0', { timeout: 20_000 });
  }

  /** One typed input (the field filled; the tap that sends it is counted by the caller). */
  async types(target: Locator, words: string): Promise<void> {
    this.typed++;
    await target.fill(words);
  }

  /** 采用 on the draft now under review (the decision is in the conversation at once). */
  async accepts(): Promise<void> {
    await this.settled();
    const before = await this.page.getByTestId('transcript').locator('li').count();
    await this.tap(this.page.getByTestId('draft-accept'));
    await expect.poll(() => this.page.getByTestId('transcript').locator('li').count()).toBeGreaterThan(before);
    await this.settled();
  }

  /** Takes drafts until the Studio waits for something else (or the design is done). */
  async acceptsAll(max = 8): Promise<void> {
    for (let i = 0; i < max; i++) {
      await this.settled();
      if ((await this.page.getByTestId('draft-accept').count()) === 0) return;
      await this.accepts();
    }
  }

  /** Closes a measured stretch (e.g. 「设计」, 「玩」) and starts the next. */
  lap(what: string): void {
    this.laps.push({ what, taps: this.taps, utterances: this.utterances, typed: this.typed, seconds: Math.round((Date.now() - this.started) / 100) / 10 });
    this.taps = this.utterances = this.typed = 0;
    this.started = Date.now();
  }

  /** The measurements, in the test's output and its annotations (for the closing note). */
  report(info: TestInfo, shape: string): void {
    const line = this.laps.map((l) => `${l.what}: ${l.taps} 次点按（其中说话 ${l.utterances} 次）、打字 ${l.typed} 次、${l.seconds} 秒`).join('；');
    info.annotations.push({ type: 'measured', description: `${shape} — ${line}` });
    console.log(`[measured] ${shape} — ${line}`);
  }
}

/** Opens the Studio tab of the app (speech faked, the demo brain chosen unless `brain: false`). */
export async function openStudio(page: Page, opts: { brain?: boolean } = {}): Promise<void> {
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#studio');
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page, { brain: opts.brain === false ? 'later' : 'demo' });
  if (opts.brain !== false) await expect(page.getByTestId('model-status')).toContainText('规则大脑');
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
}

/** The rendered text of the parent's main view holds no developer word (技术细节 closed). */
export async function expectPlainWords(page: Page, where: string): Promise<void> {
  const studio = page.getByTestId('studio');
  await expect(studio).toBeVisible();
  const text = await studio.innerText();
  for (const term of DEVELOPER_TERMS) expect(text.includes(term), `${where}: 「${term}」 in the parent's view:\n${text}`).toBe(false);
}

/** Screenshots at the phone, portrait and landscape sizes; the plain-words check at the two tablet sizes. */
export async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    if (size !== 'phone') await expectPlainWords(page, `${name} at ${viewport.width}×${viewport.height}`);
    // The app scrolls inside its page: what the parent sees at the top, and at the bottom.
    const scroll = (to: 'top' | 'bottom') => page.evaluate((t) => document.querySelector('main .page')?.scrollTo(0, t === 'top' ? 0 : 1e6), to);
    await scroll('top');
    await page.screenshot({ path: info.outputPath(`${name}-${size}.png`) });
    await scroll('bottom');
    await page.screenshot({ path: info.outputPath(`${name}-${size}-end.png`) });
    await scroll('top');
  }
  await page.setViewportSize(SIZES.landscape);
}

/** Everything the robot said after the first `after` pieces, once it matches `pattern`. */
export async function heard(page: Page, pattern: RegExp, after: number): Promise<string> {
  let text = '';
  await expect.poll(async () => pattern.test((text = (await spoken(page)).slice(after).join(''))), { timeout: 30_000 }).toBe(true);
  return text;
}

/** In the arcade: the child speaks once the previous round is over, and we wait for what matches. */
export async function childSays(page: Page, parentOrChild: Parent, words: string, expectPattern: RegExp): Promise<string> {
  const n = (await spoken(page)).length;
  await parentOrChild.says(words);
  return heard(page, expectPattern, n);
}

export { idle, spoken };
