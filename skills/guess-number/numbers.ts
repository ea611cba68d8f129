/**
 * Numbers a child said: Arabic digits (also full-width) and Chinese numerals (五十六, 两, 一百).
 * Used to check that `submit_guess(number)` judges a number the child really said.
 */
const DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 幺: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** Parses one run of Chinese numeral characters, e.g. 九十九 → 99, 十五 → 15, 一百零五 → 105, 五六 → 56. */
export function parseChineseNumeral(run: string): number | null {
  if (!/^[零〇一幺二两三四五六七八九十百千]+$/.test(run)) return null;
  if (!/[十百千]/.test(run)) {
    // Digit by digit (五六 → 56), as children and ASR sometimes say numbers.
    return Number([...run].map((c) => DIGITS[c]).join(''));
  }
  let total = 0;
  let current = 0;
  for (const ch of run) {
    if (ch in DIGITS) current = DIGITS[ch];
    else {
      const unit = ch === '十' ? 10 : ch === '百' ? 100 : 1000;
      total += (current || 1) * unit;
      current = 0;
    }
  }
  return total + current;
}

/** Every number in a sentence, in order. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.normalize('NFKC').matchAll(/\d+|[零〇一幺二两三四五六七八九十百千]+/g)) {
    const n = /^\d+$/.test(m[0]) ? Number(m[0]) : parseChineseNumeral(m[0]);
    if (n !== null && Number.isFinite(n)) out.push(n);
  }
  return out;
}
