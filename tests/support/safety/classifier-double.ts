/**
 * A learned-classifier double: a model in the shipped model's own format (src/core/safety/learned.ts)
 * that flags exactly the lines it is built with — every feature bucket of those lines weighs 1, and
 * a line is over the threshold when it has at least 80 % of the buckets of the shortest of them — so
 * a test decides which line only the classifier catches, with no luck and no dependence on the
 * trained weights. The whole check over it is the app's (`withLearned` over the rules).
 */
import { checkLine, type CheckLine, type SafetyCategory } from '../../../src/core/safety/classify.ts';
import { featuresOf, withLearned, type LoadedModel } from '../../../src/core/safety/learned.ts';
import type { SafetyCheckLoader } from '../../../src/core/games/engine-host.ts';

const DIM = 1 << 16;

/** A classifier model that flags `lines` (and lines made mostly of one of them) as `category`. */
export function classifierFlagging(lines: readonly string[], category: SafetyCategory = 'danger'): LoadedModel {
  const w = new Int8Array(DIM);
  const sizes = lines.map((l) => {
    const f = featuresOf(l, DIM);
    for (const b of f) w[b] = 1;
    return f.length;
  });
  const need = Math.ceil(0.8 * Math.min(...sizes));
  // Over the threshold (0.5) exactly when the line has more than `need - 0.5` of the weighted buckets.
  const model = { version: 1 as const, dim: DIM, categories: [category], bias: [-(need - 0.5)], scale: [1], threshold: [0.5], weights: '' };
  return { model, w };
}

/** The whole check (the rules, then the classifier) over a classifier that flags `lines`. */
export function checkFlagging(lines: readonly string[], category?: SafetyCategory): CheckLine {
  return withLearned(checkLine, classifierFlagging(lines, category));
}

/** A loader of that check, as an engine is given one (EngineContext.safety). */
export function loaderFlagging(lines: readonly string[], category?: SafetyCategory): SafetyCheckLoader {
  const check = checkFlagging(lines, category);
  return () => Promise.resolve(check);
}
