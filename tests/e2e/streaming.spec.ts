/**
 * Speak while thinking, in the app, against a remote brain that writes slowly (a local
 * OpenAI-compatible test server streaming one small piece every 100 ms):
 * - the thinking face is on the on-screen robot before the server has even received the request;
 * - the first sentence of the game's reply (to words its rules cannot read) is being spoken before
 *   the server has sent its last piece;
 * - what the game sent is still a valid `desktop-game/5` reply sequence.
 */
import { expect, test, type Page } from '@playwright/test';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { installSpeechFake } from './fakes/speech-fake.ts';
import { useRemoteBrain } from './support/child.ts';
import { setUpAsParent } from './support/parent.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

const REPLY = '你说的是一个范围哦。要说一个确切的数字。快来猜吧！';

/**
 * Plays 猜数字 like a (slow) model. The game's rules take the start and every guess they can read
 * (pre-executed steps), so the model is asked here to answer words the rules cannot read
 * (「我猜六十多」): its reply goes out a piece at a time, the last piece held until `release`.
 */
function slowGame(): { release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  server.respond((body) => {
    const input = [...body.messages].reverse().find((m: { role: string; content: string }) => m.role === 'user' && m.content.startsWith('{"event":'));
    if (!input?.content.includes('六十多')) return { content: stepJson({ action: 'reply', args: { text: '好呀！' } }) };
    return { content: stepJson({ action: 'reply', args: { text: REPLY } }), pieceChars: 2, pieceDelayMs: 100, holdLastPiece: held };
  });
  return { release };
}

async function openWithRemote(page: Page): Promise<void> {
  await page.addInitScript(installSpeechFake, {});
  await page.goto('/?e2e#arcade');
  await page.waitForFunction(() => '__agentcade' in window);
  await setUpAsParent(page);
  await useRemoteBrain(page, server.baseUrl, 'test-model');
}

test('the thinking face shows before the request leaves, and the first sentence is spoken while the model still writes', async ({ page }) => {
  const game = slowGame();
  await openWithRemote(page);
  // Record when the on-screen robot's face turns to thinking (page clock).
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="on-screen-robot"]')!;
    const w = window as any;
    w.__thinkingAt = null;
    new MutationObserver(() => {
      if (el.getAttribute('data-face') === 'thinking' && w.__thinkingAt === null) w.__thinkingAt = Date.now();
    }).observe(el, { attributes: true, attributeFilter: ['data-face'] });
  });
  // The game starts (the rules say its opening line), then the child says what the rules cannot read.
  await page.getByTestId('game-card').filter({ hasText: '猜数字' }).click();
  await expect.poll(() => page.evaluate(() => (window as any).__speech.spoken.join('')), { timeout: 20_000 }).toContain('好呀！');
  await expect(page.getByTestId('mic-button')).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await page.evaluate(() => ((window as any).__thinkingAt = null));
  const before = server.requests.length;
  await page.getByTestId('text-input').fill('我猜六十多');
  await page.getByTestId('send').click();
  // The first sentence is spoken while the model's answer is unfinished (its last piece is held).
  await page.waitForFunction(() => (window as any).__speech.startedAt.some((s: { text: string }) => s.text === '你说的是一个范围哦。'), null, { timeout: 20_000 });
  game.release();

  await expect.poll(() => page.evaluate(() => (window as any).__speech.spoken.join('')), { timeout: 20_000 }).toContain('快来猜吧！');
  const chats = server.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
  expect(chats).toHaveLength(1);
  const thinkingAt: number = await page.evaluate(() => (window as any).__thinkingAt);
  expect(thinkingAt).not.toBeNull();
  expect(thinkingAt).toBeLessThan(chats[0].receivedAt);

  const started: Array<{ text: string; at: number }> = await page.evaluate(() => (window as any).__speech.startedAt);
  const first = started.find((s) => s.text === '你说的是一个范围哦。');
  expect(first, JSON.stringify(started)).toBeDefined();
  expect(chats[0].lastContentAt).toBeDefined();
  expect(first!.at).toBeLessThan(chats[0].lastContentAt!);
  // Each sentence was spoken on its own, in order.
  expect(started.map((s) => s.text).filter((t) => REPLY.includes(t))).toEqual(['你说的是一个范围哦。', '要说一个确切的数字。', '快来猜吧！']);

  // The game's replies, as the trace recorded them: a valid desktop-game/5 sequence.
  const replies: Array<{ text: string; session: string; final: boolean }> = await page.evaluate(async () => {
    const rt = (window as any).__agentcade;
    await rt.recorder.flush();
    const g = await (await rt.traceStore).load();
    const events = g.rounds.flatMap((r: { events: Array<{ kind: string; data?: any }> }) => r.events);
    return events.filter((e: { kind: string; data?: any }) => e.kind === 'reply' && e.data?.final !== undefined).map((e: { data: any }) => e.data);
  });
  const turn = replies.slice(-3);
  expect(turn.map((r) => r.text)).toEqual(['你说的是一个范围哦。', '要说一个确切的数字。', '快来猜吧！']);
  expect(turn.map((r) => r.final)).toEqual([false, false, true]);
  expect(replies.every((r) => r.session === 'active')).toBe(true);
  for (const r of replies) expect([...r.text].length).toBeGreaterThanOrEqual(1);
});
