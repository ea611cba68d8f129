/**
 * The scripted model: a deterministic ChatModel for unit tests, e2e tests and the demo mode.
 * Each agent (by `req.agent`) has a policy, a small function of the request. Its output goes
 * through the same decoding, validation and retries as a real model's.
 */
import { createChatModel, type ChatModelOptions, type StepProvider } from './decide-step.ts';
import { modelError } from './errors.ts';
import type { ChatModel, ScriptPolicy } from '../core/llm/types.ts';

export const SCRIPTED_LABEL = '演示脚本（无模型）';

export type PolicySource = Record<string, ScriptPolicy> | ((agent: string) => ScriptPolicy | undefined);

export function scriptedProvider(policies: PolicySource): StepProvider {
  const find = typeof policies === 'function' ? policies : (agent: string) => policies[agent];
  return {
    label: SCRIPTED_LABEL,
    async complete(req) {
      const policy = find(req.agent);
      if (!policy) throw modelError('model_not_configured', `演示脚本里没有“${req.agent}”的策略`);
      const out = await policy(req);
      return 'raw' in out && typeof out.raw === 'string' ? out.raw : JSON.stringify(out);
    },
  };
}

export function createScriptedModel(policies: PolicySource, opts?: ChatModelOptions): ChatModel {
  return createChatModel(scriptedProvider(policies), opts);
}
