/**
 * The manager's tools (seed 004 §3, §9), as the agent tool loop offers them
 * (src/core/agent/tool-loop.ts): loop tools (`read_blackboard`, `list_skills`, `missing_skills`)
 * append a result and keep the burst going; boundary tools (`run_helper`, `ask_user`,
 * `declare_instance_ready`, and in play `reply`, `finish`) end the loop by turning into a
 * phase-machine event. The agent never passes input tags and never writes the board.
 */
import type { Step, ToolSpec } from '../llm/types.ts';
import { HONEST_COMPANION } from '../safety/honesty.ts';
import type { Blackboard, TagEntry } from './blackboard.ts';
import type { SkillPackage } from './package-loader.ts';
import { isLoopTool, type PhaseEvent, type PhaseState } from './phase-machine.ts';
import { missingInstantiateSkills } from './planner.ts';

export const MANAGER_AGENT = 'studio:manager';
export const helperAgent = (skill: string) => `studio:helper:${skill}`;

const noArgs = { type: 'object', properties: {}, required: [], additionalProperties: false };

/** Tool specs for exactly the tools the phase machine allows now. */
export function managerToolSpecs(pkg: SkillPackage, state: PhaseState, allowed: string[], runSkills: string[] = []): ToolSpec[] {
  const stageSkills = state.stage === 'play' ? pkg.skills.filter((s) => s.stage === 'run' && (runSkills.length === 0 || runSkills.includes(s.id))) : pkg.skills.filter((s) => s.stage === 'instantiate');
  const specs: Record<string, ToolSpec> = {
    read_blackboard: { name: 'read_blackboard', description: '查看黑板：每个标签的状态（草稿／已采用／被驳回）和简短内容。', parameters: noArgs },
    list_skills: { name: 'list_skills', description: '列出技能包里的 skill：阶段、读写的标签。', parameters: noArgs },
    missing_skills: { name: 'missing_skills', description: '按 run skill 倒推：还缺哪些 instantiate skill、下一步该跑哪个、是否可以宣布完成。', parameters: noArgs },
    run_helper: {
      name: 'run_helper',
      description:
        state.stage === 'play'
          ? '运行一个 run skill。运行时执行它（不要传标签内容）；它写的「运行.回复」直接说给孩子听。'
          : '运行一个 skill 的 helper。运行时会自己给它拼好上下文（不要传标签内容）。',
      parameters: { type: 'object', properties: { skill: { type: 'string', enum: stageSkills.map((s) => s.id) } }, required: ['skill'], additionalProperties: false },
    },
    ask_user: {
      name: 'ask_user',
      description: '问家长一个问题并等待回答（只在确实需要家长决定时用）。',
      parameters: {
        type: 'object',
        properties: { question: { type: 'string', minLength: 1, maxLength: 200 }, options: { type: 'array', items: { type: 'string', maxLength: 30 }, maxItems: 4 } },
        required: ['question'],
        additionalProperties: false,
      },
    },
    declare_instance_ready: { name: 'declare_instance_ready', description: '所有 run skill 需要的标签都已被家长采用：宣布游戏设计完成，进入 play 阶段。', parameters: noArgs },
    reply: { name: 'reply', description: '对孩子说话并等待孩子下一句。', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['text'], additionalProperties: false } },
    finish: { name: 'finish', description: '说结束语并结束这局游戏。', parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['text'], additionalProperties: false } },
  };
  return allowed.filter((n) => specs[n]).map((n) => specs[n]);
}

/** The manager's fixed prompt; in play, `runSkills` (the game's list) narrows the skills it describes. */
export function managerSystemPrompt(pkg: SkillPackage, stage: 'design' | 'play', runSkills: readonly string[] = []): string {
  const skills = pkg.skills
    .filter((s) => (stage === 'design' ? s.stage === 'instantiate' : s.stage === 'run' && (runSkills.length === 0 || runSkills.includes(s.id))))
    .map((s) => `- ${s.id}（${s.title}）：${s.description}`)
    .join('\n');
  const role =
    stage === 'design'
      ? '你是游戏设计工作室的总管。你和家长一起设计一个新游戏：决定下一步运行哪个 skill 的 helper；helper 产出草稿，家长采用后才成为事实。先看 missing_skills；缺什么就 run_helper；家长驳回的草稿要重新运行那个 skill；全部采用后 declare_instance_ready。'
      : '你是这局游戏的主持总管。孩子每说一句话，你决定调用哪个 run skill（run_helper）；运行时执行它、更新「运行.*」标签。写「运行.回复」的 skill 跑完，运行时就把这句话说给孩子听，这一轮结束；其他 skill 的结果交回给你，再决定下一步。只有不需要 skill 的时候才自己 reply。';
  const child = stage === 'play' ? `\n\n# 对孩子\n${HONEST_COMPANION}` : '';
  return `${role}${child}\n\n# 技能包：${pkg.title}\n${pkg.description}\n\n# 约束\n${pkg.constraints.map((c) => `- ${c}`).join('\n')}\n\n# skill\n${skills}\n\n每一步只调用一个工具。`;
}

function brief(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? '';
  const n = Array.isArray(value) ? `（${value.length} 项）` : '';
  return (Array.from(text).length > max ? Array.from(text).slice(0, max).join('') + '…' : text) + n;
}

const STATUS_ZH: Record<TagEntry['status'], string> = { draft: '草稿', accepted: '已采用', rejected: '被驳回' };

/**
 * Fields the package hides from run helpers (context rules `{hide: [...]}`, e.g. a card's answer)
 * stay hidden from the manager's blackboard view too: a short question would otherwise let the
 * answer into the shortened preview (no prompt holds an unrevealed answer).
 */
function hiddenFields(pkg: SkillPackage, tag: string): string[] {
  const out = new Set<string>();
  for (const s of pkg.skills) {
    const rule = s.context[tag];
    if (rule && typeof rule === 'object') for (const f of rule.hide) out.add(f);
  }
  return [...out];
}

/** A value with the named fields removed at every depth (answers kept out of prompts). */
export function hideFields(value: unknown, hide: readonly string[]): unknown {
  if (hide.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => hideFields(v, hide));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !hide.includes(k)).map(([k, v]) => [k, hideFields(v, hide)]));
  return value;
}

/** A loop tool's result text (appended to the agent's messages; the phase does not change). */
export function runLoopTool(name: string, pkg: SkillPackage, board: Blackboard): string {
  if (name === 'read_blackboard') {
    const lines = Object.values(board.tags).map((e) => {
      const why = e.status === 'rejected' ? `，理由：${e.rejections.at(-1)?.reason}` : '';
      return `- ${e.name}【${STATUS_ZH[e.status]}${why}】${e.provenance.skill ? `（${e.provenance.skill}）` : ''} ${brief(hideFields(e.value, hiddenFields(pkg, e.name)))}`;
    });
    return lines.length ? lines.join('\n') : '（黑板是空的）';
  }
  if (name === 'list_skills')
    return pkg.skills.map((s) => `- ${s.id} [${s.stage}] 读：${s.reads.join('、') || '无'}；写：${s.writes.join('、')}`).join('\n');
  if (name === 'missing_skills') return JSON.stringify(missingInstantiateSkills(pkg, board));
  throw new Error(`not a loop tool: ${name}`);
}

type ParsedStep = { kind: 'loop'; name: string } | { kind: 'boundary'; event: PhaseEvent; name: string } | { kind: 'invalid'; message: string };

/**
 * Validates the model's step against the tools allowed now and turns a boundary tool into the
 * phase event it stands for. `newHelperId` is only called for a valid `run_helper`.
 */
export function parseManagerStep(step: Step, allowed: string[], pkg: SkillPackage, stage: 'design' | 'play' | 'done', newHelperId: () => string): ParsedStep {
  if (!allowed.includes(step.action)) return { kind: 'invalid', message: `工具「${step.action}」现在不可用；可用：${allowed.join('、')}` };
  if (isLoopTool(step.action)) return { kind: 'loop', name: step.action };
  const a = step.args ?? {};
  const text = (k: string) => (typeof a[k] === 'string' ? (a[k] as string).trim() : '');
  switch (step.action) {
    case 'run_helper': {
      const want = stage === 'play' ? 'run' : 'instantiate';
      const skill = pkg.skills.find((s) => s.id === a.skill && s.stage === want);
      if (!skill) return { kind: 'invalid', message: `没有 ${want} skill「${String(a.skill)}」` };
      if ('inputs' in a || 'tags' in a) return { kind: 'invalid', message: 'run_helper 不接受标签内容：helper 的上下文由运行时拼接' };
      return { kind: 'boundary', name: step.action, event: { type: 'agent_run_helper', skill: skill.id, helperId: newHelperId() } };
    }
    case 'ask_user': {
      const q = text('question');
      if (!q) return { kind: 'invalid', message: 'ask_user 需要 question' };
      const options = Array.isArray(a.options) ? a.options.map(String).filter(Boolean).slice(0, 4) : undefined;
      return { kind: 'boundary', name: step.action, event: { type: 'agent_ask_user', question: q, ...(options?.length ? { options } : {}) } };
    }
    case 'declare_instance_ready':
      return { kind: 'boundary', name: step.action, event: { type: 'agent_declare_ready' } };
    case 'reply':
    case 'finish': {
      const t = text('text');
      if (!t) return { kind: 'invalid', message: `${step.action} 需要 text` };
      return { kind: 'boundary', name: step.action, event: step.action === 'reply' ? { type: 'agent_reply', text: t } : { type: 'agent_finish', text: t } };
    }
  }
  return { kind: 'invalid', message: `未知工具「${step.action}」` };
}
