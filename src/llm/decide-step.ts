/**
 * One agent step: build the schema of the legal actions, ask a provider for JSON text under it,
 * check the text again, and on invalid output send the model a short correction and ask again,
 * a bounded number of times. Every provider (WebLLM, remote, scripted) goes through this.
 */
import { abortError, isAbortError, modelError, toModelError } from './errors.ts';
import { buildStepSchema, checkStep, correctionMessage } from '../core/llm/step-schema.ts';
import type { ChatMessage, ChatModel, JsonSchema, Step, StepRequest } from '../core/llm/types.ts';

/** What a provider is asked for: the step request plus its schema and the attempt number (0 = first). */
export interface CompletionRequest extends StepRequest {
  schema: JsonSchema;
  attempt: number;
  maxTokens: number;
  temperature: number;
  /** Each piece of text as the model decodes it (providers that stream call it; the result is still the whole text). */
  onDelta?: (delta: string) => void;
}

/** A raw completer: returns the text the model produced under the schema (or its grammar). */
export interface StepProvider {
  readonly label: string;
  complete(req: CompletionRequest): Promise<string>;
}

export interface InvalidOutput {
  agent: string;
  attempt: number;
  raw: string;
  reason: string;
}

export interface ChatModelOptions {
  /** Corrections sent back after the first attempt (default 2, so 3 attempts in all). */
  maxRetries?: number;
  /** Default `max_tokens` when the request sets none (always sent: small models can ramble). */
  maxTokens?: number;
  temperature?: number;
  /** Called for every invalid output (tracing). */
  onInvalid?: (info: InvalidOutput) => void;
}

const ECHO_LIMIT = 400;

export function createChatModel(provider: StepProvider, opts: ChatModelOptions = {}): ChatModel {
  const defaultRetries = opts.maxRetries ?? 2;
  return {
    label: provider.label,
    async step(req: StepRequest): Promise<Step> {
      const schema = buildStepSchema(req.tools);
      const maxRetries = req.retries ?? defaultRetries;
      let messages: ChatMessage[] = req.messages;
      let lastReason = '';
      for (let attempt = 0; attempt <= maxRetries; attempt++) {
        if (req.signal?.aborted) throw abortError();
        let raw: string;
        try {
          raw = await provider.complete({
            ...req,
            messages,
            schema,
            attempt,
            maxTokens: req.maxTokens ?? opts.maxTokens ?? 256,
            temperature: req.temperature ?? opts.temperature ?? 0.3,
            onDelta: req.onStream ? (delta) => req.onStream!(delta, attempt) : undefined,
          });
        } catch (err) {
          if (isAbortError(err) || req.signal?.aborted) throw abortError();
          throw toModelError(err);
        }
        const checked = checkStep(raw, req.tools);
        if (checked.ok) return { ...checked.step, raw };
        lastReason = checked.reason;
        opts.onInvalid?.({ agent: req.agent, attempt, raw, reason: checked.reason });
        const echo = raw.length > ECHO_LIMIT ? `${raw.slice(0, ECHO_LIMIT)}…` : raw;
        messages = [
          ...messages,
          { role: 'assistant', content: echo },
          { role: 'user', content: correctionMessage(checked.reason, req.tools) },
        ];
      }
      throw modelError('model_invalid_output', `${req.agent}：尝试 ${maxRetries + 1} 次，最后一次：${lastReason}`);
    },
  };
}
