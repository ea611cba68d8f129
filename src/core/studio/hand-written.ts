/**
 * A deck the parent writes by hand, with no model: their cards, the game's name, the shape (问答 or
 * 猜谜语) and how many rounds become the design facts a talked design would have — the parent is
 * their author. The host they did not write is a plain, friendly default. Pure.
 */
import type { SkillPackage } from './package-loader.ts';
import { PARADIGM_TAG } from './draft-check.ts';
import { RUN_SKILL_LIST } from './planner.ts';

const THEME_TAG = '设计.主题';
export const DECK_TAG = '设计.卡牌';
const PERSONA_TAG = '设计.角色';

interface HandDeck {
  title: string;
  /** A paradigm of the package whose run skills read no more than cards, host, theme and shape. */
  paradigm: string;
  rounds: number;
  cards: unknown[];
}

/** Paradigms a hand-written deck can be played with: those whose run skills need only its facts. */
export function handParadigms(pkg: SkillPackage): string[] {
  const own = new Set([PARADIGM_TAG, RUN_SKILL_LIST, THEME_TAG, DECK_TAG, PERSONA_TAG]);
  return pkg.paradigms
    .filter((p) => p.runSkills.some((id) => pkg.skills.find((s) => s.id === id)?.reads.includes(DECK_TAG)))
    .filter((p) => p.runSkills.every((id) => (pkg.skills.find((s) => s.id === id)?.reads ?? []).every((t) => !t.startsWith('设计.') || own.has(t))))
    .map((p) => p.name);
}

/** The design facts of a hand-written deck (check them with draftProblems before authoring). */
export function handWrittenDesign(pkg: SkillPackage, deck: HandDeck): Record<string, unknown> {
  const p = pkg.paradigms.find((x) => x.name === deck.paradigm);
  if (!p) throw new Error(`no paradigm「${deck.paradigm}」in ${pkg.id}`);
  const title = deck.title.trim();
  return {
    [PARADIGM_TAG]: { 范式: p.name, 说明: p.description, 轮数: deck.rounds },
    [RUN_SKILL_LIST]: [...p.runSkills],
    [THEME_TAG]: { 主题: title, 标题: title, 别名: [], 年龄: '4-8岁' },
    [DECK_TAG]: deck.cards,
    [PERSONA_TAG]: {
      名字: '小问号',
      风格: '亲切',
      开场白: `你好，我是小问号！我们来玩${title}，我出题，你来猜。`,
      鼓励语: ['太棒了！', '你真厉害！'],
      安慰语: ['没关系，', '差一点点，'],
      结束语: `${title}就玩到这里，下次再来玩！`,
    },
  };
}
