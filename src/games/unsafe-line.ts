/**
 * The child-safety check as a game engine uses it before a sentence is sent (the speaking path
 * checks every line again): a line it would block is never sent, and the engine rebuilds the rest
 * of the turn from its rules instead (src/core/games/blocked-turn.ts). Loaded on first use: its
 * tables are large, and a game's worker needs them only once it plays. Until it has loaded,
 * `unsafeNow` answers false (the speaking path still checks that line).
 */
type Unsafe = (text: string) => boolean;

let loading: Promise<Unsafe> | null = null;
let loaded: Unsafe | null = null;

export function loadUnsafe(): Promise<Unsafe> {
  loading ??= import('../core/safety/classify.ts').then((m) => (loaded = (text: string) => m.checkLine(text, 'robot').verdict === 'blocked'));
  return loading;
}

/** Whether the line would be blocked, when the check has loaded (false before: the speaking path checks it). */
export function unsafeNow(text: string): boolean {
  if (!loaded) void loadUnsafe();
  return loaded?.(text) ?? false;
}

/** The claim kind of a sentence the check blocks (held back like a false one, never written again). */
export const UNSAFE = 'unsafe';
