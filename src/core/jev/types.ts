/** A thing that can be named: a card's answer, or any other thing the players may say. */
export interface JevTarget {
  name: string;
  aliases: string[];
}

export interface JevResult {
  verdict: 'correct' | 'wrong' | 'unclear';
  /** The name (from the vocabulary) of the thing the player chose, when there is one. */
  matched?: string;
  /** Names of every known thing heard, in order, including ruled-out and withdrawn ones. */
  mentioned: string[];
  /** Why, in Chinese, for the trace and the parent. Never names the target unless correct. */
  reason: string;
}
