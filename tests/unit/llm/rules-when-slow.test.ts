/**
 * A game's brain on a device where the brain in use was measured too slow for the turn budget: its
 * steps go to the rules brain and nothing is read into its engine's cache; while it fits, every
 * step and prewarm goes to it. Decided at each step (a brain measured again counts from the next).
 */
import { describe, expect, it } from 'vitest';
import { rulesWhenTooSlow } from '../../../src/llm/rules-when-slow.ts';
import type { ChatMessage, ChatModel, StepRequest } from '../../../src/core/llm/types.ts';

function recording(label: string) {
  const steps: string[] = [];
  const warmed: string[] = [];
  const model: ChatModel = {
    label,
    step: async (req) => (steps.push(req.agent ?? ''), { action: 'reply', args: { text: label } }),
    prewarm: async (agent: string) => void warmed.push(agent),
  };
  return { model, steps, warmed };
}

const req = (agent: string): StepRequest => ({ agent, messages: [{ role: 'user', content: '我猜50' }], tools: [] });
const none: ChatMessage[] = [];

describe('a game’s brain on this device', () => {
  it('is the brain in use while it fits the turn budget, and the rules brain while it was measured too slow, step by step', async () => {
    const brain = recording('本地模型');
    const rules = recording('规则大脑');
    let tooSlow = false;
    const game = rulesWhenTooSlow(brain.model, () => tooSlow, async () => rules.model);
    expect(game.label).toBe('本地模型');

    expect((await game.step(req('game:guess-number'))).args.text).toBe('本地模型');
    await game.prewarm!('game:guess-number', none, new AbortController().signal);
    tooSlow = true;
    expect((await game.step(req('game:guess-number'))).args.text).toBe('规则大脑');
    await game.prewarm!('game:guess-number', none, new AbortController().signal);
    tooSlow = false;
    expect((await game.step(req('game:draw-guess'))).args.text).toBe('本地模型');

    expect(brain.steps).toEqual(['game:guess-number', 'game:draw-guess']);
    expect(rules.steps).toEqual(['game:guess-number']);
    // Nothing is read into the slow engine's cache while it is too slow.
    expect(brain.warmed).toEqual(['game:guess-number']);
  });
});
