/**
 * Who listens to the main agent (the arcade screen, the app runtime): its events, each to every
 * listener; a listener that throws does not break the agent nor stop the others.
 */
import type { AgentEvent, AgentSnapshot } from './types.ts';

export class AgentEvents {
  private readonly listeners = new Set<(e: AgentEvent) => void>();

  constructor(private readonly snapshot: () => AgentSnapshot) {}

  /** A new listener hears the current state at once. */
  subscribe(fn: (e: AgentEvent) => void): () => void {
    this.listeners.add(fn);
    fn({ type: 'state', snapshot: this.snapshot() });
    return () => this.listeners.delete(fn);
  }

  emit(e: AgentEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A broken listener does not break the agent.
      }
    }
  }

  /** The state changed: every listener hears the new snapshot. */
  state(): void {
    this.emit({ type: 'state', snapshot: this.snapshot() });
  }
}
