/**
 * Long text is spoken piece by piece (research hw-speech §5): split after sentence punctuation,
 * then, for a piece still too long, after a comma, then hard. Each piece stays short enough to
 * dodge Chromium's ~15 s cut-off and to be settled by a fair watchdog.
 */
const PIECE_MAX_CHARS = 60;

const SENTENCE_END = /[。！？!?；;…\n]/;
const SOFT_BREAK = /[，,、：:]/;

function cut(text: string, boundary: RegExp): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of Array.from(text)) {
    cur += ch;
    if (boundary.test(ch)) {
      out.push(cur);
      cur = '';
    }
  }
  if (cur) out.push(cur);
  // Closing quotes/brackets stay with the sentence they end.
  for (let i = 1; i < out.length; i++) {
    const m = /^[”’」』）)\]"']+/.exec(out[i]);
    if (m) {
      out[i - 1] += m[0];
      out[i] = out[i].slice(m[0].length);
    }
  }
  return out.filter((p) => p.trim() !== '');
}

/** The sentences of a text, each with its end punctuation and closing quotes; a last one may be unfinished. */
export function sentencesOf(text: string): string[] {
  return cut(text, SENTENCE_END);
}

/** Whether a sentence ends with sentence punctuation (closing quotes and brackets may follow). */
export function isFinishedSentence(sentence: string): boolean {
  return /[。！？!?；;…\n][”’」』）)\]"']*\s*$/.test(sentence);
}

export function splitSentences(text: string, max = PIECE_MAX_CHARS): string[] {
  const pieces: string[] = [];
  for (const sentence of cut(text.trim(), SENTENCE_END)) {
    if (Array.from(sentence).length <= max) {
      pieces.push(sentence.trim());
      continue;
    }
    // Too long: pack comma-separated parts up to `max`, hard-cutting any part still longer.
    let cur = '';
    for (const part of cut(sentence, SOFT_BREAK)) {
      const chars = Array.from(part);
      if (chars.length > max) {
        if (cur) pieces.push(cur.trim());
        cur = '';
        for (let i = 0; i < chars.length; i += max) pieces.push(chars.slice(i, i + max).join('').trim());
        continue;
      }
      if (Array.from(cur).length + chars.length > max) {
        pieces.push(cur.trim());
        cur = '';
      }
      cur += part;
    }
    if (cur.trim()) pieces.push(cur.trim());
  }
  return pieces.filter(Boolean);
}
