/**
 * What a game's model reads (src/games/skill-agent.ts), kept byte-stable for a local engine's
 * cache: the common prompt every game's system prompt starts with, the round's input message
 * `{"event": kind, "user_text": text, "state": change}` (the state line: what changed, state-line.ts), and the two speaking tools every game
 * offers besides its own — `say` (speak now, go on) and the final `reply`. Pure.
 */
import type { ChatMessage, JsonSchema } from '../llm/types.ts';
import { HONEST_COMPANION } from '../safety/honesty.ts';

export const REPLY_ACTION = 'reply';
export const SAY_ACTION = 'say';
/** What `say` gives back for a line it said. */
export const SAID = { said: true } as const;

export const COMMON_PROMPT = [
  '你是桌面小机器人里的游戏主持人，正在用中文语音和小朋友玩游戏。',
  '每一步只做一个动作：调用一个工具，或者用 reply 说出这一轮最后要说的话。',
  '规则、答案、判定、计分和次数都由工具负责：不要自己编答案或结果，一切以工具返回为准。',
  '每一轮的输入是 JSON：event 是什么事，user_text 是小朋友的原话，state 是游戏状态里和前面几轮相比变了的部分（没写的没变，null 表示没有了）。',
  '工具结果在 <tool_response> 里，出现 error 时按提示改正或向小朋友说明。',
  '做耗时的事（比如画画）之前，先用 say 说一句话。',
  '说话要温暖、简短（一两句），适合小朋友听，不用表情符号。回复的第一句要很短，先说结果，小朋友马上就能听到。',
  '这一轮已经用 say 说过的话，和工具结果里 said 写的话，小朋友已经听到了：reply 接着往下说，不要再说一遍。',
  HONEST_COMPANION,
].join('\n');

/** The system prompt of a game: the common prompt + its SKILL.md body, the same for the whole session. */
export function gameSystemPrompt(skillBody: string): string {
  return `${COMMON_PROMPT}\n\n# 游戏规则和流程\n${skillBody}`;
}

/** The arguments of `say` and `reply`: one text of at most `max` characters. */
export const TEXT = (max: number): JsonSchema => ({
  type: 'object',
  properties: { text: { type: 'string', minLength: 1, maxLength: max } },
  required: ['text'],
  additionalProperties: false,
});

export const REPLY_DESCRIPTION = '说出这一轮最后的回复，说完这一轮就结束。';
export const SAY_DESCRIPTION = '马上说一句话（比如画画之前），说完继续做下一步。';

/** The round's first message: the child's input and the state line, as the model reads it (the tools are in SKILL.md; the decoder allows only the legal ones). */
export function inputMessage(kind: string, text: string, state?: Record<string, unknown>): ChatMessage {
  return { role: 'user', content: JSON.stringify({ event: kind, user_text: text, ...(state ? { state } : {}) }) };
}

/** A round of a game's memory starts at the input message (not at a tool result). */
export function isInputMessage(m: ChatMessage): boolean {
  return m.role === 'user' && m.content.startsWith('{"event":');
}
