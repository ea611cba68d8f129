/**
 * Speak while thinking, in the app, against a remote brain that writes slowly (a local
 * OpenAI-compatible test server streaming one small piece every 100 ms):
 * - the thinking face is on the on-screen robot before the server has even received the request;
 * - the first sentence of the game's reply is being spoken before the server has sent its last piece;
 * - what the game sent is still a valid `desktop-game/5` reply sequence.
 */
import { expect, test, type Page } from '@playwright/test';
import { startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { installSpeechFake } from './fakes/speech-fake.ts';
import { useRemoteBrain } from './support/child.ts';
import { setUpAsParent } from './support/parent.ts';
import { toolsOf } from '../support/demo-brain-server.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
});
test.afterAll(async () => {
  await server.close();
});

const REPLY = '我想好了一个数字。你有七次机会。快来猜吧！';

/**
 * Plays 猜数字's start like a (slow) model: start_game at once, then the reply a piece at a time,
 * its last piece held until `release` is called.
 */
function slowGame(): { release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  server.respond((body) => {
    const tools = toolsOf(body).map((t) => t.name);
    const last = body.messages.at(-1).content as string;
    if (tools.includes('start_game') && !last.startsWith('<tool_response>')) return { content: stepJson({ action: 'start_game', args: {} }) };
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
  const before = server.requests.length;
  await page.getByTestId('game-card').filter({ hasText: '猜数字' }).click();
  // The first sentence is spoken while the model's answer is unfinished (its last piece is held).
  await page.waitForFunction(() => (window as any).__speech.startedAt.some((s: { text: string }) => s.text === '我想好了一个数字。'), null, { timeout: 20_000 });
  game.release();

  await expect.poll(() => page.evaluate(() => (window as any).__speech.spoken.join('')), { timeout: 20_000 }).toContain('快来猜吧！');
  const chats = server.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
  expect(chats).toHaveLength(2);
  const thinkingAt: number = await page.evaluate(() => (window as any).__thinkingAt);
  expect(thinkingAt).not.toBeNull();
  expect(thinkingAt).toBeLessThan(chats[0].receivedAt);

  const started: Array<{ text: string; at: number }> = await page.evaluate(() => (window as any).__speech.startedAt);
  const first = started.find((s) => s.text === '我想好了一个数字。');
  expect(first, JSON.stringify(started)).toBeDefined();
  expect(chats[1].lastContentAt).toBeDefined();
  expect(first!.at).toBeLessThan(chats[1].lastContentAt!);
  // Each sentence was spoken on its own, in order.
  expect(started.map((s) => s.text).filter((t) => REPLY.includes(t))).toEqual(['我想好了一个数字。', '你有七次机会。', '快来猜吧！']);

  // The game's replies, as the trace recorded them: a valid desktop-game/5 sequence.
  const replies: Array<{ text: string; session: string; final: boolean }> = await page.evaluate(async () => {
    const rt = (window as any).__agentcade;
    await rt.recorder.flush();
    const g = await (await rt.traceStore).load();
    const events = g.rounds.flatMap((r: { events: Array<{ kind: string; data?: any }> }) => r.events);
    return events.filter((e: { kind: string; data?: any }) => e.kind === 'reply' && e.data?.final !== undefined).map((e: { data: any }) => e.data);
  });
  expect(replies.map((r) => r.text)).toEqual(['我想好了一个数字。', '你有七次机会。', '快来猜吧！']);
  expect(replies.map((r) => r.final)).toEqual([false, false, true]);
  expect(replies.slice(0, -1).every((r) => r.session === 'active')).toBe(true);
  for (const r of replies) expect([...r.text].length).toBeGreaterThanOrEqual(1);
});
