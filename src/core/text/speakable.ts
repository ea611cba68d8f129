/**
 * What the robot can say: a line is read aloud, so emoji and pictographic symbols (🐶, ★, ♥) have
 * no sound — a card whose answer is 🐶 can never be answered by voice. `unsayable` names each such
 * mark in a text (an emoji sequence once, as it is seen). Letters, digits, punctuation and the
 * arithmetic signs are sayable. Pure.
 */

const UNSAYABLE = /\p{Extended_Pictographic}(?:\uFE0F|\u20E3|\p{Emoji_Modifier}|\u200D\p{Extended_Pictographic}\uFE0F?)*|\p{Regional_Indicator}{1,2}|[\p{So}\p{Co}\p{Cn}\uFE0F\u200D]/gu;

/** The marks in `text` the robot cannot say, each once, in order. */
export function unsayable(text: string): string[] {
  return [...new Set(text.match(UNSAYABLE) ?? [])];
}
