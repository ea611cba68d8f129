/**
 * While the robot draws, in the real app in Chromium: in 你画我猜, after a right answer, the rules
 * take the next card and the drawing, and the robot takes seconds to draw it on the screen. The
 * model's step after the drawing is asked the moment the drawing starts — with the conversation as
 * it will be once the picture is done — so it reaches the brain before the robot says 「画好啦」; its
 * words are said only after that line, over the finished picture, and the brain is asked once. With
 * the test build's `?ask-ahead=off` (the app before) the step is asked only after the drawing.
 * The brain is a local OpenAI-compatible server that answers at once with the demo brain's steps,
 * and with a line of its own for the reply after a drawing.
 */
import { expect, test, type Page } from '@playwright/test';
import { isPrewarmBody, startOpenAITestServer, type OpenAITestServer, type RecordedRequest } from '../support/openai-test-server.ts';
import { agentOf, demoStep, toolsOf } from '../support/demo-brain-server.ts';
import { openApp, spoken, type, useRemoteBrain, waitSpoken } from './support/child.ts';
import { byDrawingId } from './support/robot.ts';

/** The model's own words after a drawing (the demo brain would say the rules' prompt). */
const COLOUR = '你看我画得像不像？';
/** The request right after a drawing: its last message is the drawing's result, with the rules' line noted in it. */
const afterDrawing = (body: { messages: Array<{ content: string }> }) => /^<tool_response>\{"name":"show_drawing",.*"said":"/.test(body.messages.at(-1)?.content ?? '');

let server: OpenAITestServer;
test.beforeAll(async () => {
  server = await startOpenAITestServer();
  server.respond(async (body) => {
    if (agentOf(body.messages, toolsOf(body)) === 'unknown') return { content: '{"reply":{"text":"好"}}' };
    const step = await demoStep(body);
    return { content: afterDrawing(body) && step.startsWith('{"reply"') ? JSON.stringify({ reply: { text: COLOUR } }) : step };
  });
});
test.afterAll(async () => {
  await server.close();
});

const startedAt = (page: Page): Promise<Array<{ text: string; at: number }>> => page.evaluate(() => (window as any).__speech.startedAt);
const steps = (from: number): RecordedRequest[] => server.requests.slice(from).filter((r) => r.path === '/v1/chat/completions' && !isPrewarmBody(r.body) && agentOf(r.body.messages, toolsOf(r.body)) === 'game:draw-guess');
const animalOnScreen = (page: Page): Promise<string> =>
  page.evaluate(() => (window as any).__agentcade.robot.screenSim.state.content.id as string).then((id) => byDrawingId.get(id)!.name);
const pictureComplete = (page: Page): Promise<boolean> => page.evaluate(() => !!(window as any).__agentcade.robot.screenSim.state.content.complete);
/** From now on, when each drawing became whole on the on-screen robot (page clock, ms since the epoch). */
const watchDrawings = (page: Page) =>
  page.evaluate(() => {
    const w = window as any;
    w.__drawnAt = [];
    const sim = w.__agentcade.robot.screenSim;
    // The picture on the robot now is not a new one.
    let was = sim.state.content.kind === 'drawing' && !!sim.state.content.complete;
    sim.subscribe((s: { content: { kind: string; complete?: boolean } }) => {
      const whole = s.content.kind === 'drawing' && !!s.content.complete;
      if (whole && !was) w.__drawnAt.push(Date.now());
      was = whole;
    });
  });
const drawnAt = (page: Page): Promise<number[]> => page.evaluate(() => (window as any).__drawnAt);

/** A right answer after the first card: what was said when, and the game's steps the brain got. */
async function rightAnswer(page: Page) {
  await useRemoteBrain(page, server.baseUrl, 'demo-brain');
  let n = (await spoken(page)).length;
  await page.locator('[data-testid=game-card][data-game=draw-guess]').click();
  await waitSpoken(page, new RegExp(COLOUR), n, 30_000);
  await page.waitForFunction(() => document.querySelector('[data-testid=mic-button]')?.getAttribute('data-state') === 'idle');
  n = (await spoken(page)).length;
  const k = (await startedAt(page)).length;
  await watchDrawings(page);
  const from = server.requests.length;
  await type(page, `是${await animalOnScreen(page)}`);
  await waitSpoken(page, new RegExp(COLOUR), n, 30_000);
  const complete = await pictureComplete(page);
  const lines = (await startedAt(page)).slice(k);
  const at = (re: RegExp) => lines.find((l) => re.test(l.text))?.at ?? NaN;
  const [whole] = await drawnAt(page);
  return { whole, drawn: at(/^画好啦/), colour: at(new RegExp(COLOUR)), steps: steps(from), complete };
}

test('after a right answer, the step after the drawing is asked while the robot draws; its words come after 「画好啦」, and the brain is asked once', async ({ page }) => {
  await openApp(page);
  const t = await rightAnswer(page);
  expect(t.steps).toHaveLength(1);
  const [step] = t.steps;
  expect(afterDrawing(step.body)).toBe(true);
  // Asked before the picture was whole on the robot (the on-screen robot draws for seconds).
  expect(step.receivedAt).toBeLessThan(t.whole);
  expect(t.whole).toBeLessThan(t.drawn);
  expect(t.colour).toBeGreaterThan(t.drawn);
  expect(t.complete).toBe(true);
});

test('with ?ask-ahead=off (the app before), the step is asked only once the robot has drawn', async ({ page }) => {
  await openApp(page, { query: '&ask-ahead=off' });
  const t = await rightAnswer(page);
  expect(t.steps).toHaveLength(1);
  // Causally after: the step waits for the robot's result.
  expect(t.steps[0].receivedAt).toBeGreaterThanOrEqual(t.whole);
  expect(t.colour).toBeGreaterThan(t.drawn);
});
