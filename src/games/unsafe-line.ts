/**
 * The child-safety check as a game engine uses it before a sentence is sent: the speaking path's
 * own check (the rules and the learned classifier), which the worker's composition root hands to
 * the engines (`EngineContext.safety`). A line it would block is never sent, and the engine
 * rebuilds the rest of the turn from its rules instead (src/core/games/blocked-turn.ts), recording
 * the finding for the parent's 安全提醒 as the speaking path does. The speaking path checks every
 * line again: it stays the final check. An engine built without a check (a bench run) leaves every
 * line to it.
 */
import type { SafetyCheckLoader } from '../core/games/engine-host.ts';
import type { CheckLine, SafetyCategory } from '../core/safety/classify.ts';

export interface UnsafeFinding {
  category: SafetyCategory;
  rule: string;
  view: string;
  /** Which half of the check found it: the rules or the learned classifier. */
  by?: 'rules' | 'classifier';
}

/** What the check finds in a line the robot is about to say (null: it may be said). */
export type UnsafeCheck = (text: string) => UnsafeFinding | null;

/** The check of an engine built without one: it finds nothing (the speaking path checks every line). */
export const FINDS_NOTHING: UnsafeCheck = () => null;

/** A robot's line through the check: the finding, or null. */
export function unsafeCheck(check: CheckLine): UnsafeCheck {
  return (text) => {
    const v = check(text, 'robot');
    return v.verdict === 'blocked' ? { category: v.category, rule: v.rule, view: v.view, by: v.by } : null;
  };
}

/** The engine's check, once its loader has loaded it (`FINDS_NOTHING` without a loader). */
export async function loadUnsafe(load: SafetyCheckLoader | undefined): Promise<UnsafeCheck> {
  return load ? unsafeCheck(await load()) : FINDS_NOTHING;
}

/** The claim kind of a sentence the check blocks (held back like a false one, never written again). */
export const UNSAFE = 'unsafe';

/** The trace record of a blocked line, as 安全提醒 reads it (src/core/trace/reading.ts). */
export function blockedRecord(f: UnsafeFinding | null, o: { original: string; said: string; gameId?: string }) {
  return { ...(f ?? {}), role: 'game_agent', gameId: o.gameId, original: o.original, said: o.said, engine: true };
}
