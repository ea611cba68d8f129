/**
 * One written form for numbers in answers: speech recognizers often write digits (「3年级」, 「2只」)
 * where a card says 三年级 or 两只, and a parent may type either. Arabic digits become the Chinese
 * reading (3 → 三, 12 → 十二, 105 → 一百零五; a run of five or more digits, or one starting with 0,
 * digit by digit), 两 becomes 二 and 〇 becomes 零, on both sides of a comparison. Pure.
 */

const HAN_DIGITS = '零一二三四五六七八九';
const UNITS = ['', '十', '百', '千'];

/** The Chinese reading of 0 … 9999 (10 → 十, 15 → 十五, 105 → 一百零五, 2000 → 二千). */
export function chineseReading(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 9999) throw new RangeError(`no reading for ${n}`);
  if (n === 0) return '零';
  const s = String(n);
  let out = '';
  let gap = false;
  for (let i = 0; i < s.length; i++) {
    const d = Number(s[i]);
    if (d === 0) {
      gap = true;
      continue;
    }
    if (gap && out) out += '零';
    gap = false;
    out += HAN_DIGITS[d] + UNITS[s.length - 1 - i];
  }
  return out.startsWith('一十') ? out.slice(1) : out;
}

/** Digits read out one by one (007 → 零零七). */
function digitByDigit(run: string): string {
  return [...run].map((c) => HAN_DIGITS[Number(c)]).join('');
}

/** The text with every number in one form (for comparing an answer with what was said). */
export function numeralForm(text: string): string {
  return text
    .replace(/\d+/g, (run) => (run.length > 4 || (run.length > 1 && run[0] === '0') ? digitByDigit(run) : chineseReading(Number(run))))
    .replace(/两/g, '二')
    .replace(/〇/g, '零');
}
