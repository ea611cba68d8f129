/**
 * Where a Studio session's records go (./studio-session.ts): the design trace is kept until the
 * next save; a save writes the declared game once (the arcade lists it), then the snapshot with the
 * trace. A failed save keeps the trace for the next one.
 */
import { endSentence } from '../core/text/punctuation.ts';
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

  /**
   * The action is already applied when the save runs: a failed save (e.g. IndexedDB full or closed)
   * must not turn into a rejected action; the parent is told instead (`tell`), and the next action
   * saves again.
   */
  async saveOrTell(projectId: string, snapshot: () => SessionSnapshot, declared: DeclaredGame | null, tell: (text: string) => void): Promise<void> {
    try {
      await this.save(projectId, snapshot, declared);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      tell(`保存失败：${endSentence(why)}在下次保存成功之前，请不要刷新或关闭页面。`);
    }
  }
}
