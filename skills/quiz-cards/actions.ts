/**
 * 我说你做: `action-give` says the next action ("我说：摸摸鼻子！") — the robot shows it with its
 * face and head (the play engine's device effects read `运行.当前动作`); one round near the end is a
 * little trick for older children (no "我说": the child should not do it). `action-check` judges
 * what the child said ("做好了" / "我没做"), `action-end` tells how it went, honestly.
 */
import type { CodeExecutor } from '../../src/studio/session-types.ts';
import { closing, first, opening, roundsOf, type Persona, type Score } from './shared.ts';

interface Action { 说法: string; 表情?: string; 头?: string }
interface ActionSet { 动作?: Action[]; 陷阱?: boolean }
interface Progress { 第几个?: number; 已用?: number[] }
export interface CurrentAction { 序号: number; 说法: string; 表情: string; 头: string; 陷阱: boolean }
interface Verdict { 结果: '对' | '错'; 动作: number; 陷阱: boolean; 做了: boolean }

const DONE = /做好了|好了|做完|做了|完成|做到了|搞定|做啦|ok/i;
const NOT_DONE = /没做|没有做|不做|才不|不要做|没动|不动|你没说|没说我说|没有说/;

/** The trick round (no "我说"): the one before the last, when the set has one and there are 3+ rounds. */
export function trickRound(set: ActionSet, rounds: number): number | undefined {
  return set.陷阱 && rounds >= 3 ? rounds - 1 : undefined;
}

function verdictWords(v: Verdict | undefined, cur: CurrentAction | undefined, role: Persona): string {
  if (!v || !cur || v.动作 !== cur.序号) return '';
  if (v.结果 === '对') return v.陷阱 ? '哈哈，没上当！我刚才没说「我说」。' : first(role.鼓励语, '做得真好！');
  return v.陷阱 ? '嘿嘿，我刚才没说「我说」哦！' : '没关系，';
}

export function actionExecutors(): Record<string, CodeExecutor> {
  return {
    'action-give': (r) => {
      const set = (r['设计.动作'] ?? {}) as ActionSet;
      const actions = (set.动作 ?? []).filter((a) => a?.说法?.trim());
      if (actions.length === 0) throw new Error('设计.动作 是空的');
      const role = (r['设计.角色'] ?? {}) as Persona;
      const p = (r['运行.进度'] ?? {}) as Progress;
      const rounds = roundsOf(r['设计.交互范式']);
      const n = (p.第几个 ?? 0) + 1;
      const a = actions[(n - 1) % actions.length];
      const trick = trickRound(set, rounds) === n;
      const cur: CurrentAction = { 序号: n, 说法: a.说法.trim(), 表情: a.表情 ?? 'happy', 头: a.头 ?? 'none', 陷阱: trick };
      const before = verdictWords(r['运行.判定'] as Verdict | undefined, r['运行.当前动作'] as CurrentAction | undefined, role);
      const hello = n === 1 ? opening(role) : '';
      const say = trick ? `${cur.说法}！` : `我说：${cur.说法}！`;
      return {
        '运行.当前动作': cur,
        '运行.进度': { 第几个: n, 已用: [...(p.已用 ?? []), n] },
        '运行.回复': `${before}${hello}${say}${n === 1 ? '做完了告诉我「做好了」。' : ''}`,
      };
    },
    'action-check': (r) => {
      const cur = r['运行.当前动作'] as CurrentAction | undefined;
      const text = String(r['运行.玩家输入'] ?? '');
      const did = DONE.test(text) && !NOT_DONE.test(text);
      const right = cur?.陷阱 ? !did : did;
      const s = (r['运行.得分'] ?? { 得分: 0, 答对: 0 }) as Score;
      const played = ((r['运行.进度'] ?? {}) as Progress).已用?.length ?? 0;
      const rounds = roundsOf(r['设计.交互范式']);
      const verdict: Verdict = { 结果: right ? '对' : '错', 动作: cur?.序号 ?? 0, 陷阱: cur?.陷阱 ?? false, 做了: did };
      return { '运行.判定': verdict, '运行.得分': { 得分: s.得分 + (right ? 1 : 0), 答对: s.答对 + (right ? 1 : 0), 已出: played, 轮数: rounds, 结束: played >= rounds } };
    },
    'action-end': (r) => {
      const s = (r['运行.得分'] ?? {}) as Partial<Score>;
      const role = (r['设计.角色'] ?? {}) as Persona;
      const before = verdictWords(r['运行.判定'] as Verdict | undefined, r['运行.当前动作'] as CurrentAction | undefined, role);
      const right = s.答对 ?? 0;
      const played = s.已出 ?? 0;
      if (!s.结束) return { '运行.回复': `${before}${right > 0 ? `今天做对了 ${right} 个，` : '好的，今天就玩到这里，'}下次接着玩！` };
      const how = right > 0 && right >= played ? `${right} 个动作全都做对了，真了不起！` : right > 0 ? `你做对了 ${right} 个（一共 ${played} 个），真棒！` : '这次有点难，没关系，下次再来！';
      return { '运行.回复': `${before}${how}${closing(role, '下次再一起玩！')}` };
    },
  };
}
