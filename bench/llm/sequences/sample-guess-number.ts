/**
 * A sample sequence (hand-written, shaped like the game runtime's prompts: system = common
 * prompt + SKILL.md body + state snapshot, user = {"event", "user_text"}, tool results as user
 * messages). Replace with sequences recorded from the real agents as they land.
 */
import type { ChatMessage, StepRequest, ToolSpec } from '../../../src/llm/types.ts';
import type { BenchSequence } from '../measure.ts';

const tools: ToolSpec[] = [
  { name: 'start_game', description: '开始新的一局', parameters: { type: 'object', properties: {} } },
  { name: 'get_hint', description: '给出提示', parameters: { type: 'object', properties: {} } },
  {
    name: 'submit_guess',
    description: '提交孩子猜的数',
    parameters: { type: 'object', properties: { number: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['number'] },
  },
  { name: 'end_game', description: '结束本局', parameters: { type: 'object', properties: {} } },
  { name: 'say', description: '先说一句话', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'reply', description: '最终回复', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];

const common =
  '你是陪孩子玩语音游戏的小机器人。每一步只输出一个 JSON：{"action": 工具名, "args": {参数}}。' +
  '可用工具：start_game() 开始；get_hint() 提示；submit_guess(number 1..100) 判定；end_game() 结束；say(text) 先说一句；reply(text) 最后回复孩子。';
const skill =
  '# 猜数字\n机器人心里想一个 1 到 100 的整数，孩子来猜。每次猜完用 submit_guess 判定，根据结果告诉孩子大了还是小了。' +
  '孩子要提示时用 get_hint。猜中或机会用完时结束。说话要简短、温暖。';

function system(state: string): ChatMessage {
  return { role: 'system', content: `${common}\n\n${skill}\n\n当前状态：${state}` };
}

function step(messages: ChatMessage[]): StepRequest {
  return { agent: 'game:guess-number', messages, tools };
}

const u = (kind: string, text: string): ChatMessage => ({ role: 'user', content: JSON.stringify({ event: kind, user_text: text }) });
const a = (action: string, args: object = {}): ChatMessage => ({ role: 'assistant', content: JSON.stringify({ action, args }) });
const r = (result: object): ChatMessage => ({ role: 'user', content: `<tool_response>${JSON.stringify(result)}</tool_response>` });

// Turn 1: start. Turn 2: guess 50 (too big). Turn 3: hint. Turn 4: guess 30 (correct).
const s0 = '{"tries_left":7,"in_game":false}';
const s1 = '{"tries_left":7,"in_game":true}';
const s2 = '{"tries_left":6,"in_game":true,"guesses":[50]}';
const t1 = [u('start', '我们来玩猜数字吧')];
const t1done = [...t1, a('start_game'), r({ ok: true, range: [1, 100], tries: 7 })];
const h1 = [...t1done, a('reply', { text: '我想好了一个 1 到 100 的数，你来猜吧！' })];
const t2 = [...h1, u('message', '五十')];
const t2done = [...t2, a('submit_guess', { number: 50 }), r({ result: 'too_big', tries_left: 6 })];
const h2 = [...t2done, a('reply', { text: '50 大了，再小一点哦！还有 6 次机会。' })];
const t3 = [...h2, u('message', '给我一点提示')];
const t3done = [...t3, a('get_hint'), r({ hint: '它是一个能被 10 整除的数' })];
const h3 = [...t3done, a('reply', { text: '提示来啦：它能被 10 整除哦！' })];
const t4 = [...h3, u('message', '三十')];
const t4done = [...t4, a('submit_guess', { number: 30 }), r({ result: 'correct', tries_used: 2, game_over: true })];

export const sequences: BenchSequence[] = [
  {
    agent: 'game:guess-number',
    title: '样例（手写）：开始、猜 50、要提示、猜中 30；状态快照在系统提示末尾',
    steps: [
      step([system(s0), ...t1]),
      step([system(s1), ...t1done]),
      step([system(s1), ...t2]),
      step([system(s2), ...t2done]),
      step([system(s2), ...t3]),
      step([system(s2), ...t3done]),
      step([system(s2), ...t4]),
      step([system('{"tries_left":5,"in_game":false,"answer":30}'), ...t4done]),
    ],
  },
];
