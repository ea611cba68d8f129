/**
 * A scripted model that streams like a slow one: each step's text (from the same policies the
 * scripted model runs) goes out `chunkChars` characters at a time, `delayMs` apart, through the
 * same step layer (decoding, validation, retries) as every model.
 */
import { createChatModel } from '../../src/llm/decide-step.ts';
import { abortError } from '../../src/llm/errors.ts';
import { scriptedProvider, type PolicySource } from '../../src/llm/scripted.ts';
import { pause } from '../../src/llm/step-retry.ts';
import type { ChatModel } from '../../src/core/llm/types.ts';

export function pacedModel(policies: PolicySource, pace: { chunkChars: number; delayMs: number }): ChatModel {
  const inner = scriptedProvider(policies);
  return createChatModel({
    label: inner.label,
    async complete(req) {
      const text = await inner.complete({ ...req, onDelta: undefined });
      if (req.onDelta) {
        const chars = Array.from(text);
        for (let i = 0; i < chars.length; i += pace.chunkChars) {
          await pause(pace.delayMs, req.signal);
          if (req.signal?.aborted) throw abortError();
          req.onDelta(chars.slice(i, i + pace.chunkChars).join(''));
        }
      }
      return text;
    },
  });
}
