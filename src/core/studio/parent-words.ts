/**
 * What a parent's words state plainly, read the same way everywhere: how many rounds, how old the
 * child is, easier or harder, "yes, take it", and a card said in one breath. The runtime checks a
 * helper's draft against the stated rounds and age (draft-check.ts); the demo brain reads the same
 * words a model reads. Pure.
 */
import { parseChineseNumeral } from '../speech/numbers.ts';

/** 3, 三, 十二, 二十, 两 → a number (undefined when it is none of these): the one numeral reader (../speech/numbers.ts). */
function numberOf(s: string): number | undefined {
  const t = s.trim();
  return /^\d+$/.test(t) ? Number(t) : (parseChineseNumeral(t) ?? undefined);
}

const NUM = '(\\d{1,2}|[一二两三四五六七八九十]{1,3})';
/** Rounds said as 「玩 3 轮」「三道题」「5 个谜语」「讲四轮」; 「一张一张」 is a manner, not a count. */
const ROUNDS = new RegExp(`${NUM}\\s*(?:轮|道题|道|题|局|次|个谜语|个动作|张卡片|张卡|张)`, 'g');

/** The number of rounds the parent asked for last (1–20), if any. */
export function statedRounds(text: string): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(ROUNDS)) {
    // 「一张一张」 (one by one) is a manner, either half of it.
    if (text.slice(m.index + m[0].length).startsWith(m[0]) || text.slice(0, m.index).endsWith(m[0])) continue;
    const n = numberOf(m[1]);
    if (n !== undefined && n >= 1 && n <= 20) found = n;
  }
  return found;
}

/** The child's age the parent mentioned last (2–14), if any. */
export function statedAge(text: string): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(new RegExp(`${NUM}\\s*(?:周岁|岁)`, 'g'))) {
    const n = numberOf(m[1]);
    if (n !== undefined && n >= 2 && n <= 14) found = n;
  }
  return found;
}

/** Easier or harder, as the parent put it last ("太简单了" asks for harder, "太难了" for easier). */
export function statedDifficulty(text: string): 'easy' | 'hard' | undefined {
  let found: 'easy' | 'hard' | undefined;
  let at = -1;
  const hard = /太简单|太容易|难一点|难一些|难点|有挑战|更难/g;
  const easy = /太难|简单|容易|别太难|不要太难|小一点的孩子/g;
  for (const m of text.matchAll(hard)) if (m.index >= at) [found, at] = ['hard', m.index];
  for (const m of text.matchAll(easy)) {
    // "太简单" matched 简单 too: it asked for harder.
    if (/^(太简单|太容易)/.test(text.slice(Math.max(0, m.index - 1)))) continue;
    if (m.index > at) [found, at] = ['easy', m.index];
  }
  return found;
}

/** "好的" / "可以" / "就这样" / 「好的，就这样」: the parent takes the draft as it is. */
export function isAcceptWords(text: string): boolean {
  const t = text.replace(/[\s，。！!,.~～]/g, '');
  return /^(?:(?:嗯|好|好的|好啊|好呀|好吧|可以|可以的|行|行的|就这样|就这个|没问题|采用|同意|不错|挺好|很好|ok|OK|嗯好)(?:的|啊|呀|吧|了)?)+$/.test(t);
}

/** The first sentence of a story a parent gave (「开头是：从前有一只小兔子」), or undefined. */
export function statedOpening(text: string): string | undefined {
  const m = /(?:开头|第一句)(?:话)?(?:就)?(?:是|用|说|：|:)[：:\s]*[「“"]?([^「」“”"；;]{4,40}?)[」”"]?(?=[；;]|$)/.exec(text);
  return m?.[1]?.trim().replace(/[，,]$/, '') || undefined;
}

export interface SpokenCard {
  prompt: string;
  answer: string;
  aliases: string[];
  hints: string[];
}

const list = (s: string | undefined) => (s ?? '').split(/[、，,/或]|也可以|还可以/).map((x) => x.trim()).filter(Boolean);

/**
 * A card said in one breath: 「题目是汪汪汪是谁在叫，答案是小狗，提示是它会看家」, or
 * 「汪汪汪是谁在叫？小狗」. Null when no question and answer can be told apart.
 */
export function cardFromWords(text: string): SpokenCard | null {
  const t = text.trim().replace(/^(题目|问题|谜面)(是|：|:)?/, '');
  const parts = t.split(/[，,。；;]?\s*(答案是|答案：|答案|提示是|提示：|提示|也可以说|也可以叫|也叫|别名是|别名)/);
  let prompt = parts[0].trim();
  let answer = '';
  const aliases: string[] = [];
  const hints: string[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i];
    const val = (parts[i + 1] ?? '').replace(/^[：:是\s]+/, '').replace(/[。，,；;！!]+$/, '').trim();
    if (key.startsWith('答案')) answer = val;
    else if (key.startsWith('提示')) hints.push(...list(val));
    else aliases.push(...list(val));
  }
  if (!answer) {
    const q = /^(.*[？?])\s*(.+)$/.exec(prompt);
    if (q) [prompt, answer] = [q[1].trim(), q[2].replace(/[。！!]+$/, '').trim()];
  }
  prompt = prompt.replace(/[，,；;]+$/, '').trim();
  if (!prompt || !answer) return null;
  return { prompt, answer, aliases, hints };
}
