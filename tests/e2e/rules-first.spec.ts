/**
 * The game's rules speak first, in the real app in Chromium:
 * - against a local OpenAI-compatible server paced like a slow tablet (3 s before the first byte,
 *   then 5 characters a second), every in-game turn of 猜数字, 你画我猜 (the drawing on the robot
 *   at every card's question) and a hand-made 恐龙问答 gets a truthful first sentence before the
 *   model's first byte; the model's late reply is never waited for (the colour window, pinned at
 *   its shortest: the prefill outlasts the default window as well);
 * - back on the rules brain (no model at all), 猜数字 plays to its end without a request to the
 *   server (the rules brain playing 你画我猜 and a hand-made quiz to the end is games.spec.ts's and
 *   studio-play.spec.ts's: every e2e test plays with it unless it picks another brain).
 * Seeds are pinned (tests/e2e/support/seeds.ts): the first secret number is 37, so halving meets
 * "too big" (50), "too small" (25) and the win (37) in three guesses; a second game in the same
 * worker has 25 (a fresh worker, 37 again).
 */
import { expect, test, type Page } from '@playwright/test';
import { startOpenAITestServer, type OpenAITestServer, type RecordedRequest } from '../support/openai-test-server.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { DEMO_THEMES } from '../../src/studio/demo-decks.ts';
import { TURN_BUDGET_LIMITS } from '../../src/core/arcade/turn-budget.ts';
import { openApp, pinColourWindow, spoken, type, useRemoteBrain, waitSpoken } from './support/child.ts';
import { seedForSecrets } from './support/seeds.ts';
import { byDrawingId } from './support/robot.ts';
import { Parent } from './support/studio.ts';

/** A slow tablet: the prefill before the first byte, then the decoding rate. */
const SLOW_TABLET = { prefillMs: 3000, charsPerSecond: 5 };
/**
 * The colour window, the shortest the settings keep: the model's first byte comes after it either
 * way (the prefill outlasts the default window too), so each built-in game's turn ends on the
 * window 0.5 s after the rules' line instead of 2 s.
 */
const COLOUR_MS = TURN_BUDGET_LIMITS.colourMs.min;

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
  server.respond(async (body) => {
    // The demo brain's step for each agent, written at the slow tablet's pace.
    if (agentOf(body.messages, toolsOf(body)) === 'unknown') return { content: '{"reply":{"text":"好"}}' };
    return { content: await demoStep(body), delayMs: SLOW_TABLET.prefillMs, pieceChars: 1, pieceDelayMs: 1000 / SLOW_TABLET.charsPerSecond };
  });
});
test.afterAll(async () => {
  await server.close();
});

test.describe.configure({ timeout: 300_000 });

const DINO = DEMO_THEMES['恐龙'].rows;
/** The answer of the card in a spoken sentence (the demo deck's question → its answer). */
function answerOf(sentence: string): string {
  const row = DINO.find((r) => sentence.includes(r[2]));
  if (!row) throw new Error(`no card question in: ${sentence}`);
  return row[0];
}

const startedAt = (page: Page): Promise<Array<{ text: string; at: number }>> => page.evaluate(() => (window as any).__speech.startedAt);
const gameRequests = (from: number): RecordedRequest[] =>
  server.requests.slice(from).filter((r) => r.path === '/v1/chat/completions' && /^(game:|studio:)/.test(agentOf(r.body.messages, toolsOf(r.body))));

/** From the child's act to the robot's first sentence, per turn (reported, never a pass/fail). */
const waits: number[] = [];

interface TurnSeen {
  /** The first sentence the robot began saying after the child's words. */
  first: string;
  /** Everything said in the turn, joined. */
  said: string;
  /** Requests the game's brain got in this turn. */
  requests: RecordedRequest[];
}

/**
 * One turn: the child acts, the robot's first sentence must match `first` and begin before the
 * model's first byte of any request of this turn; the turn is over once `done` was said.
 */
async function turn(page: Page, act: () => Promise<void>, first: RegExp, done: RegExp): Promise<TurnSeen> {
  const n = (await startedAt(page)).length;
  const k = (await spoken(page)).length;
  const r = server.requests.length;
  const actedAt = Date.now();
  await act();
  await expect.poll(async () => (await startedAt(page)).length, { timeout: 20_000, intervals: [50] }).toBeGreaterThan(n);
  const firstLine = (await startedAt(page))[n];
  expect(firstLine.text).toMatch(first);
  const said = await waitSpoken(page, done, k, 30_000);
  const requests = gameRequests(r);
  // The model's first byte: when it came, or (a request the colour window gave up first) not before the prefill.
  for (const q of requests) expect(firstLine.at, `${firstLine.text} vs the model's first byte`).toBeLessThan(q.firstContentAt ?? q.receivedAt + SLOW_TABLET.prefillMs);
  waits.push(firstLine.at - actedAt);
  // The round is over (checked every frame: the next turn starts the moment the mic is idle).
  await page.waitForFunction(() => document.querySelector('[data-testid=mic-button]')?.getAttribute('data-state') === 'idle', null, { timeout: 20_000 });
  return { first: firstLine.text, said, requests };
}

/** From now on, every line handed to speech with what the on-screen robot shows at that moment. */
async function watchLines(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as any;
    w.__linesSeen = [];
    const speak = w.speechSynthesis.speak.bind(w.speechSynthesis);
    w.speechSynthesis.speak = (u: { text: string }) => {
      const c = w.__agentcade.robot.screenSim.state.content;
      w.__linesSeen.push({ text: u.text, screen: { kind: c.kind, id: c.id, complete: !!c.complete } });
      speak(u);
    };
  });
}
const linesSeen = (page: Page): Promise<Array<{ text: string; screen: { kind: string; id?: string; complete: boolean } }>> => page.evaluate(() => (window as any).__linesSeen);

const card = (page: Page, game: string) => page.locator(`[data-testid=game-card][data-game${game === 'studio' ? '^="studio-"' : `=${game}`}]`);
const animalOnScreen = (page: Page): Promise<string> =>
  page.evaluate(() => (window as any).__agentcade.robot.screenSim.state.content.id as string).then((id) => byDrawingId.get(id)!.name);
const gameOver = (page: Page) => expect(page.getByTestId('current-game')).toHaveCount(0, { timeout: 20_000 });

/** 猜数字 to its end: the start, a hint, then halving the range by what the robot said. */
async function playGuessNumber(page: Page): Promise<TurnSeen[]> {
  const turns = [
    await turn(page, () => card(page, 'guess-number').click(), /^我想好了一个 1 到 100 的数字/, /加上一个数字就行/),
    await turn(page, () => type(page, '给我一个提示'), /^好，给你一个提示！/, /再猜一个吧/),
  ];
  let [lo, hi] = [1, 100];
  for (let i = 0; i < 7; i++) {
    const n = Math.floor((lo + hi) / 2);
    const t = await turn(page, () => type(page, `我猜${n}`), new RegExp(`^(${n} (大|小)了|太棒啦！)`), /再猜一个吧|一起玩吧/);
    turns.push(t);
    if (/^太棒啦/.test(t.first)) break;
    if (t.first.startsWith(`${n} 大了`)) hi = n - 1;
    else lo = n + 1;
  }
  expect(turns.at(-1)!.first).toMatch(/^太棒啦！/);
  await gameOver(page);
  return turns;
}

async function playDrawGuess(page: Page): Promise<TurnSeen[]> {
  const turns = [await turn(page, () => card(page, 'draw-guess').click(), /^我来画一个小动物/, /说出它的名字就行/)];
  for (let i = 0; i < 5; i++) {
    const name = await animalOnScreen(page);
    const t = await turn(page, () => type(page, `是${name}`), /^答对啦！/, /说出它的名字就行|谢谢你陪我玩/);
    turns.push(t);
    if (/游戏结束啦/.test(t.said)) break;
  }
  await gameOver(page);
  // The drawing is on the robot, whole, every time a card's question is asked.
  const asked = (await linesSeen(page)).filter((l) => /第 \d+ 题，这是什么动物呀？/.test(l.text)).slice(-3);
  expect(asked.length).toBeGreaterThanOrEqual(3);
  for (const l of asked) expect(l.screen, l.text).toMatchObject({ kind: 'drawing', complete: true });
  return turns;
}

async function playQuiz(page: Page): Promise<TurnSeen[]> {
  const start = await turn(page, () => card(page, 'studio').click(), /^好呀，我们来玩恐龙问答！/, /第1题：.*我是谁？/);
  const turns = [start];
  let said = start.said;
  for (let i = 0; i < 6; i++) {
    const t = await turn(page, () => type(page, answerOf(said)), /^(答对了|太棒了|你真厉害)！/, /我是谁？|下次再来玩/);
    turns.push(t);
    said = t.said;
    if (/你答对了 \d+ 张/.test(said)) break;
  }
  expect(said).toMatch(/你答对了 5 张/);
  await gameOver(page);
  return turns;
}

test('the rules speak first on a slow tablet, in 猜数字, 你画我猜 and a hand-made quiz; back on the rules brain, no request reaches the server', async ({ page }, info) => {
  await openApp(page, { hash: 'studio', speech: { msPerChar: 2 }, seed: seedForSecrets(37, 25) });
  // A parent makes a quiz in the Studio (the rules brain designs it too).
  await expect(page.locator('body[data-studio-ready="1"]')).toHaveCount(1);
  await page.getByTestId('new-talk').click();
  const parent = new Parent(page);
  await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
  await parent.acceptsAll();
  await expect(page.getByTestId('waiting')).toContainText('做好了');
  await page.getByTestId('nav-arcade').click();
  await expect(card(page, 'studio')).toHaveCount(1);
  await watchLines(page);

  // ── the slow tablet's brain ──
  await pinColourWindow(page, COLOUR_MS);
  await useRemoteBrain(page, server.baseUrl, 'slow-tablet');
  const guess = await playGuessNumber(page);
  const draw = await playDrawGuess(page);
  const quiz = await playQuiz(page);
  await page.screenshot({ path: info.outputPath('rules-first-slow-tablet.png') });
  const sorted = [...waits].sort((x, y) => x - y);
  info.annotations.push({ type: 'first sentence after the child (slow tablet)', description: `${sorted.length} turns, p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms` });
  console.log(`rules-first: first sentence after the child, ${sorted.length} turns: p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms`);
  // The built-in games' brain was asked every turn (for its colour), and never waited for.
  expect([...guess, ...draw].every((t) => t.requests.length >= 1)).toBe(true);
  // The quiz's run skills are code and the rules took every step: its brain was not asked at all.
  expect(quiz.flatMap((t) => t.requests)).toEqual([]);

  // ── back on the rules brain: no model at all ──
  await page.evaluate(() => (window as any).__agentcade.controller.chooseProvider('scripted'));
  await expect(page.getByTestId('model-status')).toContainText('规则大脑');
  const before = server.requests.length;
  const warmed = server.prewarms.length;
  await playGuessNumber(page);
  expect(server.requests.length).toBe(before);
  // Nor a prewarm: the home computer is no longer the brain.
  expect(server.prewarms.length).toBe(warmed);
});
