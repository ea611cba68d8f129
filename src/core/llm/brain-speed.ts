/**
 * A local brain's speed as measured on this device, and what it means for a child's turn: after a
 * local model loads, the app runs one short calibration step on the real prompt layout (a system
 * prompt, then the round's input as a JSON user message; `calibrationMessages`) and reads the
 * engine's prefill and decode rates. The expected wait of an in-game turn is computed from those
 * rates over the tokens an in-game turn costs when its request continues the engine's cache in
 * place; a local brain is recommended only when that wait fits the turn budget's T2. The CPU
 * engine's thread count is chosen by the same measure (`chooseThreads`). Pure.
 */
import type { ChatMessage } from './types.ts';

/** Rates of one engine on this device (tokens per second). */
export interface BrainRates {
  prefillPerS: number;
  decodePerS: number;
}

/** One calibration on this device (the CPU engine also says with how many threads). */
export interface BrainSpeed extends BrainRates {
  /** Expected seconds from the child's words to the model's answer in an in-game turn. */
  turnWaitS: number;
  /** The wait fits the turn budget (T2) it was measured against. */
  fits: boolean;
  /** T2 (ms) the verdict was made against. */
  answerMs: number;
  threads?: number;
}

/**
 * What one in-game turn asks of a local engine whose cache continues in place: the new input, the
 * rules' pre-executed step and its result prefilled (the target is at most 200 tokens), and one
 * reply step decoded (a short sentence or two in the step's JSON, about 48 tokens).
 */
export const TURN_PREFILL_TOKENS = 200;
export const TURN_DECODE_TOKENS = 48;

/** Tokens decoded by a calibration step (enough for a stable decode rate, short enough for a slow CPU). */
export const CALIBRATION_DECODE_TOKENS = 16;

/** Time kept back from T2 for the line to reach the speaker (the same margin a game's reply keeps). */
const MARGIN_S = 1.2;

export function turnWaitS(r: BrainRates): number {
  if (!(r.prefillPerS > 0) || !(r.decodePerS > 0)) return Infinity;
  return TURN_PREFILL_TOKENS / r.prefillPerS + TURN_DECODE_TOKENS / r.decodePerS;
}

/** The measured rates judged against a turn budget's T2. */
export function brainSpeed(r: BrainRates, answerMs: number, threads?: number): BrainSpeed {
  const wait = turnWaitS(r);
  return {
    prefillPerS: r.prefillPerS,
    decodePerS: r.decodePerS,
    turnWaitS: wait,
    fits: wait <= answerMs / 1000 - MARGIN_S,
    answerMs,
    ...(threads !== undefined ? { threads } : {}),
  };
}

/** The same measurement against another T2 (the parent changed it). */
export function rejudge(s: BrainSpeed, answerMs: number): BrainSpeed {
  return brainSpeed(s, answerMs, s.threads);
}

/** Seconds in words a parent reads: 「不到 1 秒」, 「约 3 秒」, 「约 45 秒」, 「超过 3 分钟」. */
export function secondsText(s: number): string {
  if (!Number.isFinite(s) || s > 180) return '超过 3 分钟';
  if (s < 1) return '不到 1 秒';
  return `约 ${Math.round(s)} 秒`;
}

/** The expected wait per turn, in plain words, with the verdict against the budget. */
export function speedText(s: BrainSpeed): string {
  const budget = Math.round(s.answerMs / 1000);
  const wait = `在这台设备上测过：孩子说完话后，每轮要等${secondsText(s.turnWaitS)}才有回答`;
  return s.fits ? `${wait}，在每轮 ${budget} 秒的时限以内。` : `${wait}，超过了每轮 ${budget} 秒的时限：玩游戏时不用它，由游戏规则马上回答；游戏外的聊天常常会来不及回答。`;
}

/** Sample of one thread count. */
export interface ThreadSample extends BrainRates {
  threads: number;
}

/**
 * The thread count whose measured turn wait is shortest (ties: fewer threads, which leave the device
 * cooler and the page responsive). Undefined when nothing was measured.
 */
export function chooseThreads(samples: readonly ThreadSample[]): number | undefined {
  let best: { threads: number; wait: number } | undefined;
  for (const s of [...samples].sort((a, b) => a.threads - b.threads)) {
    const wait = turnWaitS(s);
    if (!Number.isFinite(wait)) continue;
    // More threads must be clearly faster (3 %) to be chosen: measurements here are noisy.
    if (!best || wait < best.wait * 0.97) best = { threads: s.threads, wait };
  }
  return best?.threads;
}

/** Thread counts worth measuring on a device with `cores` logical cores (1, then the most that help, at most 4). */
export function threadCandidates(isolated: boolean, cores: number): number[] {
  if (!isolated || cores < 2) return [1];
  return [...new Set([1, Math.min(4, cores)])];
}

/**
 * The calibration prompt, laid out like a game's request: a byte-stable system prompt (rules for
 * the host, about 150 tokens), then the round's input as one JSON user message with the state.
 */
export function calibrationMessages(): ChatMessage[] {
  const system = [
    '你是桌面小机器人里的游戏主持人，正在用中文语音和小朋友玩游戏。',
    '每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。',
    '规则、答案、判定、计分和次数都由工具负责：不要自己编答案或结果，一切以工具返回为准。',
    '每一轮的输入是 JSON：event 是什么事，user_text 是小朋友的原话，state 是游戏现在的状态。',
    '说话要温暖、简短（一两句），适合小朋友听，不用表情符号。',
    '# 游戏规则和流程',
    '我想好一个 1 到 100 之间的数，小朋友来猜，最多猜 7 次。每次猜完告诉他大了还是小了。',
  ].join('\n');
  const input = { event: 'message', user_text: '我猜五十', state: { tries_left: 6, low: 1, high: 100, last_guess: 50, last_result: 'too_big' } };
  return [
    { role: 'system', content: system },
    { role: 'user', content: JSON.stringify(input) },
  ];
}
