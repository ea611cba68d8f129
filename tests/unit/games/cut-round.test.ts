/**
 * A round cut by the turn's deadline is remembered as far as it went: the next request begins with
 * every message the engine already read in the cut round (input, the judged step, its result),
 * then the rules' line the child heard as the reply step, then the new input — so an engine that
 * keeps the longest common prefix (llama.cpp, the CPU engine) continues in place instead of
 * prefilling the round again. A round that decided nothing is not written.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { readToolResult, stepMessage } from '../../../src/core/agent/messages.ts';
import { cutRound } from '../../../src/core/agent/memory.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { ctx, FakeDevice, secretRandom } from './helpers.ts';

describe('a cut round', () => {
  it('is kept as far as it went: a trailing step without its result is left out, the line said instead is its reply', () => {
    const input: ChatMessage = { role: 'user', content: '{"event":"message","user_text":"我猜50"}' };
    const step = stepMessage({ action: 'submit_guess', args: { number: 50 } });
    const result: ChatMessage = { role: 'user', content: '<tool_response>{"name":"submit_guess","result":{"verdict":"too_small"}}</tool_response>' };
    const half = stepMessage({ action: 'show', args: {} });
    expect(cutRound([input, step, result, half], '50 小了！')).toEqual([input, step, result, stepMessage({ action: 'reply', args: { text: '50 小了！' } })]);
    expect(cutRound([input], null)).toEqual([input]);
  });

  it('the next request after a cut continues the cut round in place (every message the engine read comes first, unchanged)', async () => {
    const device = new FakeDevice();
    const requests: ChatMessage[][] = [];
    let hang = true;
    const model = {
      label: 'slow after judging',
      step: (req: StepRequest): Promise<Step> => {
        requests.push(req.messages.map((m) => ({ ...m })));
        const last = req.messages.at(-1)!;
        if (!readToolResult(last)) return Promise.resolve({ action: 'submit_guess', args: { number: Number(/\d+/.exec(last.content)?.[0] ?? 1) } });
        if (!hang) return Promise.resolve({ action: 'reply', args: { text: '好的。' } });
        // Writing the reply takes longer than the turn's budget.
        return new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
    };
    // Real timers: the turn's deadline is 300 ms away (the colour window, 2 s, never comes first).
    {
      const agent = new GuessNumberAgent({ model, device, random: () => secretRandom(63) });
      agent.game.start();
      const c = ctx();
      const cut = agent.turn({ kind: 'message', text: '我猜50', requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 300 });
      // The rules read 50 and said its verdict at once; the cut turn ends with their next prompt.
      const told = (await cut).text;
      expect(c.intermediate.join('')).toBe('50 小了！再大一点哦，还有 6 次机会。');
      expect(told).toBe('再猜一个吧！');
      // The cut request: system, input, the judged step and its result (with the rules' spoken line noted in it).
      const cutRequest = requests.at(-1)!;
      expect(cutRequest).toHaveLength(4);
      expect(readToolResult(cutRequest[3])?.said).toBe('50 小了！再大一点哦，还有 6 次机会。');
      expect(cutRequest[2]).toEqual(stepMessage({ action: 'submit_guess', args: { number: 50 } }));
      hang = false;
      const c2 = ctx();
      await agent.turn({ kind: 'message', text: '我猜70', requestId: c2.requestId, contextId: c2.contextId, signal: c2.signal, say: c2.say, deadline: Date.now() + 10_000 });
      const next = requests.find((r, i) => i > requests.indexOf(cutRequest) && r.length > 4)!;
      // In place: the cut request is the next request's prefix, then the line the child heard as the reply step.
      expect(next.slice(0, cutRequest.length)).toEqual(cutRequest);
      expect(next[cutRequest.length]).toEqual(stepMessage({ action: 'reply', args: { text: told } }));
      expect(next[cutRequest.length + 1]!.content).toContain('我猜70');
      expect(agent.conversation.filter((m) => m.content.includes('"event":"message"'))).toHaveLength(2);
    }
  });
});
