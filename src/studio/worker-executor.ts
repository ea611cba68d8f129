/**
 * Workers (seed 004 §6, §9): the runtime — never the agent — assembles each worker's context and
 * runs the worker's own tool loop (`submit` / `ask_user`).
 *
 * Context = a fixed upper half (package constraints + the skill's SKILL.md + the submit contract),
 * byte-identical for every worker of one skill so a model can reuse its KV cache, and a dynamic
 * lower half (current accepted values of the tags the skill reads, shaped by its context profile,
 * plus the reasons its previous drafts were rejected).
 */
import type { ChatMessage, ChatModel, Step, ToolSpec } from '../core/llm/types.ts';
import type { Blackboard } from '../core/studio/blackboard.ts';
import type { ContextRule, SkillDef, SkillPackage } from '../core/studio/package-loader.ts';
import { assistantMessage, hideFields, workerAgent } from '../core/studio/manager-tools.ts';

export interface WorkerContext {
  upper: string;
  lower: string;
  messages: ChatMessage[];
}

export function fixedUpperHalf(pkg: SkillPackage, skill: SkillDef): string {
  return [
    `你是「${pkg.title}」技能包里 skill「${skill.id}」（${skill.title}）的 worker。`,
    `# 约束\n${pkg.constraints.map((c) => `- ${c}`).join('\n')}`,
    `# SKILL.md\n${skill.skillMd}`,
    `# 交付\n用 submit 一次提交这些标签：${skill.writes.join('、')}。` + (skill.stage === 'instantiate' ? '信息不够、必须由家长决定时，用 ask_user 问一句。' : ''),
  ].join('\n\n');
}

/** One read tag's value as the worker sees it, per its context rule. */
export function shapeValue(value: unknown, rule: ContextRule = 'full'): string {
  if (rule === 'full') return JSON.stringify(value, null, 1);
  if (rule === 'brief') {
    if (Array.isArray(value))
      return `共 ${value.length} 项：` + JSON.stringify(value.map((v) => (v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x !== 'object')) : v)));
    const t = JSON.stringify(value);
    return t.length > 300 ? t.slice(0, 300) + '…' : t;
  }
  return JSON.stringify(hideFields(value, rule.hide), null, 1);
}

export function dynamicLowerHalf(skill: SkillDef, board: Blackboard): string {
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

export function assembleWorkerContext(pkg: SkillPackage, skill: SkillDef, board: Blackboard): WorkerContext {
  const upper = fixedUpperHalf(pkg, skill);
  const lower = dynamicLowerHalf(skill, board);
  return { upper, lower, messages: [{ role: 'system', content: upper }, { role: 'user', content: lower }] };
}

export function workerToolSpecs(skill: SkillDef): ToolSpec[] {
  const submit: ToolSpec = {
    name: 'submit',
    description: `提交产出：${skill.writes.join('、')}`,
    parameters: {
      type: 'object',
      properties: { values: { type: 'object', properties: Object.fromEntries(skill.writes.map((t) => [t, {}])), required: skill.writes, additionalProperties: false } },
      required: ['values'],
      additionalProperties: false,
    },
  };
  if (skill.stage === 'run') return [submit];
  return [
    submit,
    {
      name: 'ask_user',
      description: '问家长一个问题（只在必须由家长决定时）。',
      parameters: { type: 'object', properties: { question: { type: 'string', minLength: 1 }, options: { type: 'array', items: { type: 'string' }, maxItems: 4 } }, required: ['question'] },
    },
  ];
}

export type WorkerOutcome =
  | { kind: 'submitted'; values: Record<string, unknown>; messages: ChatMessage[]; rounds: number }
  | { kind: 'asked'; question: string; options?: string[]; messages: ChatMessage[]; rounds: number }
  | { kind: 'failed'; message: string; messages: ChatMessage[]; rounds: number };

export const WORKER_MAX_ROUNDS = 4;

/**
 * The worker's own tool loop. An invalid step (wrong tool, undeclared or missing output tag)
 * is answered with an error message and retried, up to `maxRounds`.
 */
export async function runWorkerLoop(opts: { model: ChatModel; skill: SkillDef; messages: ChatMessage[]; signal?: AbortSignal; maxRounds?: number }): Promise<WorkerOutcome> {
  const { model, skill } = opts;
  const tools = workerToolSpecs(skill);
  const messages = [...opts.messages];
  const max = opts.maxRounds ?? WORKER_MAX_ROUNDS;
  for (let round = 1; round <= max; round++) {
    const step: Step = await model.step({ agent: workerAgent(skill.id), messages: [...messages], tools, signal: opts.signal });
    messages.push(assistantMessage(step));
    const problem = checkWorkerStep(skill, step, tools);
    if (problem) {
      messages.push({ role: 'user', content: `[错误] ${problem}` });
      continue;
    }
    if (step.action === 'ask_user') {
      const options = Array.isArray(step.args.options) ? step.args.options.map(String) : undefined;
      return { kind: 'asked', question: String(step.args.question).trim(), ...(options?.length ? { options } : {}), messages, rounds: round };
    }
    return { kind: 'submitted', values: step.args.values as Record<string, unknown>, messages, rounds: round };
  }
  return { kind: 'failed', message: `worker 连续 ${max} 次没有给出合格的提交`, messages, rounds: max };
}

function checkWorkerStep(skill: SkillDef, step: Step, tools: ToolSpec[]): string | null {
  if (!tools.some((t) => t.name === step.action)) return `工具「${step.action}」不可用；可用：${tools.map((t) => t.name).join('、')}`;
  if (step.action === 'ask_user') return typeof step.args.question === 'string' && step.args.question.trim() ? null : 'ask_user 需要 question';
  const values = step.args.values;
  if (!values || typeof values !== 'object' || Array.isArray(values)) return 'submit 需要 values：{标签: 值}';
  const extra = Object.keys(values).filter((t) => !skill.writes.includes(t));
  if (extra.length) return `不能写没有声明的标签：${extra.join('、')}；只能写：${skill.writes.join('、')}`;
  const missing = skill.writes.filter((t) => !(t in values) || (values as Record<string, unknown>)[t] === undefined);
  if (missing.length) return `缺少标签：${missing.join('、')}`;
  return null;
}
