/**
 * The turn budget in use (src/core/arcade/turn-budget.ts): T1, T2 and the colour window, the defaults
 * unless a value is stored in localStorage (a parent sets T2 in 设置 → 大脑, 「回答时限」; the chaos
 * tests store short T1/T2, tests that need a model's reply store a long colour window). Read at
 * every round; anything stored out of range is brought inside.
 */
import { normalizeTurnBudget, withParentAnswer, type TurnBudget } from '../core/arcade/turn-budget.ts';

const KEY = 'agentcade.settings.turn-budget';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function turnBudget(): TurnBudget {
  let stored: unknown;
  try {
    stored = JSON.parse(storage()?.getItem(KEY) ?? 'null');
  } catch {
    stored = null;
  }
  return normalizeTurnBudget(stored);
}

/** A parent's 「回答时限」 in seconds, kept within the parent's range; returns the budget now in use. */
export function setAnswerSeconds(seconds: number): TurnBudget {
  const next = withParentAnswer(turnBudget(), seconds);
  try {
    storage()?.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the budget stays as it was for this page.
    return turnBudget();
  }
  return next;
}
