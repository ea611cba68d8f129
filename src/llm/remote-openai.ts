/**
 * The remote provider: a small fetch client for an OpenAI-compatible `/v1/chat/completions`
 * (Ollama, llama.cpp server, LM Studio, vLLM, cloud APIs). Streams SSE (or Ollama's NDJSON), asks
 * for the step schema in the server's structured-output dialect (`mode`, structured-output.ts;
 * picked by dialect-probe.ts), aborts on cancel, times out, and turns HTTP and network failures
 * into catalogue errors. A home computer's server is prewarmed (remote-prewarm.ts).
 */
import type { ChatModelOptions, StepProvider } from './decide-step.ts';
import { abortError, httpError, modelError } from './errors.ts';
import { readSseData } from '../core/llm/sse.ts';
import { chatCompletionsUrl, endpointProblem } from '../core/llm/remote-endpoint.ts';
import { buildRequest, deltaFilter, stepText } from '../core/llm/structured-output.ts';
import { DEFAULT_MODE, type OutputMode } from '../core/llm/output-modes.ts';
import { DEFAULT_TURN_BUDGET, stepTimeouts } from '../core/arcade/turn-budget.ts';
import { remotePrewarm } from './remote-prewarm.ts';
import type { EngineTraits } from '../core/llm/types.ts';

export { chatCompletionsUrl, endpointProblem };

export interface RemoteConfig {
  /** e.g. `https://robot.local:8443/v1`, `http://localhost:11434` (…/v1 is added when missing). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Whole-request limit (default 60 s; none for a step in the background, StepRequest.background). */
  timeoutMs?: number;
  /** Adds `chat_template_kwargs.enable_thinking=false` and `reasoning_effort:"none"` (Qwen3 on llama.cpp/Ollama). */
  disableThinking?: boolean;
  /** The structured-output dialect (default `json_schema_strict`). */
  mode?: OutputMode;
  /** Reads the next request's start into a home computer's prompt cache ahead of it (remote-prewarm.ts; default on). */
  prewarm?: boolean;
  /** What the server's engine does with a prompt, when known (absent: DEFAULT_TRAITS). */
  traits?: EngineTraits;
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
  const mode = config.mode ?? DEFAULT_MODE;
  const prewarm = remotePrewarm(config, mode, doFetch);
  return {
    label: `远程接口：${config.model}`,
    ...(prewarm ? { prewarm } : {}),
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
      // A step in the background (no one waits for it) has no whole-request limit either: only its signal stops it.
      const unlimited = () => clearTimeout(timer);
      if (req.background?.aborted) unlimited();
      else req.background?.addEventListener('abort', unlimited, { once: true });
      const stopped = () => (timedOut ? modelError('model_remote_timeout', `${timeoutMs / 1000} 秒`) : abortError());
      try {
        const call = buildRequest(mode, {
          baseUrl: config.baseUrl,
          model: config.model,
          messages: req.messages,
          schema: req.schema,
          maxTokens: req.maxTokens,
          temperature: req.temperature,
          disableThinking: config.disableThinking,
        });
        let res: Response;
        try {
          res = await doFetch(call.url, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: call.stream === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
              ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}),
            },
            body: JSON.stringify(call.body),
            signal: ac.signal,
          });
        } catch (err) {
          if (ac.signal.aborted) throw stopped();
          throw modelError('model_remote_network', `${call.url}：${String(err)}`);
        }
        if (!res.ok) {
          const text = await res.text().catch(() => '');
          let detail = text.slice(0, 300);
          try {
            detail = errorText(JSON.parse(text)) ?? detail;
          } catch {
            /* not JSON: keep the text */
          }
          throw httpError(res.status, detail);
        }
        try {
          const onDelta = deltaFilter(mode, req.onDelta);
          const text = call.stream === 'ndjson' ? await readNdjson(res, onDelta) : await readCompletion(res, onDelta);
          return stepText(mode, text);
        } catch (err) {
          if (ac.signal.aborted) throw stopped();
          throw err;
        }
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        req.background?.removeEventListener('abort', unlimited);
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

/** Ollama's native stream: one JSON object a line, `message.content` pieces, `done: true` at the end. */
async function readNdjson(res: Response, onDelta?: (delta: string) => void): Promise<string> {
  if (!res.body) throw modelError('model_remote_bad_stream', '回答没有内容');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  const line = (l: string): boolean => {
    if (!l.trim()) return false;
    let chunk: { message?: { content?: string }; done?: boolean; error?: unknown };
    try {
      chunk = JSON.parse(l);
    } catch {
      throw modelError('model_remote_bad_stream', `无法解析的数据：${l.slice(0, 80)}`);
    }
    const err = errorText(chunk);
    if (err) throw modelError('model_remote_http', err);
    const piece = chunk.message?.content;
    if (typeof piece === 'string' && piece) {
      text += piece;
      onDelta?.(piece);
    }
    return chunk.done === true;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = done ? '' : (lines.pop() ?? '');
      for (const l of lines) if (line(l)) return text;
      if (done) return text;
    }
  } catch (err) {
    if (err instanceof Error && (err.name === 'ModelError' || err.name === 'AbortError')) throw err;
    throw modelError('model_remote_network', `读取回答时断开：${String(err)}`);
  } finally {
    reader.releaseLock();
  }
}

/** A remote step's options: stalls noticed per attempt (first piece, silence, whole attempt; ./step-retry.ts), sized to the default turn budget unless `opts` say otherwise. */
export function remoteStepOptions<T extends ChatModelOptions>(opts?: T): T {
  return { timeouts: () => stepTimeouts(DEFAULT_TURN_BUDGET), ...opts } as T;
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
  if (!res.ok) throw httpError(res.status);
  const body = (await res.json().catch(() => ({}))) as { data?: Array<{ id?: string }> };
  return (body.data ?? []).map((m) => m.id ?? '').filter(Boolean);
}
