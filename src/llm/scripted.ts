/**
 * The scripted model: a deterministic ChatModel for unit tests, e2e tests and the demo mode.
 * Each agent (by `req.agent`) has a policy, a small function of the request. Its output goes
 * through the same decoding, validation and retries as a real model's, and it streams its text
 * in pieces like a real model (`stream`: how many characters a piece, how long between pieces).
 */
import { createChatModel, type ChatModelOptions, type StepProvider } from './decide-step.ts';
import { abortError, modelError } from './errors.ts';
import { stepJson } from '../core/llm/step-format.ts';
import type { ChatModel, ScriptPolicy, Step } from '../core/llm/types.ts';

export const SCRIPTED_LABEL = '演示脚本（无模型）';

export type PolicySource = Record<string, ScriptPolicy> | ((agent: string) => ScriptPolicy | undefined);

export interface ScriptedStreaming {
  /** Characters per piece (default 4). */
  chunkChars?: number;
  /** Pause before each piece, ms (default 0: pieces follow at once). */
  delayMs?: number;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function scriptedProvider(policies: PolicySource, streaming: ScriptedStreaming = {}): StepProvider {
  const find = typeof policies === 'function' ? policies : (agent: string) => policies[agent];
  const size = Math.max(1, streaming.chunkChars ?? 4);
  const delayMs = streaming.delayMs ?? 0;
  return {
    label: SCRIPTED_LABEL,
    async complete(req) {
      const policy = find(req.agent);
      if (!policy) throw modelError('model_not_configured', `演示脚本里没有“${req.agent}”的策略`);
      const out = await policy(req);
      const text = typeof out.raw === 'string' ? out.raw : stepJson(out as Step);
      if (req.onDelta) {
        const chars = Array.from(text);
        for (let i = 0; i < chars.length; i += size) {
          if (delayMs > 0) await pause(delayMs, req.signal);
          req.onDelta(chars.slice(i, i + size).join(''));
        }
      }
      return text;
    },
  };
}

export function createScriptedModel(policies: PolicySource, opts?: ChatModelOptions & { stream?: ScriptedStreaming }): ChatModel {
  return createChatModel(scriptedProvider(policies, opts?.stream), opts);
}
