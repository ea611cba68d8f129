/**
 * The time budget of one turn, the same for the main agent's rounds and for game requests: the
 * child's words, then
 * - by `stillThinkingMs` (T1), if nothing has been said yet, one short "still thinking" line;
 * - by `answerMs` (T2), a real answer or a true fallback — never longer.
 * Everything that waits inside a turn is sized from it: the deadline every model step gets (the model
 * layer fits its timeouts and retries into it), the game side's own deadline (it speaks a line built
 * from its tool results before the main agent gives up on it), the remote step timeouts (first
 * byte / idle / total), and the game host's hang detection. Pure numbers.
 */

export interface TurnBudget {
  /** T1: nothing said this long after the child's words → one "still thinking" line. */
  stillThinkingMs: number;
  /** T2: a real answer or a true fallback within this long of the child's words. */
  answerMs: number;
  /**
   * The colour window: once a game's rules have spoken a turn's truthful line (a pre-executed step,
   * src/core/games/reader.ts), the model has this long to finish its own reply; after it the turn
   * ends with the rules' next prompt and the late output is not spoken. Never longer than T2.
   */
  colourMs: number;
}

/** The colour window unless one is stored (every game uses the same). */
export const COLOUR_WINDOW_MS = 2000;

export const DEFAULT_TURN_BUDGET: TurnBudget = { stillThinkingMs: 4000, answerMs: 20_000, colourMs: COLOUR_WINDOW_MS };

/** Limits a parent (or a test) may set; anything outside is brought inside. */
export const TURN_BUDGET_LIMITS = { stillThinkingMs: { min: 500, max: 15_000 }, answerMs: { min: 2000, max: 180_000 }, colourMs: { min: 500, max: 60_000 } } as const;

/**
 * The range of T2 a parent may choose in 设置 (「回答时限」, whole seconds): long enough for a slow
 * brain or a busy home computer, short enough that a child is never left longer than two minutes.
 * Both the remote 超时 field and a local brain's measured wait are bounded by it.
 */
export const PARENT_ANSWER_LIMITS = { min: 10_000, max: 120_000, step: 5000 } as const;

/** A parent's T2 in seconds → the budget that keeps their T1 (T2 brought inside the parent's range). */
export function withParentAnswer(b: TurnBudget, seconds: number): TurnBudget {
  const ms = Number.isFinite(seconds) ? Math.round(seconds) * 1000 : b.answerMs;
  const answerMs = Math.min(PARENT_ANSWER_LIMITS.max, Math.max(PARENT_ANSWER_LIMITS.min, ms));
  return normalizeTurnBudget({ ...b, answerMs });
}

/**
 * Time kept back at the end of a turn for the line that answers it to reach the speaker: a game
 * answers by `answerMs - GAME_REPLY_MARGIN_MS` (its reply still crosses the A2A channel), and the
 * main agent's model steps must be decided by `answerMs - MAIN_REPLY_MARGIN_MS`.
 */
export const GAME_REPLY_MARGIN_MS = 1200;
export const MAIN_REPLY_MARGIN_MS = 600;

function clamp(v: unknown, lim: { min: number; max: number }, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(lim.max, Math.max(lim.min, Math.round(n)));
}

/** Any stored value → a valid budget (T1 always before T2). */
export function normalizeTurnBudget(v: unknown): TurnBudget {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Partial<Record<keyof TurnBudget, unknown>>;
  const answerMs = clamp(o.answerMs, TURN_BUDGET_LIMITS.answerMs, DEFAULT_TURN_BUDGET.answerMs);
  const stillThinkingMs = Math.min(clamp(o.stillThinkingMs, TURN_BUDGET_LIMITS.stillThinkingMs, DEFAULT_TURN_BUDGET.stillThinkingMs), Math.floor(answerMs / 2));
  const colourMs = Math.min(clamp(o.colourMs, TURN_BUDGET_LIMITS.colourMs, DEFAULT_TURN_BUDGET.colourMs), answerMs);
  return { stillThinkingMs, answerMs, colourMs };
}

/** Per-attempt limits of one model request (a remote server): first content, silence mid-answer, whole attempt. */
export interface StepTimeouts {
  firstByteMs: number;
  idleMs: number;
  totalMs: number;
}

/**
 * Remote step timeouts that fit the budget: a stalled server is noticed early enough to be asked
 * again (with backoff) and still answer within T2. With the default budget: 8 s to the first piece,
 * 5 s of silence mid-answer, 15 s per attempt (each also capped by the step's deadline).
 */
export function stepTimeouts(b: TurnBudget): StepTimeouts {
  return {
    firstByteMs: Math.max(1000, Math.round(b.answerMs * 0.4)),
    idleMs: Math.max(800, Math.round(b.answerMs * 0.25)),
    totalMs: Math.max(1500, Math.round(b.answerMs * 0.75)),
  };
}

/** How long a game worker may stay silent on an open request before it is pinged (after the main agent has answered the child). */
export function hangTimeoutMs(b: TurnBudget): number {
  return b.answerMs + 5000;
}
