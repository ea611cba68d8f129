/**
 * A hand-made game prewarms like a built-in one: after each turn that leaves it running, the
 * manager's next request start (its fixed system prompt and the rounds as kept) goes into a local
 * engine's cache, so the next burst reads only the child's words. A design session opened in the
 * Studio does the same for the design manager's prompt.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatModel } from '../../../src/core/llm/types.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';
import { StudioController } from '../../../src/studio/studio-controller.ts';
import { Book } from '../../../src/studio/book.ts';
import { discoverPackages } from '../../../src/studio/bundled-packages.ts';
import { builtinGames } from '../../../src/games/catalog.ts';
import { loadSafetyCheck } from '../../../src/arcade/safety-screen.ts';
import { quizPackage } from '../studio/helpers.ts';

function warming() {
  const { model: inner, requests } = demoModel();
  const warmed: Array<{ agent: string; messages: ChatMessage[] }> = [];
  const model: ChatModel = { label: 'local', step: (r) => inner.step(r), prewarm: async (agent, messages) => void warmed.push({ agent, messages: structuredClone(messages) }) };
  return { model, requests, warmed };
}

describe('a hand-made game prewarms the manager', () => {
  it("after the start and each turn: exactly the start of the manager's next request", async () => {
    const { game } = await designedGame();
    const m = warming();
    const h = harness(game, m.model);
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(m.warmed).toHaveLength(1);
    expect(m.warmed[0].agent).toBe('studio:manager');
    expect(m.warmed[0].messages[0].role).toBe('system');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const asked = m.requests.length;
    const answer = rt.currentCard!.answer;
    await send(h.handler, 'message', answer);
    // The next burst's first manager request starts with what was prewarmed: the child's words join
    // its last message (the tool result the manager has not answered yet), so all but those words
    // are a common prefix, which a prefix cache (the CPU engine) does not read again.
    const next = m.requests.slice(asked).find((r) => r.agent === 'studio:manager')!;
    const w = m.warmed[0].messages;
    expect(next.messages.slice(0, w.length - 1)).toEqual(w.slice(0, -1));
    expect(next.messages[w.length - 1].content.startsWith(w.at(-1)!.content)).toBe(true);
    expect(next.messages[w.length - 1].content.slice(w.at(-1)!.content.length)).toContain(answer);
    expect(m.warmed).toHaveLength(2);
  });

  it('not after the turn that ends the game', async () => {
    const { game } = await designedGame();
    const m = warming();
    const h = harness(game, m.model);
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    const n = m.warmed.length;
    await send(h.handler, 'end', '不玩了');
    expect(m.warmed).toHaveLength(n);
  });
});

describe('a design session opened in the Studio', () => {
  it("prewarms the design manager's fixed system prompt, the start of its first request", async () => {
    const m = warming();
    const c = new StudioController({
      model: m.model,
      brain: { subscribe: (fn) => (fn({ label: '本机大脑', kind: 'cpu' }), () => undefined) },
      openBook: () => Book.open('studio-prewarm'),
      packages: discoverPackages(),
      games: builtinGames,
      safetyCheck: loadSafetyCheck,
    });
    await c.start();
    await c.newDesign(quizPackage());
    expect(m.warmed.map((w) => [w.agent, w.messages.map((x) => x.role)])).toEqual([['studio:manager', ['system']]]);
    await c.state.session!.input('给孩子做一个恐龙问答');
    const first = m.requests.find((r) => r.agent === 'studio:manager')!;
    expect(first.messages[0]).toEqual(m.warmed[0].messages[0]);
  });
});
