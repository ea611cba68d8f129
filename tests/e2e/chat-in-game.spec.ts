/**
 * A child's chat in the middle of a game, in the real app in Chromium, with a brain whose engine
 * holds one conversation and cannot cut a begun prefill (WebLLM: the test build's
 * `?engine-traits=webllm` makes the home computer's brain stand for it). The main agent's rules
 * answer 「你叫什么名字」 at once and no main-agent request reaches the brain, so the game's
 * conversation is never evicted; the game's next turn is played by the brain as before. With a brain
 * that says nothing of its engine (a server that cuts a prefill), the main agent's model answers.
 * On the CPU engine (it keeps prompts apart, so a main-agent step costs the game nothing) the speed
 * measured on the device decides: too slow for the turn budget (`?engine-rates=` stands for the
 * measurement: 5.5 tok/s prefill, 4.3 decode, the 0.5B model's on this machine's CPU), the rules
 * answer — the chat and the game's own turns: no request reaches the brain; fast enough, the model.
 * The brain is a local OpenAI-compatible server answering with the demo brain's steps.
 */
import { expect, test, type Page } from '@playwright/test';
import { isPrewarmBody, startOpenAITestServer, type OpenAITestServer } from '../support/openai-test-server.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { idle, openApp, spoken, type, useRemoteBrain, waitSpoken } from './support/child.ts';

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
  server.respond(async (body) => (agentOf(body.messages, toolsOf(body)) === 'unknown' ? { content: '{"reply":{"text":"好"}}' } : { content: await demoStep(body) }));
});
test.afterAll(async () => {
  await server.close();
});

/** The agents whose steps reached the brain since request `from` (prewarms aside). */
const agentsAsked = (from: number): string[] =>
  server.requests
    .slice(from)
    .filter((r) => r.path === '/v1/chat/completions' && !isPrewarmBody(r.body))
    .map((r) => agentOf(r.body.messages, toolsOf(r.body)));

async function chatInGuessNumber(page: Page): Promise<{ said: string; asked: string[]; guessAsked: string[] }> {
  await useRemoteBrain(page, server.baseUrl, 'demo-brain');
  let n = (await spoken(page)).length;
  await page.locator('[data-testid=game-card][data-game=guess-number]').click();
  await waitSpoken(page, /加上一个数字就行/, n, 30_000);
  await idle(page);
  n = (await spoken(page)).length;
  const from = server.requests.length;
  await type(page, '你叫什么名字');
  const said = await waitSpoken(page, /不是真人哦|我想得太久了/, n, 30_000);
  await idle(page);
  const asked = agentsAsked(from);
  // The game goes on, played by the brain.
  n = (await spoken(page)).length;
  const before = server.requests.length;
  await type(page, '我猜50');
  await waitSpoken(page, /50 (大|小)了/, n, 30_000);
  await idle(page);
  await expect(page.getByTestId('current-game')).toHaveCount(1);
  return { said, asked, guessAsked: agentsAsked(before) };
}

test('on an engine that forgets on a switch, chat in a game is answered by the rules: no main-agent request', async ({ page }) => {
  await openApp(page, { query: '&engine-traits=webllm' });
  const { said, asked, guessAsked } = await chatInGuessNumber(page);
  expect(said).toContain('我是小方');
  expect(said).not.toContain('让我想想');
  expect(asked).toEqual([]);
  expect(guessAsked).toContain('game:guess-number');
});

test("on a server that says nothing of its engine, the main agent's model answers chat in a game", async ({ page }) => {
  await openApp(page);
  const { said, asked } = await chatInGuessNumber(page);
  expect(said).toContain('我是小方');
  expect(asked).toContain('main');
});

for (const [speed, rates, byRules] of [
  ['measured too slow for the turn budget', '5.5,4.3', true],
  ['measured fast enough', '112,18', false],
] as const)
  test(`on the CPU engine ${speed}, chat in a game and the game's turns are answered by ${byRules ? 'the rules' : 'the model'}`, async ({ page }) => {
    await openApp(page, { query: `&engine-traits=llamacpp&engine-rates=${rates}` });
    const { said, asked, guessAsked } = await chatInGuessNumber(page);
    expect(said).toContain('我是小方');
    if (byRules) {
      expect(asked).toEqual([]);
      expect(guessAsked).toEqual([]);
    } else {
      expect(asked).toContain('main');
      expect(guessAsked).toContain('game:guess-number');
    }
  });
