/**
 * A prewarm for the home computer's brain (ChatModel.prewarm): the start of the next request is
 * sent as a chat completion that asks for one token (`max_tokens` 1, not streamed, temperature 0,
 * no output schema), and the answer is read to its end and dropped. What the server does with it:
 * - llama.cpp's llama-server (and LM Studio, which runs llama.cpp) keeps each slot's last prompt
 *   and reads a new one only past the longest common prefix (`cache_prompt`, on by default in its
 *   current builds; not sent, as the steps do not send it: a build with it off reuses nothing for
 *   them either); the next request goes to the slot whose prompt is most like it, so it finds
 *   these messages read.
 * - Ollama's runner keeps the prompt of each of its parallel slots the same way (prefix reuse).
 * - vLLM's automatic prefix caching keeps the prompt's blocks.
 * The step's messages are sent as the step sends them (the same dialect's address and thinking
 * switch), so the prompt the server renders is the step's up to its last message. Not in the
 * dialects that put the step's schema into the system message (`json_object`, `text`): there the
 * next step's prompt differs from its first message on. Only a home computer is prewarmed
 * (isHomeEndpoint: loopback, private ranges, `.local`): a public cloud API bills every request and
 * caches prompts by itself. Stopped by `signal` (the hub aborts it when any step comes: the server
 * sees the connection closed and drops the work). Never rejects, and nothing of it reaches the
 * child or the brain's status: a failure is the prewarm not done.
 */
import type { ChatMessage } from '../core/llm/types.ts';
import type { OutputMode } from '../core/llm/output-modes.ts';
import { chatCompletionsUrl, isHomeEndpoint } from '../core/llm/remote-endpoint.ts';
import { ollamaChatUrl } from '../core/llm/structured-output.ts';

/** What a prewarm needs of the remote settings (RemoteConfig's fields of the same names). */
export interface RemotePrewarmConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  disableThinking?: boolean;
  /** Off: nothing is sent (default on). */
  prewarm?: boolean;
}

/** The request a prewarm sends in `mode`: the step's address and messages, one token asked for. */
export function prewarmRequest(mode: OutputMode, config: RemotePrewarmConfig, messages: ChatMessage[]): { url: string; body: Record<string, unknown> } {
  if (mode === 'ollama_format')
    return {
      url: ollamaChatUrl(config.baseUrl),
      body: { model: config.model, messages, stream: false, options: { temperature: 0, num_predict: 1 }, ...(config.disableThinking ? { think: false } : {}) },
    };
  return {
    url: chatCompletionsUrl(config.baseUrl),
    body: {
      model: config.model,
      messages,
      stream: false,
      max_tokens: 1,
      temperature: 0,
      ...(config.disableThinking ? { chat_template_kwargs: { enable_thinking: false }, reasoning_effort: 'none' } : {}),
    },
  };
}

/** The provider's prewarm for `config` in `mode`, or undefined when this server is not prewarmed. */
export function remotePrewarm(
  config: RemotePrewarmConfig,
  mode: OutputMode,
  doFetch: typeof fetch,
): ((messages: ChatMessage[], signal: AbortSignal) => Promise<void>) | undefined {
  if (config.prewarm === false || mode === 'json_object' || mode === 'text' || !isHomeEndpoint(config.baseUrl) || !config.model.trim()) return undefined;
  return async (messages, signal) => {
    if (signal.aborted || !messages.length) return;
    const { url, body } = prewarmRequest(mode, config, messages);
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal,
      });
      // Read to the end: a server may stop the work when the connection closes early.
      await res.arrayBuffer();
    } catch {
      /* not warmed: the next step reads the prompt itself */
    }
  };
}
