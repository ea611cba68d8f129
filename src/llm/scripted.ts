/**
 * The scripted model: a deterministic ChatModel for unit tests, e2e tests and the demo mode.
 * Each agent (by `req.agent`) has a policy, a small function of the request. Its output goes
 * through the same decoding, validation and retries as a real model's, and it streams its text
 * in pieces like a real model.
 */
import { createChatModel, type ChatModelOptions, type StepProvider } from './decide-step.ts';
import { modelError } from './errors.ts';
import { stepJson } from '../core/llm/step-format.ts';
import type { ChatModel, ScriptPolicy, Step } from '../core/llm/types.ts';

export const SCRIPTED_LABEL = '规则大脑（不用模型）';

export type PolicySource = Record<string, ScriptPolicy> | ((agent: string) => ScriptPolicy | undefined);

/** Characters per streamed piece: a step's text reaches the reader in pieces, as a real model's does. */
const PIECE_CHARS = 4;

export function scriptedProvider(policies: PolicySource): StepProvider {
  const find = typeof policies === 'function' ? policies : (agent: string) => policies[agent];
  return {
    label: SCRIPTED_LABEL,
    async complete(req) {
      const policy = find(req.agent);
      if (!policy) throw modelError('model_not_configured', `规则大脑里没有“${req.agent}”的策略`);
      const out = await policy(req);
      const text = typeof out.raw === 'string' ? out.raw : stepJson(out as Step);
      if (req.onDelta) {
        const chars = Array.from(text);
        for (let i = 0; i < chars.length; i += PIECE_CHARS) req.onDelta(chars.slice(i, i + PIECE_CHARS).join(''));
      }
      return text;
    },
  };
}

export function createScriptedModel(policies: PolicySource, opts?: ChatModelOptions): ChatModel {
  return createChatModel(scriptedProvider(policies), opts);
}
