/**
 * A remote game's names (its title and aliases) are names, never phrases the arcade already
 * understands: a child saying 「你好呀」 or 「讲个故事」 must not start a third party's game and send
 * their words to its server. A name is refused when it equals or contains a built-in command
 * (再说一遍, 不玩了, 大声点…), a greeting or a chat phrase the main agent handles, or takes another
 * game's name (see below); a title equal to another game's title is a second game of that name. Pure.
 */
import { globalIntent, normalize, voiceCommand } from '../arcade/intents.ts';

/** Greetings and chat the main agent answers itself (normalized: no spaces or punctuation). */
export const CHAT_PHRASES = [
  '你好', '您好', '嗨', '哈喽', '早上好', '中午好', '下午好', '晚上好', '晚安', '再见', '拜拜', '谢谢', '对不起', '没关系',
  '讲个故事', '讲故事', '说个故事', '讲个笑话', '笑话', '唱歌', '唱首歌', '你是谁', '你叫什么', '名字', '几岁', '几点', '天气',
  '我累了', '睡觉', '吃饭', '妈妈', '爸爸', '有什么游戏', '玩什么', '换一个', '别的游戏',
];

/** Commands the arcade takes before any game (normalized). */
const COMMANDS = ['再说一遍', '再说一次', '重复一遍', '停', '停下', '不玩了', '结束游戏', '退出游戏', '别说了', '安静', '大声点', '小声点', '说慢一点', '说快一点', '开始游戏'];

export interface OtherGame {
  id: string;
  title: string;
  aliases: readonly string[];
}

/** Why this name may not be a remote game's name (plain Chinese), or null when it may. */
export function reservedNameProblem(name: string, others: readonly OtherGame[]): string | null {
  const n = normalize(name);
  if (!n) return null;
  if (globalIntent(name) || voiceCommand(name) || COMMANDS.some((c) => n.includes(c))) return `「${name}」是游戏厅自己的口令`;
  const chat = CHAT_PHRASES.find((p) => n.includes(p));
  if (chat) return `「${name}」里有「${chat}」，这是小朋友平时聊天会说的话`;
  // Another game's name: equal to any of its names, containing its title, or inside one of its
  // names (「数字」 would be heard in 「猜数字」). Containing only another game's alias is allowed:
  // the longest name heard wins, so 「猜动物叫声」 does not take 你画我猜's 「猜动物」.
  for (const g of others)
    for (const [i, other] of [g.title, ...g.aliases].entries()) {
      const m = normalize(other);
      if (m.length < 2) continue;
      if (n === m || (i === 0 && n.includes(m)) || (n.length >= 2 && m.includes(n))) return `「${name}」和游戏「${g.title}」的名字「${other}」重了`;
    }
  return null;
}
