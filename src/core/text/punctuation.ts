/**
 * Chinese punctuation where texts are put together: list items joined with 「、」 lose their own
 * trailing comma (「没关系，」「差一点点，」 → 「没关系、差一点点」), a sentence gets exactly one
 * full stop, and `punctuationProblems` names what a reader would notice as a slip (「。。」,
 * 「，、」, a 「、」 left at the end).
 */

/** Marks that end a list item or a clause, dropped before a separator is added. */
const TRAILING = /[\s，,、；;：:。.]+$/u;
/** A text that already ends a sentence (or a quote or bracket that closes one). */
const ENDED = /[。！？!?…」』）)”]$/u;

/** One list item as it is joined into a list: no trailing comma, stop or space. */
export function listItem(text: string): string {
  return text.replace(TRAILING, '');
}

/** Items joined with `sep` (「、」 by default), each without its own trailing punctuation; empty items left out. */
export function joinList(items: readonly string[], sep = '、'): string {
  return items.map(listItem).filter(Boolean).join(sep);
}

/** The text as one sentence: trailing commas or stops replaced by exactly one `mark`, unless it already ends one. */
export function endSentence(text: string, mark = '。'): string {
  const t = text.trim();
  if (!t) return t;
  if (ENDED.test(t) && !/[。.]{2,}$/u.test(t)) return t;
  return `${listItem(t)}${mark}`;
}

/** Pairs of marks a reader notices as a slip (one of them is extra). */
const DOUBLED = /([。，、；：])\1/u;
const MIXED = /[，、；：][，、。；：！？]|[。！？][，、；：]|。[！？]/u;
const ODD_END = /[、，；：]$/u;

/**
 * What is wrong with the punctuation of a text (empty when nothing is): a doubled mark
 * (「。。」「，，」), two marks where one belongs (「，、」「、。」「。，」), or a finished text
 * ending in 「、」「，」「；」「：」. A `fragment` (a piece of source text that something is put
 * after, such as 「正在玩：」) may end in 「，」「；」「：」, never in 「、」. 「……」 and 「！！」 are
 * kept as writers use them.
 */
export function punctuationProblems(text: string, opts: { fragment?: boolean } = {}): string[] {
  const out: string[] = [];
  const doubled = DOUBLED.exec(text);
  if (doubled) out.push(`doubled 「${doubled[0]}」`);
  const mixed = MIXED.exec(text);
  if (mixed) out.push(`stray 「${mixed[0]}」`);
  const t = text.trim();
  if (opts.fragment ? Array.from(t).length > 1 && t.endsWith('、') : ODD_END.test(t)) out.push(`ends with 「${t.slice(-1)}」`);
  return out;
}
