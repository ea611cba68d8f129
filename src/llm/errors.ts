/**
 * The model layer's errors (their entries: src/core/errors/llm.ts), and the mapping from the text of an error
 * (errors crossing the model worker arrive as strings: WebLLM's error classes do not survive postMessage) to a code.
 */
import { isErrorCode, type ErrorCode } from '../core/errors/catalogue.ts';
import { modelErrors } from '../core/errors/llm.ts';
import { ModelError } from '../core/llm/types.ts';

/** Builds a ModelError whose message is the catalogue's parent text (for the model layer's codes) plus the technical detail. */
export function modelError(code: ErrorCode, detail?: string, status?: number): ModelError {
  const parent = Object.hasOwn(modelErrors, code) ? modelErrors[code as keyof typeof modelErrors].parent : code;
  return new ModelError(code, detail ? `${parent}（${detail}）` : parent, status);
}

/** A server's HTTP error answer: a wrong key (401/403) or any other status, which the error keeps. */
export function httpError(status: number, detail?: string): ModelError {
  return modelError(status === 401 || status === 403 ? 'model_remote_auth' : 'model_remote_http', `HTTP ${status}${detail ? `：${detail}` : ''}`, status);
}

/**
 * Classifies an error's text (WebLLM errors cross the worker as strings) into a catalogue code.
 * `online` tells a failed fetch while offline (not cached) from a failed download.
 */
export function classifyModelErrorText(text: string, online = true): ErrorCode {
  const t = text.toLowerCase();
  if (t.includes('secure context') || t.includes('issecurecontext')) return 'model_insecure_context';
  if (
    t.includes('webgpu is not supported') ||
    t.includes('unable to find a compatible gpu') ||
    t.includes('webgpu not available') ||
    t.includes('no-adapter') ||
    t.includes('shader-f16') ||
    t.includes('shaderf16')
  )
    return 'model_no_webgpu';
  if (
    t.includes('device was lost') ||
    t.includes('device lost') ||
    t.includes('devicelost') ||
    t.includes('out of memory') ||
    t.includes('outofmemory') ||
    t.includes('cannot enlarge memory') ||
    t.includes('aborted(oom)') ||
    t.includes('failed to allocate') ||
    /\boom\b/.test(t)
  )
    return 'model_out_of_memory';
  if (t.includes('quota')) return 'model_storage_full';
  if (t.includes('kv_cache_full') || t.includes('context is full') || t.includes('exceeds the available context')) return 'model_context_full';
  if (t.includes('invalid url') || t.includes('cannot find model record') || t.includes('modelnotfound'))
    return 'model_bad_config';
  if (t.includes('model not loaded') || t.includes('modelnotloaded')) return 'model_not_loaded';
  if (
    t.includes("failed to execute 'add' on 'cache'") ||
    t.includes('failed to fetch') ||
    t.includes('networkerror') ||
    t.includes('network error') ||
    t.includes('request failed') ||
    t.includes('load failed')
  )
    return online ? 'model_download_failed' : 'model_offline_not_cached';
  return 'unknown';
}

/** Any thrown value → a ModelError with a catalogue code (keeps ModelErrors as they are). */
export function toModelError(err: unknown, online = true): ModelError {
  if (err instanceof ModelError) return err;
  const text = typeof err === 'string' ? err : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  // A ModelError serialised across a worker keeps its code as "ModelError[code]: …".
  const tagged = /ModelError\[([a-z_]+)\]/.exec(text);
  if (tagged) return modelError(isErrorCode(tagged[1]) ? tagged[1] : 'unknown', text.slice(tagged.index + tagged[0].length).replace(/^:\s*/, ''));
  const code = classifyModelErrorText(text, online);
  return code === 'unknown' ? new ModelError('unknown', text) : modelError(code, text);
}

export function isAbortError(err: unknown): boolean {
  return (
    (typeof err === 'object' && err !== null && (err as { name?: string }).name === 'AbortError') ||
    (typeof err === 'string' && err.includes('AbortError'))
  );
}

export function abortError(): Error {
  return new DOMException('这一步已取消', 'AbortError');
}
