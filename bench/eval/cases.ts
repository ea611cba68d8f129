/**
 * The eval's fixed set: what children say and what grown-ups ask the Studio for, each with the
 * actions a good brain takes (route, tool, arguments) and what its reply must state. Plain data;
 * bench/eval/agents.ts runs the real agents over it.
 */

/** One utterance to the main agent, from a state, and what it should lead to. */
export interface MainCase {
  /** `idle`: no game running; `in-game`: 猜数字 was started first (not scored). */
  state: 'idle' | 'in-game';
  words: string;
  /** The tool the round ends with. */
  action: 'start_game' | 'reply' | 'send_message' | 'end_game';
  /** For start_game: the game started. */
  gameId?: string;
  /** Tools the round must have used on the way (e.g. list_games before its reply). */
  uses?: string[];
  /** Something the spoken reply must contain (any of). */
  says?: string[];
}

const start = (gameId: string, ...words: string[]): MainCase[] => words.map((w) => ({ state: 'idle', words: w, action: 'start_game', gameId }));
const list = (...words: string[]): MainCase[] => words.map((w) => ({ state: 'idle', words: w, action: 'reply', uses: ['list_games'], says: ['猜数字', '你画我猜'] }));
const chat = (state: MainCase['state'], ...words: Array<[string, string[]?]>): MainCase[] =>
  words.map(([w, says]) => ({ state, words: w, action: state === 'idle' ? 'reply' : 'send_message', ...(says ? { says } : {}) }));
const inGame = (action: MainCase['action'], ...words: string[]): MainCase[] => words.map((w) => ({ state: 'in-game', words: w, action }));

export const MAIN_CASES: MainCase[] = [
  ...start('guess-number', '我们玩猜数字吧', '我想玩猜数字', '玩数字游戏', '来玩猜数', '我要玩猜数字游戏', '开始猜数字', '玩一个猜数字', '我想猜数字', '猜数字！', '来猜一个数吧', '我们来玩猜数字好不好', '想玩数字游戏', '开一局猜数字', '玩猜数游戏', '可以玩猜数字吗', '我要猜数'),
  ...start('draw-guess', '我想玩你画我猜', '玩你画我猜', '来玩你画我猜吧', '我们玩你画我猜', '开始你画我猜', '你画我猜！', '我要玩你画我猜', '玩一局你画我猜', '可以玩你画我猜吗', '想玩你画我猜'),
  ...list('有什么游戏', '你会玩什么游戏', '能玩什么游戏', '有哪些游戏', '游戏有哪些', '我们玩什么', '玩啥', '有游戏吗', '游戏列表', '你有什么游戏', '能玩什么', '玩什么好呢'),
  ...chat(
    'idle',
    ['你好', ['你好']],
    ['你是谁'],
    ['你叫什么名字'],
    ['你几岁了'],
    ['谢谢你'],
    ['再见'],
    ['我今天很开心'],
    ['嗨'],
    ['您好', ['你好']],
    ['你多大了'],
    ['拜拜'],
    ['谢啦'],
    ['哈喽'],
    ['你的名字是什么'],
    ['早上好'],
    ['我喜欢你'],
  ),
  ...inGame('send_message', '我猜50', '三十七', '是不是二十', '我猜一百', '九十九', '是25吗', '我觉得是六十', '十五吧', '那是三十三吧', '我猜七十五', '八十八', '我猜12', '四十', '给我一个提示吧', '再来一个提示', '我猜八', '是不是九十', '六十六', '我猜五十五', '那就二十二'),
  ...inGame('end_game', '不玩了', '我不想玩了', '结束游戏', '退出', '我们不玩了吧', '停', '不想玩猜数字了', '结束吧', '我玩够了，不玩了', '先不玩了', '停止游戏'),
  // Another game asked for during 猜数字: the main agent switches.
  ...['我想玩你画我猜', '换你画我猜吧', '我们改玩你画我猜', '不猜数字了，玩你画我猜', '玩你画我猜好不好'].map((w): MainCase => ({ state: 'in-game', words: w, action: 'start_game', gameId: 'draw-guess' })),
  ...start('guess-number', '猜数游戏开始吧', '我们来猜数字', '再玩一次猜数字', '玩猜数字好吗'),
  ...start('draw-guess', '我要猜动物', '玩猜动物吧', '来玩画画猜动物'),
  ...list('你都会玩哪些游戏', '我想玩游戏，有什么', '有好玩的游戏吗', '给我看看有什么游戏'),
  ...chat('idle', ['晚上好'], ['你真好'], ['我叫小明'], ['今天天气怎么样'], ['你喜欢吃什么'], ['我有点困了'], ['你会唱歌吗'], ['我们是好朋友吗']),
  ...inGame('send_message', '我猜三十', '是不是七十', '我猜六', '五十五吗', '再给我一个提示', '我猜九十二'),
];

/** One 猜数字 game: the secret, and what the child says turn by turn. */
export interface GuessGame {
  secret: number;
  turns: string[];
}

/** What a 猜数字 turn should do, from the child's words and the secret. */
export interface GuessExpectation {
  tool?: 'start_game' | 'submit_guess' | 'get_hint' | 'end_game';
  number?: number;
  /** Words one of which the reply must contain (the outcome stated right). */
  says?: string[];
}

export const GUESS_GAMES: GuessGame[] = [
  { secret: 73, turns: ['我猜50', '我猜75', '六十二', '我猜68', '七十一', '七十三'] },
  { secret: 21, turns: ['五十', '二十五', '给我一个提示吧', '十二', '十八', '我猜二十', '二十一'] },
  { secret: 88, turns: ['我猜10', '我猜20', '我猜30', '我猜40', '我猜50', '我猜60', '我猜70'] },
  { secret: 5, turns: ['我猜50', '嗯……', '我猜二十', '是不是十', '提示一下', '我猜三', '五'] },
  { secret: 64, turns: ['我猜五十', '我猜八十', '我不玩了'] },
  { secret: 42, turns: ['四十', '四十五', '再给个提示', '四十二'] },
  { secret: 99, turns: ['我猜一百', '九十', '九十五', '九十八', '九十九'] },
  { secret: 37, turns: ['三十', '是不是四十', '三十五', '三十八', '三十六', '三十七'] },
  { secret: 50, turns: ['我猜50'] },
  { secret: 12, turns: ['我猜一百', '我猜五十', '二十五', '十二'] },
  { secret: 77, turns: ['六十', '给点提示', '八十', '七十五', '我不想玩了'] },
];

/** One 你画我猜 game: what the child says; `RIGHT` / `WRONG` stand for the right animal / another one. */
export const DRAW_GAMES: string[][] = [
  ['是RIGHT吗', '是RIGHT', 'RIGHT'],
  ['是WRONG吧', '给我一个提示', 'RIGHT', '是RIGHT', '不玩了'],
  ['WRONG', '跳过', '我猜RIGHT', '不想玩了'],
  ['是WRONG吗', 'WRONG', '提示一下', 'RIGHT'],
  ['RIGHT', '换一题', '是RIGHT吧', '结束吧'],
];

/** The Studio: a grown-up designs 问答卡牌 by conversation, then a child plays it. */
export interface StudioStep {
  kind: 'input' | 'accept' | 'reject';
  /** The words (input), or the tag (accept / reject). */
  text: string;
  /** For reject: why. */
  reason?: string;
  /** A tag that must be on the blackboard (drafted or adopted) after this step. */
  drafts?: string;
}

export const STUDIO_DESIGN: StudioStep[] = [
  { kind: 'input', text: '我想给5岁的孩子做一个问答卡牌游戏', drafts: '设计.交互范式' },
  { kind: 'accept', text: '设计.交互范式', drafts: '设计.run_skill清单' },
  { kind: 'accept', text: '设计.run_skill清单' },
  { kind: 'input', text: '恐龙', drafts: '设计.主题' },
  { kind: 'accept', text: '设计.主题', drafts: '设计.卡牌' },
  { kind: 'reject', text: '设计.卡牌', reason: '太难了，换简单一点的', drafts: '设计.卡牌' },
  { kind: 'accept', text: '设计.卡牌' },
  { kind: 'accept', text: '设计.规则' },
  { kind: 'accept', text: '设计.角色' },
];

/** The designed game's play: `RIGHT` / `WRONG` stand for the current card's answer / another card's. */
export const STUDIO_PLAY: Array<{ kind: 'start' | 'message' | 'end'; text: string; says?: string[] }> = [
  { kind: 'start', text: '我们玩恐龙问答吧' },
  { kind: 'message', text: '是WRONG吗', says: ['不对', '再想想', '不是', '再猜'] },
  { kind: 'message', text: '我知道了，是RIGHT', says: ['对', '棒', '厉害'] },
  { kind: 'message', text: '我不知道' },
  { kind: 'message', text: 'RIGHT', says: ['对', '棒', '厉害'] },
  { kind: 'end', text: '不玩了' },
];

/** How many scored items the set has (a turn, an utterance or a design step each). */
export function caseCount(): number {
  return MAIN_CASES.length + GUESS_GAMES.reduce((n, g) => n + g.turns.length + 1, 0) + DRAW_GAMES.reduce((n, g) => n + g.length + 1, 0) + STUDIO_DESIGN.length + STUDIO_PLAY.length;
}
