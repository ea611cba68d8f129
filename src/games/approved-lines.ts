/**
 * Texts a parent approved for their own game (a card the safety check flagged when it was written,
 * approved with its category shown): kept with the design (`设计.已批准`), registered here by the
 * arcade's shelf of Studio games when it reads them, and read by the safety screen for that game's
 * lines. Main thread.
 */
const approved = new Map<string, readonly string[]>();

export function setApprovedLines(gameId: string, texts: readonly string[]): void {
  const clean = [...new Set(texts.map((t) => t.trim()).filter(Boolean))];
  if (clean.length) approved.set(gameId, clean);
  else approved.delete(gameId);
}

export function approvedLinesOf(gameId: string): readonly string[] {
  return approved.get(gameId) ?? [];
}
