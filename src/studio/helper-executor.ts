/**
 * A helper's run (seed 004 §3 target, §9): the runtime assembles its context
 * (src/core/studio/helper-context.ts) and runs the helper on the agent tool loop with its two
 * boundary tools: `submit` (exactly the skill's declared output tags) and, at design time,
 * `ask_user`. A step that breaks the contract is refused and retried, up to WORKER_MAX_ROUNDS.
 */
import { errorOf, readToolResult } from '../core/agent/messages.ts';
import { runToolLoop, ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import type { ChatMessage, ChatModel } from '../core/llm/types.ts';
import { helperAgent } from '../core/studio/manager-tools.ts';
import type { StudioSkill } from '../core/studio/package-loader.ts';
import { toJsonSchema, type FieldSchema } from '../core/studio/tag-schema.ts';

export type HelperOutcome =
  | { kind: 'submitted'; values: Record<string, unknown>; messages: ChatMessage[]; rounds: number }
  | { kind: 'asked'; question: string; options?: string[]; messages: ChatMessage[]; rounds: number }
  | { kind: 'failed'; message: string; messages: ChatMessage[]; rounds: number };

const WORKER_MAX_ROUNDS = 4;

interface HelperContract {
  /** The declared shape of each output tag (the manifest's schemas), for the submit tool's parameters. */
  schemas?: Record<string, FieldSchema | undefined>;
  /** The runtime's checks on the values (draft-check.ts): a problem refuses the submit and the helper retries. */
  check?: (values: Record<string, unknown>) => string[];
}

/** The helper's tools: submit (checked against the declared outputs) and, at design time, ask_user. */
export function helperTools(skill: StudioSkill, contract: HelperContract = {}): AgentTool[] {
  const shape = (t: string) => {
    const s = contract.schemas?.[t];
    return s ? toJsonSchema(s) : {};
  };
  const submit: AgentTool = {
    name: 'submit',
    description: `提交产出：${skill.writes.join('、')}`,
    kind: 'boundary',
    parameters: {
      type: 'object',
      properties: { values: { type: 'object', properties: Object.fromEntries(skill.writes.map((t) => [t, shape(t)])), required: skill.writes, additionalProperties: false } },
      required: ['values'],
      additionalProperties: false,
    },
    perform(args) {
      const values = args.values;
      if (!values || typeof values !== 'object' || Array.isArray(values)) throw new ToolError('submit 需要 values：{标签: 值}');
      const extra = Object.keys(values).filter((t) => !skill.writes.includes(t));
      if (extra.length) throw new ToolError(`不能写没有声明的标签：${extra.join('、')}；只能写：${skill.writes.join('、')}`);
      const missing = skill.writes.filter((t) => (values as Record<string, unknown>)[t] === undefined);
      if (missing.length) throw new ToolError(`缺少标签：${missing.join('、')}`);
      const problems = contract.check?.(values as Record<string, unknown>) ?? [];
      if (problems.length) throw new ToolError(problems.join('；'));
      return { values: values as Record<string, unknown> };
    },
  };
  if (skill.stage === 'run') return [submit];
  const askUser: AgentTool = {
    name: 'ask_user',
    description: '问家长一个问题（只在必须由家长决定时）。',
    kind: 'boundary',
    parameters: { type: 'object', properties: { question: { type: 'string', minLength: 1 }, options: { type: 'array', items: { type: 'string' }, maxItems: 4 } }, required: ['question'] },
    perform(args) {
      const question = typeof args.question === 'string' ? args.question.trim() : '';
      if (!question) throw new ToolError('ask_user 需要 question');
      const options = Array.isArray(args.options) ? args.options.map(String) : undefined;
      return { question, ...(options?.length ? { options } : {}) };
    },
  };
  return [submit, askUser];
}

export async function runHelperLoop(opts: {
  model: ChatModel;
  skill: StudioSkill;
  messages: ChatMessage[];
  signal?: AbortSignal;
  maxRounds?: number;
  now?: () => number;
  contract?: HelperContract;
}): Promise<HelperOutcome> {
  const max = opts.maxRounds ?? WORKER_MAX_ROUNDS;
  const tools = helperTools(opts.skill, opts.contract);
  const out = await runToolLoop({ agent: helperAgent(opts.skill.id), model: opts.model, messages: opts.messages, tools: () => tools, maxSteps: max, now: opts.now ?? Date.now, signal: opts.signal });
  if (out.kind === 'exhausted') {
    const last = errorOf(readToolResult(out.messages.at(-1)!)?.result);
    return { kind: 'failed', message: `连续 ${max} 次都没有想出合格的结果${last ? `（${last}）` : ''}`, messages: out.messages, rounds: max };
  }
  if (out.step.action === 'ask_user') {
    const r = out.result as { question: string; options?: string[] };
    return { kind: 'asked', question: r.question, ...(r.options ? { options: r.options } : {}), messages: out.messages, rounds: out.steps };
  }
  return { kind: 'submitted', values: (out.result as { values: Record<string, unknown> }).values, messages: out.messages, rounds: out.steps };
}
