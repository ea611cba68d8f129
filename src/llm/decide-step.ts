/**
 * One agent step: build the schema of the legal actions, ask a provider for JSON text under it,
 * check the text again, and on invalid output send the model a short correction and ask again,
 * a bounded number of times. Every provider (WebLLM, remote, scripted) goes through this.
 *
 * A transient failure (HTTP 5xx or 429, a cut stream, a network error, a stall: ./step-retry.ts)
 * is asked again after a short pause, once or twice, before anyone hears of it. Every attempt is
 * watched: the step's deadline (the turn's budget) always, and the per-attempt timeouts when the
 * model has them (a remote server: first piece, silence mid-answer, whole attempt); the first-piece
 * limit follows the prompt the server must still read at the pace it was seen to read
 * (src/core/llm/prefill-pace.ts), so a slow but steady cold prefill is waited for, not asked again
 * from the start, while a stall on a prompt the server holds is noticed as early as before. No attempt
 * starts that could not finish before the deadline. A step in the background (StepRequest.background:
 * a game step the colour window muted) is not watched from then on — no stall limit, no deadline:
 * only its signal stops it (the hub stops it for any other step) — and is not asked again after a
 * failure. Each try is a new `attempt` for the stream, so
 * a reply streamed again is not said twice.
 */
import { abortError, isAbortError, modelError, toModelError } from './errors.ts';
import { AttemptWatch, backoffBefore, isTransient, MIN_ATTEMPT_MS, pause, type RetryOptions } from './step-retry.ts';
import { buildStepSchema, checkStep, correctionMessage } from '../core/llm/step-schema.ts';
import { PrefillPace, promptText } from '../core/llm/prefill-pace.ts';
import { DEFAULT_TRAITS, type ChatMessage, type ChatModel, type EngineTraits, type JsonSchema, type Step, type StepRequest } from '../core/llm/types.ts';

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
  /** What its engine does with a prompt (absent: DEFAULT_TRAITS). */
  readonly traits?: EngineTraits;
  complete(req: CompletionRequest): Promise<string>;
  /** A prefix-caching engine reads these messages into its cache (ChatModel.prewarm). */
  prewarm?(messages: ChatMessage[], signal: AbortSignal): Promise<void>;
}

export interface InvalidOutput {
  agent: string;
  attempt: number;
  raw: string;
  reason: string;
}

export interface ChatModelOptions extends RetryOptions {
  /** Corrections sent back after the first attempt (default 2, so 3 attempts in all). */
  maxRetries?: number;
  /** Default `max_tokens` when the request sets none (always sent: small models can ramble). */
  maxTokens?: number;
  temperature?: number;
  /** Called for every invalid output (tracing). */
  onInvalid?: (info: InvalidOutput) => void;
  /** Called for every transient failure that is asked again (tracing). */
  onRetry?: (info: { agent: string; attempt: number; code: string; message: string }) => void;
  now?: () => number;
}

const ECHO_LIMIT = 400;

/**
 * One attempt's watch and the handler of its pieces. In the background (no one waits for the
 * words): no stall limits and no deadline. Otherwise the first piece is given the time the server
 * needs to read what it does not hold yet (at its pace; longer after tries that heard nothing), and
 * when it comes it measures the pace. A watched model needs every piece (a stall is silence);
 * otherwise only a streaming caller does.
 */
function watchAttempt(req: StepRequest, messages: ChatMessage[], attempt: number, o: { opts: ChatModelOptions; pace?: PrefillPace; silent: number; now: () => number }) {
  const { pace, now } = o;
  const base = req.background?.aborted ? undefined : o.opts.timeouts?.();
  const text = pace ? promptText(messages) : '';
  const uncached = pace?.uncached(text) ?? 0;
  const limits = base && pace ? pace.limits(base, uncached, o.silent) : base;
  const watch = new AttemptWatch(limits, req.deadline, req.signal, now, req.background);
  const sentAt = now();
  let first = true;
  const onDelta =
    req.onStream || pace
      ? (delta: string) => {
          if (first) pace?.firstPiece(text, uncached, now() - sentAt);
          first = false;
          watch.alive();
          req.onStream?.(delta, attempt);
        }
      : undefined;
  return { watch, onDelta, heard: () => !first };
}

export function createChatModel(provider: StepProvider, opts: ChatModelOptions = {}): ChatModel {
  const defaultRetries = opts.maxRetries ?? 2;
  const transientRetries = opts.transientRetries ?? 2;
  const now = opts.now ?? Date.now;
  // A model with stall limits (a remote server) learns how fast it reads a prompt (one pace per server).
  const pace = opts.timeouts ? new PrefillPace() : undefined;
  return {
    label: provider.label,
    traits: async () => provider.traits ?? DEFAULT_TRAITS,
    ...(provider.prewarm ? { prewarm: (_agent: string, messages: ChatMessage[], signal: AbortSignal) => provider.prewarm!(messages, signal).catch(() => undefined) } : {}),
    async step(req: StepRequest): Promise<Step> {
      const schema = buildStepSchema(req.tools);
      const maxRetries = req.retries ?? defaultRetries;
      let messages: ChatMessage[] = req.messages;
      let lastReason: string;
      let corrections = 0;
      let retried = 0;
      /** Tries of this step that got no first piece before their limit. */
      let silent = 0;
      /** Time left before the deadline (Infinity without one). */
      const left = () => (req.deadline === undefined ? Infinity : req.deadline - now());
      for (let attempt = 0; ; attempt++) {
        if (req.signal?.aborted) throw abortError();
        if (!req.background?.aborted && left() < MIN_ATTEMPT_MS) throw modelError('model_too_slow', `${req.agent}：这一轮的时间不够再问一次`);
        const { watch, onDelta, heard } = watchAttempt(req, messages, attempt, { opts, pace, silent, now });
        let raw: string;
        try {
          raw = await provider.complete({
            ...req,
            messages,
            schema,
            attempt,
            maxTokens: req.maxTokens ?? opts.maxTokens ?? 256,
            temperature: req.temperature ?? opts.temperature ?? 0.3,
            signal: watch.signal,
            onDelta,
          });
        } catch (err) {
          if (req.signal?.aborted) throw abortError();
          const e = watch.expired ?? (isAbortError(err) ? modelError('model_remote_timeout', String(err)) : toModelError(err));
          if (watch.expired && !heard()) silent++;
          const wait = backoffBefore(retried, opts);
          // In the background a failure is not asked again (a new try would read the prompt again from cold).
          if (isTransient(e) && !req.background?.aborted && retried < transientRetries && left() - wait >= MIN_ATTEMPT_MS) {
            retried++;
            opts.onRetry?.({ agent: req.agent, attempt, code: e.code, message: e.message });
            await pause(wait, req.signal);
            continue;
          }
          throw e;
        } finally {
          watch.dispose();
        }
        const checked = checkStep(raw, req.tools);
        if (checked.ok) return { ...checked.step, raw };
        lastReason = checked.reason;
        opts.onInvalid?.({ agent: req.agent, attempt, raw, reason: checked.reason });
        if (++corrections > maxRetries) break;
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
