/**
 * The turn budget in use (src/core/arcade/turn-budget.ts): T1 and T2, persisted in localStorage so a
 * grown-up (or a test) can give a slow home server more time, or a quick one less. Read at every
 * round; anything stored out of range is brought inside.
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

export function setTurnBudget(b: Partial<TurnBudget>): TurnBudget {
  const next = normalizeTurnBudget({ ...turnBudget(), ...b });
  storage()?.setItem(KEY, JSON.stringify(next));
  return next;
}
