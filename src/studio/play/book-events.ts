/**
 * "The Book changed" between the places that hold it open: the Studio screen and the arcade's game
 * list on the main thread, and game workers writing PlayBook records. A BroadcastChannel reaches
 * every one of them (other tabs too); where there is none (old runtimes), nothing is announced.
 */
const BOOK_CHANNEL = 'agentcade-book';

export type BookChange =
  /** Projects changed (a design reached play, was renamed or deleted): the arcade re-reads its list. */
  | { type: 'projects' }
  /** A play session wrote its PlayBook record: the Studio screen re-reads the records. */
  | { type: 'playbook'; projectId: string };

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(BOOK_CHANNEL) : null;
}

export function announceBookChange(change: BookChange): void {
  const ch = channel();
  if (!ch) return;
  try {
    ch.postMessage(change);
  } finally {
    ch.close();
  }
}

/** Calls `fn` for every change announced elsewhere; returns a function that stops listening. */
export function onBookChange(fn: (change: BookChange) => void): () => void {
  const ch = channel();
  if (!ch) return () => {};
  ch.onmessage = (ev: MessageEvent) => {
    const c = ev.data as BookChange | undefined;
    if (c && (c.type === 'projects' || c.type === 'playbook')) fn(c);
  };
  return () => ch.close();
}
