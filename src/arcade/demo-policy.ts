/**
 * The rules of agent "main" (演示脚本，无模型): a small deterministic router over the same request a
 * real model gets. It reads the game list from the system prompt (prompt.ts format), the state line
 * and the words from the last user message, and picks a legal action. The rules brain's main agent;
 * also, with any brain, the main agent's steps during a game on an engine that would forget the
 * game's conversation for a main-agent step (./model-loop.ts).
 */
import { errorOf, isToolResult, readToolResult } from '../core/agent/messages.ts';
import type { ScriptPolicy, Step, StepRequest } from '../core/llm/types.ts';
import { normalize } from '../core/arcade/intents.ts';
import { ROBOT_NAME, STATE_LINE_RE, parseGameLines, type ParsedGameLine } from '../core/arcade/prompt.ts';

const LIST = /(什么游戏|哪些游戏|啥游戏|玩什么|玩啥|游戏列表|能玩什么|有游戏吗|游戏有哪些)/;
const WANT_GAME = /(玩游戏|玩个游戏|玩一个游戏|想玩|一起玩)/;
const PLAY = /(玩|来|开始|换|想|要|开)/;
const END = /(不玩|结束|退出|别玩|停)/;

function findGame(words: string, games: readonly ParsedGameLine[]): ParsedGameLine | undefined {
  const n = normalize(words);
  let best: ParsedGameLine | undefined;
  let len = 0;
  for (const g of games)
    for (const name of [g.title, ...g.aliases]) {
      const m = normalize(name);
      if (m.length >= 2 && n.includes(m) && m.length > len) {
        best = g;
        len = m.length;
      }
    }
  return best;
}

/** Plain chat the demo recognises even during a game (a real model decides this itself). */
const CHAT = /(你好|您好|嗨|哈喽|你是谁|你叫什么|你的名字|真人|几岁|多大|谢谢|谢啦|再见|拜拜)/;

function chat(words: string, games: readonly ParsedGameLine[]): string {
  const n = normalize(words);
  const titles = games.map((g) => g.title).join('、') || '游戏';
  if (/(你好|您好|嗨|哈喽|hello|hi|早上好|晚上好)/.test(n)) return `你好呀！我是${ROBOT_NAME}。我们可以一起玩${titles}，你想玩哪个？`;
  if (/(你是谁|你叫什么|你的名字|真人|真的人|机器人吗)/.test(n)) return `我是${ROBOT_NAME}，一个用电脑大脑说话的机器人，不是真人哦，我会陪你玩游戏！`;
  if (/(几岁|多大)/.test(n)) return '我是机器人，没有生日，不过我很喜欢和你一起玩！';
  if (/(谢谢|谢啦)/.test(n)) return '不客气！';
  if (/(再见|拜拜)/.test(n)) return '再见啦，下次再一起玩！';
  if (/(喜欢|开心|高兴)/.test(n)) return '我也很开心！要不要一起玩个游戏？';
  return `我听到啦。要不要一起玩${titles}？`;
}

/** The child's words with the state line: the last user message that is not a tool result. */
function lastWords(req: StepRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) if (req.messages[i].role === 'user' && !isToolResult(req.messages[i])) return req.messages[i].content;
  return '';
}

/** The rules' step for a request of the main agent. */
export function mainRulesStep(req: StepRequest): Step {
  const step = decide(req);
  // 「只玩游戏」: there is no free chat; the kind fixed sentence instead.
  const legal = new Set(req.tools.map((t) => t.name));
  return step.action === 'reply' && !legal.has('reply') && legal.has('games_only') ? { action: 'games_only', args: {} } : step;
}

export const mainDemoPolicy: ScriptPolicy = mainRulesStep;

function decide(req: StepRequest): Step {
  const system = req.messages[0]?.role === 'system' ? req.messages[0].content : '';
  const games = parseGameLines(system);
  const legal = new Set(req.tools.map((t) => t.name));
  const last = lastWords(req);
  const result = readToolResult(req.messages[req.messages.length - 1]);

  // A tool result came back: answer with it.
  if (result?.name === 'list_games' && typeof result.result === 'string') {
    const listed = result.result;
    const playable = games.filter((g) => listed.includes(`${g.title}（可以玩）`)).map((g) => g.title);
    const text = playable.length
      ? `我们可以玩：${playable.join('、')}。你想玩哪个？`
      : '现在还没有能玩的游戏，请大人帮忙看看设置。';
    return { action: 'reply', args: { text } };
  }
  if (result && errorOf(result.result)) return { action: 'reply', args: { text: '我没找到这个游戏，你想玩哪个？' } };

  const inGame = /^【正在玩/.test(last);
  const words = last.replace(STATE_LINE_RE, '');
  const game = findGame(words, games);

  if (LIST.test(normalize(words)) && legal.has('list_games')) return { action: 'list_games', args: {} };
  if (game && legal.has('start_game') && (PLAY.test(words) || normalize(words) === normalize(game.title)))
    return { action: 'start_game', args: { game_id: game.id } };
  if (inGame) {
    if (END.test(words) && legal.has('end_game')) return { action: 'end_game', args: {} };
    if (CHAT.test(normalize(words))) return { action: 'reply', args: { text: chat(words, games) } };
    if (legal.has('send_message')) return { action: 'send_message', args: { text: words } };
  }
  if (game && legal.has('start_game')) return { action: 'start_game', args: { game_id: game.id } };
  if (WANT_GAME.test(normalize(words)) && legal.has('list_games')) return { action: 'list_games', args: {} };
  return { action: 'reply', args: { text: chat(words, games) } };
}
