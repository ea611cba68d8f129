/**
 * The main agent's history of a play: the child's words and every line said, bounded (the model
 * only ever sees the newest few: HISTORY_WINDOW in ./prompt.ts).
 */
import type { ChatMessage } from '../llm/types.ts';
import type { HistoryEntry } from './types.ts';

/** History entries kept. */
export const HISTORY_KEPT = 64;

export class RoundHistory {
  readonly entries: HistoryEntry[] = [];

  /** Adds one entry; the oldest go once there are more than HISTORY_KEPT. */
  remember(entry: HistoryEntry): void {
    this.entries.push(entry);
    if (this.entries.length > HISTORY_KEPT) this.entries.splice(0, this.entries.length - HISTORY_KEPT);
  }

  /**
   * The child's entry of a round the model decided keeps that round exactly as it was sent and
   * generated; the main agent's lines of the round are inside it (the game's replies stay their own).
   */
  keepSent(asked: HistoryEntry, sent: ChatMessage[]): void {
    const h = this.entries;
    const i = h.indexOf(asked);
    if (i < 0) return;
    h[i] = { ...asked, sent };
    for (let k = i + 1; k < h.length; k++) if (h[k].role === 'main') h[k] = { ...h[k], inSent: true };
  }
}
