/**
 * The remote provider: a small fetch client for an OpenAI-compatible `/v1/chat/completions`
 * (Ollama, llama.cpp server, vLLM, cloud APIs). Streams SSE, sends the step schema as
 * `response_format: json_schema` (the same contract as the local grammar), aborts on cancel,
 * times out, and turns HTTP and network failures into catalogue errors.
 */
import { createChatModel, type ChatModelOptions, type StepProvider } from './decide-step.ts';
import { abortError, modelError } from './errors.ts';
import { readSseData } from '../core/llm/sse.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { chatCompletionsUrl, endpointProblem } from './remote-endpoint.ts';
import { DEFAULT_TURN_BUDGET, stepTimeouts } from '../core/arcade/turn-budget.ts';

export { chatCompletionsUrl, endpointProblem };

export interface RemoteConfig {
  /** e.g. `https://robot.local:8443/v1`, `http://localhost:11434` (…/v1 is added when missing). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Whole-request limit (default 60 s). */
  timeoutMs?: number;
  /** Adds `chat_template_kwargs.enable_thinking=false` and `reasoning_effort:"none"` (Qwen3 on llama.cpp/Ollama). */
  disableThinking?: boolean;
}

export interface RemoteDeps {
  fetch?: typeof fetch;
  /** The page's URL, for the mixed-content check (default `location.href` when there is one). */
  pageUrl?: string;
}

function defaultPageUrl(): string | undefined {
  return typeof location !== 'undefined' ? location.href : undefined;
}

interface ChunkChoice {
  delta?: { content?: string | null };
  message?: { content?: string | null };
  finish_reason?: string | null;
}

function errorText(body: unknown): string | undefined {
  const e = (body as { error?: unknown })?.error;
  if (!e) return undefined;
  return typeof e === 'string' ? e : ((e as { message?: string }).message ?? JSON.stringify(e));
}

export function createRemoteProvider(config: RemoteConfig, deps: RemoteDeps = {}): StepProvider {
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const pageUrl = deps.pageUrl ?? defaultPageUrl();
  const timeoutMs = config.timeoutMs ?? 60_000;
  return {
    label: `远程接口：${config.model}`,
    async complete(req) {
      const problem = endpointProblem(config.baseUrl, pageUrl);
      if (problem) throw modelError(problem.code, problem.detail);
      if (!config.model.trim()) throw modelError('model_bad_config', '没有填写模型名称');
      const ac = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ac.abort();
      }, timeoutMs);
      const onAbort = () => ac.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const stopped = () => (timedOut ? modelError('model_remote_timeout', `${timeoutMs / 1000} 秒`) : abortError());
      try {
        const body: Record<string, unknown> = {
          model: config.model,
          messages: req.messages,
          stream: true,
          temperature: req.temperature,
          top_p: 0.9,
          max_tokens: req.maxTokens,
          response_format: { type: 'json_schema', json_schema: { name: 'step', schema: req.schema, strict: true } },
        };
        if (config.disableThinking) {
          body.chat_template_kwargs = { enable_thinking: false };
          body.reasoning_effort = 'none';
        }
        let res: Response;
        try {
          res = await doFetch(chatCompletionsUrl(config.baseUrl), {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: 'text/event-stream',
              ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}),
            },
            body: JSON.stringify(body),
            signal: ac.signal,
          });
        } catch (err) {
          if (ac.signal.aborted) throw stopped();
          throw modelError('model_remote_network', `${chatCompletionsUrl(config.baseUrl)}：${String(err)}`);
        }
        if (!res.ok) {
          const text = await res.text().catch(() => '');
          let detail = text.slice(0, 300);
          try {
            detail = errorText(JSON.parse(text)) ?? detail;
          } catch {
            /* not JSON: keep the text */
          }
          const code = res.status === 401 || res.status === 403 ? 'model_remote_auth' : 'model_remote_http';
          throw modelError(code, `HTTP ${res.status}${detail ? `：${detail}` : ''}`);
        }
        try {
          return await readCompletion(res, req.onDelta);
        } catch (err) {
          if (ac.signal.aborted) throw stopped();
          throw err;
        }
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** The assistant text of a streamed (SSE) or, if the server ignored `stream`, a plain JSON answer. */
async function readCompletion(res: Response, onDelta?: (delta: string) => void): Promise<string> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const body = (await res.json()) as { choices?: ChunkChoice[] };
    const err = errorText(body);
    if (err) throw modelError('model_remote_http', err);
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw modelError('model_remote_bad_stream', '回答里没有 choices[0].message.content');
    onDelta?.(content);
    return content;
  }
  if (!res.body) throw modelError('model_remote_bad_stream', '回答没有内容');
  let text = '';
  let sawChunk = false;
  try {
    for await (const data of readSseData(res.body)) {
      if (data.trim() === '[DONE]') break;
      let chunk: { choices?: ChunkChoice[]; error?: unknown };
      try {
        chunk = JSON.parse(data);
      } catch {
        throw modelError('model_remote_bad_stream', `无法解析的数据：${data.slice(0, 80)}`);
      }
      const err = errorText(chunk);
      if (err) throw modelError('model_remote_http', err);
      sawChunk = true;
      const choice = chunk.choices?.[0];
      const piece = choice?.delta?.content ?? choice?.message?.content;
      if (typeof piece === 'string' && piece) {
        text += piece;
        onDelta?.(piece);
      }
      if (choice?.finish_reason) break;
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'ModelError') throw err;
    if (err instanceof Error && err.name === 'AbortError') throw err;
    throw modelError('model_remote_network', `读取回答时断开：${String(err)}`);
  }
  if (!sawChunk) throw modelError('model_remote_bad_stream', '没有收到任何 data: 数据块');
  return text;
}

/** The remote model: stalls are noticed per attempt (first piece, silence, whole attempt; ./step-retry.ts) and transient failures asked again. */
export function createRemoteModel(config: RemoteConfig, opts?: ChatModelOptions, deps?: RemoteDeps): ChatModel {
  return createChatModel(createRemoteProvider(config, deps), { timeouts: () => stepTimeouts(DEFAULT_TURN_BUDGET), ...opts });
}

/** Settings' "测试连接": lists the server's models (GET …/v1/models); throws a ModelError. */
export async function listRemoteModels(config: RemoteConfig, deps: RemoteDeps = {}): Promise<string[]> {
  const problem = endpointProblem(config.baseUrl, deps.pageUrl ?? defaultPageUrl());
  if (problem) throw modelError(problem.code, problem.detail);
  const url = chatCompletionsUrl(config.baseUrl).replace(/\/chat\/completions$/, '/models');
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  let res: Response;
  try {
    res = await doFetch(url, {
      headers: config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {},
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
  } catch (err) {
    if ((err as Error)?.name === 'TimeoutError') throw modelError('model_remote_timeout', url);
    throw modelError('model_remote_network', `${url}：${String(err)}`);
  }
  if (!res.ok) throw modelError(res.status === 401 || res.status === 403 ? 'model_remote_auth' : 'model_remote_http', `HTTP ${res.status}`);
  const body = (await res.json().catch(() => ({}))) as { data?: Array<{ id?: string }> };
  return (body.data ?? []).map((m) => m.id ?? '').filter(Boolean);
}
