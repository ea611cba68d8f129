/**
 * What the robot says instead: the gentle redirect that replaces a blocked reply (said once per
 * reply, however many of its sentences were blocked), and the caring answer to a child's own words
 * that must not go to a model (no instructions, a trusted grown-up named). Words for parents:
 * each category in plain Chinese.
 */
import type { SafetyCategory } from './rules.ts';

/** Replaces a blocked reply: the main agent's own words, or a game's. */
export const REDIRECT = {
  main: '这个我们不聊啦。我们来玩个游戏好不好？',
  game: '哎呀，这句我不说了。我们接着玩游戏吧！',
} as const;

/** The caring answer to a child's words of this category (the words never reach a model). */
export const CARING: Partial<Record<SafetyCategory, string>> = {
  danger: '这个有点危险，要问问爸爸妈妈哦，让大人来帮你。',
  self_harm: '谢谢你告诉我。这件事很重要，请现在就去找爸爸妈妈或者你信任的大人，抱抱他们，告诉他们你的感受，好吗？',
  sexual: '这个问题可以问问爸爸妈妈哦，他们会好好告诉你。',
  drugs: '这些是给大人的东西，小朋友不能碰哦。有问题可以问问爸爸妈妈。',
  violence: '打人会让别人受伤的。有不开心的事，可以告诉爸爸妈妈哦。',
  personal_info: '家里的地址、电话这些要好好保护，不用告诉我哦。',
};

/**
 * The caring answer to a child who tells of someone asking for a secret from the parents, for
 * photos, or touching them: thanks, no blame, go to a parent now. The parent sees it in 安全提醒.
 */
export const CARING_TOLD = '谢谢你告诉我，你做得很对。这件事要马上告诉爸爸妈妈，你不会有麻烦的。现在就去找他们说，好吗？';

/** The child's rules that get `CARING_TOLD` rather than their category's answer. */
const TOLD_RULES = new Set(['child.secret', 'child.photo', 'child.touched']);

/** The caring answer for a child's words the rules found (undefined: the words go on as usual). */
export function caringFor(category: SafetyCategory, rule: string): string | undefined {
  return TOLD_RULES.has(rule) ? CARING_TOLD : CARING[category];
}

/** The categories as a parent reads them (记录, settings). */
export const CATEGORY_LABEL: Record<SafetyCategory, string> = {
  sexual: '性相关内容',
  violence: '暴力和武器',
  danger: '危险行为和危险物品',
  self_harm: '自我伤害',
  drugs: '烟、酒和毒品',
  personal_info: '打听个人信息或要孩子保密',
  scary: '吓人的内容',
  insult: '骂人和贬低',
  attachment: '不让孩子离开、假装是真人',
};
