/**
 * The already-said check: a sentence of the model's reply that says again what this turn already
 * said (the rules' truthful line, spoken first) is dropped, not said twice — 「80 大了。」 after
 * 「80 大了！」. Two sentences are the same claim when they match once punctuation, spaces and the
 * particles that only colour a sentence (啦、呀、哦、吧…) are taken out, or when one is contained in
 * what was said.
 */

/** Sentence-final and colouring particles that change no claim. */
const PARTICLES = /[啦呀哦吧呢啊嘛哇喔噢耶咯哟呐]/g;
/** Punctuation, symbols and spaces of any width. */
const MARKS = /[\s\p{P}\p{S}]/gu;

/** A sentence reduced to what it claims: NFKC, no punctuation, no particles, no 了 at the end. */
export function claimForm(sentence: string): string {
  return sentence.normalize('NFKC').replace(MARKS, '').replace(PARTICLES, '').replace(/了$/, '').toLowerCase();
}

/** Whether `sentence` says nothing that `said` (this turn's sentences so far) did not say already. */
export function alreadySaid(sentence: string, said: readonly string[]): boolean {
  const form = claimForm(sentence);
  if (!form) return said.length > 0;
  const before = said.map(claimForm);
  // 「了」 in the middle is part of the claim only in the sentence's own words; compare both ways.
  const all = before.join('');
  if (before.includes(form)) return true;
  // Containment only for a claim of two characters or more (「好」 is in many sentences).
  return form.length >= 2 && (all.includes(form) || all.replace(/了/g, '').includes(form.replace(/了/g, '')));
}

/**
 * Whether every outcome claim of `sentence` (the game's truth rules find them) was claimed already
 * by a sentence of `said`: 「50 比答案大」 after 「50 大了！」 says nothing new.
 */
export function repeatsClaims(sentence: string, said: readonly string[], claims: (s: string) => Array<{ kind: string; value?: string | number }>): boolean {
  const mine = claims(sentence);
  if (!mine.length) return false;
  const before = said.flatMap((s) => claims(s));
  // A number merely mentioned is covered by any claim about that number.
  return mine.every((c) => before.some((b) => b.value === c.value && (b.kind === c.kind || c.kind === 'number')));
}
