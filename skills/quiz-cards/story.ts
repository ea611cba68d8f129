/**
 * 故事接龙: the robot and the child take turns adding a sentence. `story-open` starts the story
 * with the accepted first sentence; after each of the child's sentences the model helper
 * `story-continue` writes the robot's next one and `story-say` (code) puts both in the story and
 * says it; at the last round `story-end` (a model) writes an ending and a short retelling and
 * `story-finish` says them. Every line reaches the child through the arcade's one speaking path.
 */
import type { CodeExecutor } from '../../src/core/studio/types.ts';
import { closing, opening, roundsOf, STOP, type Persona } from './shared.ts';

export interface StoryLine { 谁: '机器人' | '孩子'; 句: string }
export interface Story { 句子: StoryLine[]; 轮: number; 轮数: number }

const storyOf = (v: unknown): Story => {
  const s = (v ?? {}) as Partial<Story>;
  return { 句子: Array.isArray(s.句子) ? s.句子 : [], 轮: Number(s.轮) || 0, 轮数: Number(s.轮数) || 4 };
};
const clean = (t: unknown) => String(t ?? '').trim();
/** A sentence ends with a full stop (the robot's lines run on into the next words). */
const sentence = (t: string) => (/[。！？!?…」]$/.test(t) ? t : `${t}。`);

export function storyExecutors(): Record<string, CodeExecutor> {
  return {
    'story-open': (r) => {
      const set = (r['设计.故事'] ?? {}) as { 开头?: string };
      const role = (r['设计.角色'] ?? {}) as Persona;
      const start = sentence(clean(set.开头) || '从前，有一只小兔子住在森林里');
      const story: Story = { 句子: [{ 谁: '机器人', 句: start }], 轮: 0, 轮数: roundsOf(r['设计.交互范式'], 4) };
      return { '运行.故事': story, '运行.回复': `${opening(role)}${start}你来接下一句吧！` };
    },
    'story-say': (r) => {
      const story = storyOf(r['运行.故事']);
      const child = clean(r['运行.玩家输入']);
      const robot = sentence(clean(r['运行.机器人句']));
      if (!clean(r['运行.机器人句'])) throw new Error('运行.机器人句 是空的');
      const next: Story = { ...story, 句子: [...story.句子, { 谁: '孩子', 句: child }, { 谁: '机器人', 句: robot }], 轮: story.轮 + 1 };
      const left = next.轮数 - next.轮;
      return { '运行.故事': next, '运行.回复': `${robot}${left <= 1 ? '最后一句啦，你来接！' : '该你接着讲啦！'}` };
    },
    'story-finish': (r) => {
      const story = storyOf(r['运行.故事']);
      const role = (r['设计.角色'] ?? {}) as Persona;
      const end = r['运行.复述'] as { 结尾?: string; 复述?: string } | undefined;
      const bye = closing(role, '下次我们再一起讲故事！');
      if (!end || !clean(end.复述)) return { '运行.故事': story, '运行.回复': `故事先讲到这里，${bye}` };
      const child = clean(r['运行.玩家输入']);
      const ending = sentence(clean(end.结尾) || '大家都开开心心的');
      const lines: StoryLine[] = [...story.句子, ...(child && !STOP.test(child) ? [{ 谁: '孩子' as const, 句: child }] : []), { 谁: '机器人', 句: ending }];
      return {
        '运行.故事': { ...story, 句子: lines, 轮: story.轮 + 1 },
        '运行.回复': `${ending}我们的故事讲完啦！故事是这样的：${sentence(clean(end.复述))}你讲得真好！${bye}`,
      };
    },
  };
}
