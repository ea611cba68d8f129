/**
 * Where a Studio session's records go (./studio-session.ts): the design trace is kept until the
 * next save; a save writes the declared game once (the arcade lists it), then the snapshot with the
 * trace. A failed save keeps the trace for the next one.
 */
import type { DeclaredGame } from '../core/studio/cards.ts';
import type { DesignTraceEntry, SessionSnapshot } from '../core/studio/types.ts';
import type { SessionStore } from './session-types.ts';

export class SessionSaver {
  private trace: DesignTraceEntry[] = [];
  private declaredSaved = false;

  constructor(private readonly store: SessionStore | undefined) {}

  log(entry: DesignTraceEntry): void {
    this.trace.push(entry);
  }

  async save(projectId: string, snapshot: () => SessionSnapshot, declared: DeclaredGame | null): Promise<void> {
    const store = this.store;
    const trace = this.trace;
    this.trace = [];
    if (!store) return;
    try {
      if (declared && !this.declaredSaved) {
        await store.saveDeclared(projectId, declared);
        this.declaredSaved = true;
      }
      await store.saveSession(snapshot(), trace);
    } catch (err) {
      this.trace = [...trace, ...this.trace]; // kept for the next save
      throw err;
    }
  }
}
