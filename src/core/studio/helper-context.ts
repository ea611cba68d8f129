/**
 * A helper's context (seed 004 §6, §9): the runtime — never the agent — assembles it.
 *
 * Context = a fixed upper half (package constraints + the skill's SKILL.md + the submit contract),
 * byte-identical for every helper of one skill so a model can reuse its KV cache, and a dynamic
 * lower half (current accepted values of the tags the skill reads, shaped by its context profile,
 * plus the reasons its previous drafts were rejected).
 */
import type { ChatMessage } from '../llm/types.ts';
import type { Blackboard } from './blackboard.ts';
import type { ContextRule, StudioSkill, SkillPackage } from './package-loader.ts';
import { hideFields } from './manager-tools.ts';
import { HONEST_COMPANION } from '../safety/honesty.ts';

interface HelperContext {
  upper: string;
  lower: string;
  messages: ChatMessage[];
}

function fixedUpperHalf(pkg: SkillPackage, skill: StudioSkill): string {
  return [
    `你是「${pkg.title}」技能包里 skill「${skill.id}」（${skill.title}）的 helper。`,
    `# 约束\n${pkg.constraints.map((c) => `- ${c}`).join('\n')}`,
    // What the robot will say to a child (a run skill's reply, the host's persona lines).
    ...(skill.stage === 'run' || skill.writes.includes('设计.角色') ? [`# 对孩子\n${HONEST_COMPANION}`] : []),
    `# SKILL.md\n${skill.skillMd}`,
    `# 交付\n用 submit 一次提交这些标签：${skill.writes.join('、')}。` + (skill.stage === 'instantiate' ? '信息不够、必须由家长决定时，用 ask_user 问一句。' : ''),
  ].join('\n\n');
}

/** One read tag's value as the helper sees it, per its context rule. */
function shapeValue(value: unknown, rule: ContextRule = 'full'): string {
  if (rule === 'full') return JSON.stringify(value, null, 1);
  if (rule === 'brief') {
    if (Array.isArray(value))
      return `共 ${value.length} 项：` + JSON.stringify(value.map((v) => (v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x !== 'object')) : v)));
    const t = JSON.stringify(value);
    return t.length > 300 ? t.slice(0, 300) + '…' : t;
  }
  return JSON.stringify(hideFields(value, rule.hide), null, 1);
}

function dynamicLowerHalf(skill: StudioSkill, board: Blackboard): string {
  const parts: string[] = [];
  for (const tag of skill.reads) {
    const e = board.tags[tag];
    parts.push(`## ${tag}\n${e && e.status === 'accepted' ? shapeValue(e.value, skill.context[tag]) : '（还没有）'}`);
  }
  for (const tag of skill.writes) {
    const last = board.tags[tag]?.rejections.at(-1);
    if (board.tags[tag]?.status === 'rejected' && last)
      parts.push(`## 上次的「${tag}」草稿被家长驳回\n理由：${last.reason}\n被驳回的草稿：${shapeValue(last.value, 'brief')}`);
  }
  return `# 当前黑板（你读取的标签）\n${parts.join('\n\n')}`;
}

export function assembleHelperContext(pkg: SkillPackage, skill: StudioSkill, board: Blackboard): HelperContext {
  const upper = fixedUpperHalf(pkg, skill);
  const lower = dynamicLowerHalf(skill, board);
  return { upper, lower, messages: [{ role: 'system', content: upper }, { role: 'user', content: lower }] };
}
