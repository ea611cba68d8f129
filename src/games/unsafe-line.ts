/**
 * The child-safety check as a game engine uses it before a sentence is sent (the speaking path
 * checks every line again): a line it would block is never sent, and the engine rebuilds the rest
 * of the turn from its rules instead (src/core/games/blocked-turn.ts), recording the finding for
 * the parent's 安全提醒 as the speaking path does. Loaded on first use: its tables are large, and a
 * game's worker needs them only once it plays. Until it has loaded, `unsafeNow` finds nothing (the
 * speaking path still checks that line).
 */
import type { SafetyCategory } from '../core/safety/classify.ts';

export interface UnsafeFinding {
  category: SafetyCategory;
  rule: string;
  view: string;
}

type Check = (text: string) => UnsafeFinding | null;

let loading: Promise<Check> | null = null;
let loaded: Check | null = null;

export function loadUnsafe(): Promise<Check> {
  loading ??= import('../core/safety/classify.ts').then((m) => {
    const check = (text: string) => {
      const v = m.checkLine(text, 'robot');
      return v.verdict === 'blocked' ? { category: v.category, rule: v.rule, view: v.view } : null;
    };
    // Once as soon as it has loaded: a game's first real sentence (a start's opening line) does not wait for the compiling.
    check(m.WARM_UP_LINE);
    return (loaded = check);
  });
  return loading;
}

/** What the check finds in the line, once it has loaded (null before: the speaking path checks it). */
export function unsafeNow(text: string): UnsafeFinding | null {
  if (!loaded) void loadUnsafe();
  return loaded?.(text) ?? null;
}

/** The claim kind of a sentence the check blocks (held back like a false one, never written again). */
export const UNSAFE = 'unsafe';

/** The trace record of a blocked line, as 安全提醒 reads it (src/core/trace/reading.ts). */
export function blockedRecord(f: UnsafeFinding | null, o: { original: string; said: string; gameId?: string }) {
  return { ...(f ?? {}), role: 'game_agent', gameId: o.gameId, original: o.original, said: o.said, engine: true };
}
