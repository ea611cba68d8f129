/**
 * Prewarm while the game goes on: after each turn that leaves the game running, the agent asks the
 * model to read the start of its next request (system prompt and the rounds as kept) into a
 * prefix-caching engine's cache. After a start whose model step the turn cut, that is the game's
 * system prompt read while the opening line is spoken; the next request begins with exactly those
 * messages. The last turn of a game, and a cancelled turn, prewarm nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { ctx, FakeDevice, secretRandom } from './helpers.ts';

/** A model whose replies take longer than the turn (the rules speak; the turn is cut), with a prefix cache. */
function slowModel() {
  const requests: ChatMessage[][] = [];
  const warmed: Array<{ agent: string; messages: ChatMessage[] }> = [];
  let hang = true;
  return {
    requests,
    warmed,
    answer: () => (hang = false),
    model: {
      label: 'slow, prefix-caching',
      step: (req: StepRequest): Promise<Step> => {
        requests.push(req.messages.map((m) => ({ ...m })));
        if (!hang) return Promise.resolve({ action: 'reply', args: { text: '好的。' } });
        return new Promise<Step>((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
      prewarm: async (agent: string, messages: ChatMessage[]) => {
        warmed.push({ agent, messages: messages.map((m) => ({ ...m })) });
      },
    },
  };
}

const play = (agent: GuessNumberAgent, kind: 'start' | 'message' | 'end', text: string, ms: number, signal?: AbortSignal) => {
  const c = ctx();
  return { c, reply: agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: signal ?? c.signal, say: c.say, deadline: Date.now() + ms }) };
};

describe('prewarm of the next request', () => {
  it('after a cut start: the system prompt and the start as kept, and the next request begins with exactly them', async () => {
    const m = slowModel();
    const agent = new GuessNumberAgent({ model: m.model, device: new FakeDevice(), random: () => secretRandom(63) });
    // Real timers: the start's deadline is 300 ms away (the colour window, 2 s, never comes first).
    const start = play(agent, 'start', '我们来玩猜数字吧', 300);
    await start.reply;
    // The rules said the opening line at once, without the model.
    expect(start.c.intermediate.join('')).toMatch(/猜/);
    expect(m.warmed).toHaveLength(1);
    const [{ agent: who, messages }] = m.warmed;
    expect(who).toBe('game:guess-number');
    expect(messages[0]).toEqual({ role: 'system', content: agent.systemPrompt() });
    expect(messages.slice(1)).toEqual(agent.conversation);
    // The cut start's own request was read up to where it went: the prewarm continues it.
    const startRequest = m.requests[0];
    expect(messages.slice(0, startRequest.length)).toEqual(startRequest);

    m.answer();
    await play(agent, 'message', '我猜50', 10_000).reply;
    const next = m.requests.at(-1)!;
    expect(next.slice(0, messages.length)).toEqual(messages);
    expect(next[messages.length]!.content).toContain('我猜50');
  });

  it('the last turn and a cancelled turn prewarm nothing', async () => {
    const m = slowModel();
    m.answer();
    const agent = new GuessNumberAgent({ model: m.model, device: new FakeDevice(), random: () => secretRandom(63) });
    await play(agent, 'start', '我们来玩猜数字吧', 10_000).reply;
    expect(m.warmed).toHaveLength(1);
    const cancel = new AbortController();
    const cancelled = play(agent, 'message', '我猜50', 10_000, cancel.signal);
    cancel.abort(new DOMException('the child said something else', 'AbortError'));
    await expect(cancelled.reply).rejects.toBeDefined();
    expect(m.warmed).toHaveLength(1);
    await play(agent, 'end', '不玩了', 10_000).reply;
    expect(m.warmed).toHaveLength(1);
  });
});
