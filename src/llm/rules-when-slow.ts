/**
 * A game's brain on this device: the brain in use while it can answer within the turn budget, and
 * the rules brain while that brain was measured here too slow for it (`BrainSpeed.fits` false). A
 * step of a brain too slow comes after T2, so the turn would be cut and the rules' line said in its
 * place anyway; the rules brain says that line at once, and the engine is not kept busy by game
 * steps no one will hear (a chat step after the game does not wait behind them). Decided at each
 * step: a brain measured again, another brain, or a T2 the parent raised counts from the next one.
 */
import type { ChatModel } from '../core/llm/types.ts';

export function rulesWhenTooSlow(model: ChatModel, tooSlow: () => boolean, rules: () => Promise<ChatModel>): ChatModel {
  return {
    get label() {
      return model.label;
    },
    ...(model.traits ? { traits: () => model.traits!() } : {}),
    step: async (req) => (tooSlow() ? (await rules()).step(req) : model.step(req)),
    prewarm: async (agent, messages, signal) => {
      if (!tooSlow()) await model.prewarm?.(agent, messages, signal);
    },
  };
}
