/**
 * Numbers in spoken Chinese, as ASR writes them: Arabic digits (full-width too) and Chinese
 * numerals (五十六, 两, 一百零五, digit by digit 五六 = 56). Each numeral is returned with what
 * surrounds it, so a reader can tell a number from a word that only contains a numeral character:
 * 一个 / 一下 / 一次 (a numeral with a measure word), 第一 (an ordinal), 想一想 (a verb said twice
 * around 一), 一起 / 一样 / 乱七八糟 (words and idioms), 六十多 / 三四十 (about a number, not one).
 * Pure; used by games to read a child's words and by truth rules to read what the robot says.
 */

const DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 幺: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };
const NUMERAL_CHARS = '零〇一幺二两三四五六七八九十百千万';

/**
 * Words and idioms that contain a numeral character but say no number. Matched before numerals
 * are read (longest first), so 一模一样 never yields 1.
 */
const WORDS = [
  '一模一样', '乱七八糟', '七上八下', '五颜六色', '三心二意', '一心一意', '一五一十', '不三不四', '七嘴八舌', '四面八方', '五花八门', '十全十美', '一清二楚', '独一无二', '一下子', '一口气', '一会儿',
  '一起', '一样', '一定', '一直', '一会', '一共', '一边', '一般', '一切', '一旦', '一向', '一致', '一眼', '一句', '一声', '一番', '一阵', '一点', '一些', '一丁点', '一半', '一如既往', '一开始',
  '统一', '唯一', '万一', '十分', '四处', '三明治', '一家人', '一年级', '二年级', '三年级', '万岁', '千万', '万分', '百分百', '十足', '一路',
  '一同', '一齐', '一道', '一心',
].sort((a, b) => b.length - a.length);

/** Measure words: a numeral right before one counts things (一个提示, 再猜一次), it is not a guess. */
const MEASURE = /^(个|下|次|遍|回|点|些|只|头|条|张|块|本|件|位|把|种|天|岁|分钟|秒|样|颗|朵|辆|支|双|对|句|步|道|题|局|轮|名|层|杯|口|份|趟|声|眼|盘|片|串|群|组)/;
/** After a numeral: "about" (六十多, 五十几, 五十来个, 五十左右). */
const ABOUT_AFTER = /^(多|几|来|左右|上下|出头|开外)/;

export interface NumeralMention {
  /** The value (for an approximate mention, the numeral as said: 六十多 → 60). */
  value: number;
  /** The numeral as it stands in the text. */
  raw: string;
  /** Where it starts in the (NFKC-normalised) text. */
  index: number;
  /** The measure word right after it (个, 次, 题…), if any. */
  measure?: string;
  /** Preceded by 第 (an ordinal: 第一次, 第 3 题). */
  ordinal: boolean;
  /** About a number, not one (六十多, 三四十, 五十几, 3.5). */
  approximate: boolean;
  /** The 一 of a verb said twice (想一想, 猜一猜). */
  reduplication: boolean;
}

/** Parses one run of Chinese numeral characters: 九十九 → 99, 十五 → 15, 一百零五 → 105, 五六 → 56, 一万 → 10000. */
export function parseChineseNumeral(run: string): number | null {
  if (!run || ![...run].every((c) => NUMERAL_CHARS.includes(c))) return null;
  if (![...run].some((c) => c in UNITS)) {
    // Digit by digit (五六 → 56), as children and ASR sometimes say numbers.
    return Number([...run].map((c) => DIGITS[c]).join(''));
  }
  let total = 0;
  let section = 0;
  let current = 0;
  for (const ch of run) {
    if (ch in DIGITS) current = DIGITS[ch];
    else if (ch === '万') {
      total += (section + current || 1) * 10000;
      section = 0;
      current = 0;
    } else {
      section += (current || 1) * UNITS[ch];
      current = 0;
    }
  }
  return total + section + current;
}

/** Two digits side by side with a unit (三四十, 五六百, 十五六): a range, not one number. */
function isRangeRun(run: string): boolean {
  return /^[一二两三四五六七八九]{2}[十百千万]/.test(run) || /[十百千][一二两三四五六七八九]{2}$/.test(run);
}

/** Every numeral in a text, with its surroundings; words and idioms that only contain a numeral character are skipped. */
export function numeralMentions(text: string): NumeralMention[] {
  let t = text.normalize('NFKC');
  // Blank out words that contain numeral characters but say no number (same length: indexes stay).
  for (const w of WORDS) t = t.split(w).join('　'.repeat(w.length));
  const out: NumeralMention[] = [];
  for (const m of t.matchAll(new RegExp(`\\d+(?:\\.\\d+)?|[${NUMERAL_CHARS}]+`, 'g'))) {
    const raw = m[0];
    const index = m.index ?? 0;
    const before = t.slice(0, index);
    const after = t.slice(index + raw.length);
    const arabic = /^\d/.test(raw);
    let value: number | null;
    let approximate = false;
    if (arabic) {
      value = Number(raw);
      if (raw.includes('.')) approximate = true;
    } else {
      value = parseChineseNumeral(raw);
      if (isRangeRun(raw)) approximate = true;
    }
    if (value === null || !Number.isFinite(value)) continue;
    const prevChar = before.slice(-1);
    const reduplication = raw === '一' && prevChar !== '' && prevChar === after.slice(0, 1) && !NUMERAL_CHARS.includes(prevChar);
    if (ABOUT_AFTER.test(after)) approximate = true;
    const measure = MEASURE.exec(after.replace(/^\s+/, ''))?.[1];
    out.push({ value, raw, index, measure, ordinal: /第\s*$/.test(before), approximate, reduplication });
  }
  return out;
}
