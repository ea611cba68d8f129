/**
 * Decisions taken before any model call (anchors §4 rows 5 and 7, issue 6 "Speed"):
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

/** Words that are about the arcade or the robot itself, not a move in the game: the model decides those. */
const META =
  /(游戏|玩|换一个|换个|别的|结束|退出|你是谁|你叫|名字|几岁|故事|唱歌|唱首|讲个|几点|天气|妈妈|爸爸|累了|睡觉|声音|大声|小声)/;

/** Longest utterance the fast path trusts as one in-game move (a child's guess is short). */
export const FAST_PATH_MAX_CHARS = 24;

/**
 * A clear in-game utterance: a game is running, the words name no game and no arcade/robot topic,
 * and are short. Such words go to the game as `send_message` (original words) with no main-agent
 * model call; everything else goes through the model, which can still chat or end the game.
 */
export function isClearInGame(text: string, games: readonly ArcadeGame[], inGame: boolean): boolean {
  if (!inGame) return false;
  const n = normalize(text);
  if (!n || Array.from(n).length > FAST_PATH_MAX_CHARS) return false;
  if (META.test(n)) return false;
  if (mentionedGame(n, games)) return false;
  return true;
}

/** Drop what the microphone heard when it is just the robot's own last sentence (echo). */
export function isEcho(heard: string, lastSpoken: string | null): boolean {
  if (!lastSpoken) return false;
  const h = normalize(heard);
  const s = normalize(lastSpoken);
  return h.length >= 4 && s.includes(h);
}
