/**
 * The turn budget in use (src/core/arcade/turn-budget.ts): T1 and T2, the defaults unless a value is
 * stored in localStorage (there is no screen for it yet; the chaos tests store short ones). Read at
 * every round; anything stored out of range is brought inside.
 */
import { normalizeTurnBudget, type TurnBudget } from '../core/arcade/turn-budget.ts';

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
