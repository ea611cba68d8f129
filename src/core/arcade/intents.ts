/**
 * Decisions taken before any model call (a child hears an answer sooner, and no model is needed):
 * global intents ("再说一遍" repeats, "停/不玩了" always ends the game) and the fast path
 * (a clear in-game utterance is forwarded to the game without asking the main agent's model).
 * Pure functions of the words and the state.
 */
import type { ArcadeGame } from './types.ts';

/** Strip spaces, punctuation and symbols; lower-case latin. Used only for matching, never for forwarding. */
export function normalize(text: string): string {
  return text.replace(/[\s\p{P}\p{S}]/gu, '').toLowerCase();
}

export type GlobalIntent = 'repeat' | 'stop';

const REPEAT = /(再说一遍|再说一次|再说一下|再讲一遍|再讲一次|重复一遍|重复一次|重复一下|没听清|刚才说什么|刚刚说什么|你说什么)/;
/** Whole-utterance commands to stop talking (and end a running game). */
const STOP_WHOLE = /^(停|停停|停下|停下来|停一下|停止|别说了|不要说了|不说了|安静|安静点|闭嘴)(吧|啦|了|呀|啊)?$/;
/** Phrases that always end the game, wherever they appear. */
const STOP_GAME = /(不玩了|不玩啦|不想玩了|不要玩了|别玩了|不玩这个了|结束游戏|退出游戏|游戏结束|结束这局|结束吧|不玩)/;
/** Asking for a (different) game: "我们玩…吧", "换成…", "来玩…". */
const PLAY_VERB = /(玩|换|来|开始|想)/;

/**
 * "再说一遍" → repeat; "停" / "不玩了" → stop. "不玩了，我们玩你画我猜吧" is not a plain stop:
 * it names a game to play, so the model routes it (switching games).
 */
export function globalIntent(text: string, games: readonly ArcadeGame[] = []): GlobalIntent | null {
  const n = normalize(text);
  if (!n) return null;
  if (REPEAT.test(n)) return 'repeat';
  if (STOP_WHOLE.test(n)) return 'stop';
  if (STOP_GAME.test(n)) {
    const rest = n.replace(STOP_GAME, '');
    if (mentionedGame(rest, games) && PLAY_VERB.test(rest)) return null;
    return 'stop';
  }
  return null;
}

/** The words are about ending a game ("不玩了", "结束游戏"), not only about stopping the talk ("停", "别说了"). */
export function speaksOfEndingGame(text: string): boolean {
  return STOP_GAME.test(normalize(text));
}

/**
 * Voice commands (the voice changed by voice, never a game turn): louder / quieter / slower /
 * faster. Matched on the WHOLE utterance only, and only with a word about the voice (声, 声音, 音量,
 * 说, 讲), so an in-game "我猜大一点", "再大一点", "快一点" or a 你画我猜 answer "是大声公吗" is
 * never taken for one.
 */
export type VoiceCommand = 'louder' | 'quieter' | 'slower' | 'faster';

/** Politeness around the command: "请…", "你能…吗", "…好吗", "…吧". */
const LEAD = '(?:请|你|你能|你能不能|能不能|可不可以|可以|麻烦|麻烦你|那|再|说话|你说话|机器人|小方)*';
const TAIL = '(?:一点|一点儿|点儿|点|一些|些)?(?:好吗|好不好|行吗|可以吗|吗|吧|啊|呀|哦|嘛|啦|了)*';
const MORE = '(?:一点|一点儿|点儿|点|一些|些)';
/** 再 / 更 may come before the adjective: "声音再大一点". */
const ADV = '(?:再|更|稍微|调|开)*';

const VOICE_PATTERNS: ReadonlyArray<[VoiceCommand, RegExp]> = (
  [
    // 大声点, 大声一点, 再大声一点, 大点声, 大一点声, 声音大一点, 声音开大点, 音量调大一点, 把声音调大, 说大声点
    ['louder', `(?:(?:说|讲)(?:得)?)?${ADV}大声${TAIL}`],
    ['louder', `${ADV}大${MORE}声${TAIL}`],
    ['louder', `${ADV}大声${MORE}?(?:说|讲)(?:话)?${TAIL}`],
    ['louder', `(?:把)?(?:声音|音量)${ADV}(?:大|高)${TAIL}`],
    ['louder', `(?:(?:把)?(?:声音|音量))?调大(?:声音|音量)?${TAIL}`],
    ['louder', `(?:你的)?(?:声音|音量)太(?:小|低|轻)${TAIL}`],
    ['louder', `(?:你)?(?:说话|说得)?太小声${TAIL}`],
    ['quieter', `(?:(?:说|讲)(?:得)?)?${ADV}(?:小声|轻声)${TAIL}`],
    ['quieter', `${ADV}(?:小|轻)${MORE}声${TAIL}`],
    ['quieter', `${ADV}(?:小声|轻声)${MORE}?(?:说|讲)(?:话)?${TAIL}`],
    ['quieter', `(?:把)?(?:声音|音量)${ADV}(?:小|低|轻)${TAIL}`],
    ['quieter', `(?:(?:把)?(?:声音|音量))?调小(?:声音|音量)?${TAIL}`],
    ['quieter', `(?:你的)?(?:声音|音量)太(?:大|高|响)${TAIL}`],
    ['quieter', `(?:你)?(?:说话|说得)?太大声${TAIL}`],
    // 说慢一点, 说得慢一点, 讲慢点, 慢点说, 慢一点讲, 语速慢一点, 你说太快了
    ['slower', `(?:说|讲)(?:话)?(?:得)?${ADV}慢${TAIL}`],
    ['slower', `${ADV}慢${MORE}(?:说|讲)${TAIL}`],
    ['slower', `(?:把)?语速${ADV}(?:慢|低)${TAIL}`],
    ['slower', `(?:你)?(?:说|讲)(?:话)?(?:得)?太快${TAIL}`],
    ['faster', `(?:说|讲)(?:话)?(?:得)?${ADV}快${TAIL}`],
    ['faster', `${ADV}快${MORE}(?:说|讲)${TAIL}`],
    ['faster', `(?:把)?语速${ADV}(?:快|高)${TAIL}`],
    ['faster', `(?:你)?(?:说|讲)(?:话)?(?:得)?太慢${TAIL}`],
  ] as const
).map(([cmd, body]) => [cmd, new RegExp(`^${LEAD}${body}$`)]);

/** "大声点" → louder; "声音小一点" → quieter; "说慢一点" → slower; "说快点" → faster; anything else → null. */
export function voiceCommand(text: string): VoiceCommand | null {
  const n = normalize(text);
  if (!n || Array.from(n).length > 16) return null;
  for (const [cmd, re] of VOICE_PATTERNS) if (re.test(n)) return cmd;
  return null;
}

/** The installed game named in the words (title or alias, longest match wins), if any. */
export function mentionedGame(text: string, games: readonly ArcadeGame[]): ArcadeGame | null {
  const n = normalize(text);
  let best: ArcadeGame | null = null;
  let bestLen = 0;
  for (const g of games) {
    const names = [g.declaration.title, ...g.declaration.aliases, g.declaration.id];
    for (const name of names) {
      const m = normalize(name);
      if (m.length >= 2 && n.includes(m) && m.length > bestLen) {
        best = g;
        bestLen = m.length;
      }
    }
  }
  return best;
}

/**
 * Words that are about the arcade or the robot itself, not a move in the game: the model decides
 * those. (大声/小声 are not here: voice commands are taken before, and "是大声公吗" is an answer.)
 */
const META =
  /(游戏|玩|换一个|换个|别的|结束|退出|你是谁|你叫|名字|几岁|故事|唱歌|唱首|讲个|几点|天气|妈妈|爸爸|累了|睡觉|声音)/;

/** Longest utterance the fast path trusts as one in-game move (a child's guess is short). */
export const FAST_PATH_MAX_CHARS = 24;

/** Words that ask for a game: 「我们玩X吧」「换成X」「来玩X」「我要玩X」「开始X」. */
const SWITCH_TO = /(玩|换成|换到|换个|换一个|改成|改玩|开始|来一局|来个|来一个)/;

/**
 * The words clearly ask to play a game (another one, or this one again): a game's name with a word
 * that asks for it. A game's name alone ("豆豆", "是豆豆吗") is not: while a game runs, it is an
 * answer in that game.
 */
export function clearlySwitches(text: string, games: readonly ArcadeGame[]): boolean {
  const n = normalize(text);
  const g = mentionedGame(n, games);
  if (!g) return false;
  const names = [g.declaration.title, ...g.declaration.aliases, g.declaration.id].map(normalize).filter((m) => m.length >= 2);
  const rest = names.reduce((r, m) => r.split(m).join('|'), n);
  return SWITCH_TO.test(rest);
}

/**
 * A clear in-game utterance: a game is running, the words ask for no game and no arcade/robot
 * topic, and are short. Such words go to the game as `send_message` (original words) with no
 * main-agent model call; everything else goes through the model, which can still chat or end the
 * game. The running game's own name said without asking for it (the quiz named 「豆豆」 answered
 * 「豆豆」) is an answer: it goes to that game.
 */
export function isClearInGame(text: string, games: readonly ArcadeGame[], inGame: boolean, running?: string): boolean {
  if (!inGame) return false;
  const n = normalize(text);
  if (!n || Array.from(n).length > FAST_PATH_MAX_CHARS) return false;
  const named = mentionedGame(n, games);
  // The running game's own name, not asked for: an answer. Another game's name: the model decides.
  if (named) return named.declaration.id === running && !clearlySwitches(n, games) && !META.test(stripGameNames(n, games));
  if (META.test(n)) return false;
  return true;
}

/** The words without the names of the games in them (so 「游戏」 in a game's name is no topic word). */
function stripGameNames(n: string, games: readonly ArcadeGame[]): string {
  let out = n;
  for (const g of games) for (const name of [g.declaration.title, ...g.declaration.aliases, g.declaration.id]) {
    const m = normalize(name);
    if (m.length >= 2) out = out.split(m).join('');
  }
  return out;
}

/** Drop what the microphone heard when it is just the robot's own last sentence (echo). */
export function isEcho(heard: string, lastSpoken: string | null): boolean {
  if (!lastSpoken) return false;
  // "大声一点" again right after "好的，我大声一点。" is the child asking for more, not the robot's echo.
  if (voiceCommand(heard)) return false;
  const h = normalize(heard);
  const s = normalize(lastSpoken);
  return h.length >= 4 && s.includes(h);
}
