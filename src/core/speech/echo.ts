/**
 * The echo guard on words: a recognized utterance that matches what the robot was saying at that
 * moment (its subtitle) is the robot's own voice heard back, not the child. Pure text similarity:
 * the share of the heard words' character pairs that also occur in the subtitle (punctuation,
 * spaces and case ignored), so a heard fragment of a long line matches too.
 */

function letters(text: string): string[] {
  return Array.from(text.toLowerCase().replace(/[\s\p{P}\p{S}]/gu, ''));
}

function pairs(chars: readonly string[]): string[] {
  if (chars.length < 2) return chars.slice();
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** 0..1: how much of `heard` is found in `said` (1: every character pair of it). */
export function echoSimilarity(heard: string, said: string): number {
  const h = pairs(letters(heard));
  const s = new Set(pairs(letters(said)));
  if (h.length === 0 || s.size === 0) return 0;
  return h.filter((p) => s.has(p)).length / h.length;
}

/**
 * Whether `heard` is the robot's `subtitle` heard back: at least two characters and most of its
 * character pairs (`threshold`) in the subtitle. "停一下" over "我们来玩猜数字" is not.
 */
export function isSubtitleEcho(heard: string, subtitle: string | null, threshold = 0.6): boolean {
  if (!subtitle) return false;
  if (letters(heard).length < 2) return false;
  return echoSimilarity(heard, subtitle) >= threshold;
}
