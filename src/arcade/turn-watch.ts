/**
 * The turn budget as the child hears it (src/core/arcade/turn-budget.ts), one mechanism for every
 * round — the main agent thinking, a game request, both: from the child's words, if nothing has
 * been said for the round by T1, one short "still thinking" line (an aside, in turn among its
 * variants); and every wait inside the round is given the round's deadline (T2), by which it
 * answers or says a true fallback (the model loop and GameRequests enforce it).
 */
import type { TurnBudget } from '../core/arcade/turn-budget.ts';

export interface TurnWatchDeps {
  budget(): TurnBudget;
  /** Says the "still thinking" line for a round (through the speaking path). */
  stillThinking(roundId: string): void;
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export class TurnWatch {
  /** The "still thinking" timer of each round not yet answered. */
  private readonly rounds = new Map<string, unknown>();
  /** Start times of recent rounds (deadlines are asked after a round is over: later game replies). */
  private readonly starts = new Map<string, number>();

  constructor(private readonly deps: TurnWatchDeps) {}

  /** The child's words of a round have arrived. */
  begin(roundId: string): void {
    const start = this.deps.now();
    const timer = this.deps.setTimer(() => {
      if (!this.rounds.has(roundId)) return;
      this.rounds.delete(roundId);
      this.deps.stillThinking(roundId);
    }, this.deps.budget().stillThinkingMs);
    this.rounds.set(roundId, timer);
    this.starts.set(roundId, start);
    // Bounded: a round's deadline is asked within T2 of its start.
    while (this.starts.size > 16) this.starts.delete(this.starts.keys().next().value as string);
  }

  /** Something was said for the round: no "still thinking" line is needed any more. */
  spoke(roundId: string | undefined): void {
    if (roundId === undefined || !this.rounds.has(roundId)) return;
    this.deps.clearTimer(this.rounds.get(roundId));
    this.rounds.delete(roundId);
  }

  /** The round is over. */
  end(roundId: string | undefined): void {
    this.spoke(roundId);
  }

  /** When the round must have its real answer (T2 after the child's words). */
  deadline(roundId: string | undefined): number {
    const start = (roundId !== undefined ? this.starts.get(roundId) : undefined) ?? this.deps.now();
    return start + this.deps.budget().answerMs;
  }
}
