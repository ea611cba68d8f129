/**
 * The child-safety check — the rules (../core/safety/classify.ts) and the learned classifier
 * (../core/safety/learned.ts, its weights ./safety-model.json made by `npm run safety:train`) — as
 * one check, loaded once per thread on first need: each part by its own dynamic import, so its
 * tables (large) stay out of the first screen's code. The speaking path uses it before every
 * spoken line (./safety-screen.ts); a game worker's composition root hands the same loader to
 * its engines (`EngineContext.safety`), which check a line before they send it.
 */
import type { CheckLine } from '../core/safety/classify.ts';
import type { LearnedModel } from '../core/safety/learned.ts';

let loading: Promise<CheckLine> | null = null;

/** The safety check — the rules and the learned classifier — loaded once (on first need, or by `warmSafetyCheck`). */
export function loadSafetyCheck(): Promise<CheckLine> {
  loading ??= Promise.all([import('../core/safety/classify.ts'), import('../core/safety/learned.ts'), import('./safety-model.json')]).then(([rules, learned, model]) => {
    const check = learned.withLearned(rules.checkLine, learned.loadModel(model.default as unknown as LearnedModel));
    // Its patterns compile on first use (hundreds of milliseconds): once now, in its own task, so the
    // first sentence the robot says (often a game's opening line) does not wait for it.
    setTimeout(() => check(rules.WARM_UP_LINE), 0);
    return check;
  });
  return loading;
}
