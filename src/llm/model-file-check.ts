/**
 * A model file checked at its address before it is used (src/core/llm/gguf-check.ts reads it): the
 * CPU engine checks a file it is about to download, and the settings check a new self-hosted
 * address before the working brain is let go.
 */
import { checkGguf } from '../core/llm/gguf-check.ts';
import { checkMlcFolder, checkWasmHead, mlcFileUrl } from '../core/llm/mlc-check.ts';
import { modelError } from './errors.ts';

/** How much of a model file is read to check it (its header and tensor table come first). */
const CHECK_BYTES = 32 << 20;

/**
 * A model file not yet on this device is checked before wllama downloads it: the address answers
 * (HTTP status named), and its first part reads as a whole GGUF of its size (not a web page, not
 * cut off). Only the first part is read; the rest of the answer is not downloaded here.
 */
export async function verifyModelFile(url: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Range: `bytes=0-${CHECK_BYTES - 1}` } });
  } catch (e) {
    throw modelError('model_download_failed', `连不上 ${url}：${(e as Error).message}`);
  }
  if (!res.ok) throw modelError('model_download_failed', `HTTP ${res.status}：${url}`);
  const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
  const length = Number(res.headers.get('content-length') ?? NaN);
  const size = range ? Number(range[1]) : res.status === 200 && Number.isFinite(length) ? length : Infinity;
  const reader = res.body?.getReader();
  const parts: Uint8Array[] = [];
  let got = 0;
  while (reader && got < CHECK_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
  }
  await reader?.cancel().catch(() => undefined);
  const head = new Uint8Array(got);
  let at = 0;
  for (const p of parts) {
    head.set(p, at);
    at += p.length;
  }
  const r = checkGguf(head, Number.isFinite(size) ? size : got < CHECK_BYTES ? got : Number.MAX_SAFE_INTEGER);
  if (!r.ok && r.reason !== 'need-more') throw modelError('model_file_bad', `${r.detail}：${url}`);
}

async function fetched(url: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw modelError('model_download_failed', `连不上 ${url}：${(e as Error).message}`);
  }
  if (!res.ok) throw modelError('model_download_failed', `HTTP ${res.status}：${url}`);
  return res;
}

/**
 * A self-hosted WebLLM model (its folder, and its library when given) checked at its address before
 * it is saved: the folder's config and weight list read as an MLC model's, the library as WebAssembly.
 * The weight shards themselves are not downloaded here.
 */
export async function verifyWebLlmModel(modelUrl: string, libUrl?: string): Promise<void> {
  const configUrl = mlcFileUrl(modelUrl, 'mlc-chat-config.json');
  const cacheUrl = mlcFileUrl(modelUrl, 'ndarray-cache.json');
  const [config, cache] = await Promise.all([fetched(configUrl).then((r) => r.text()), fetched(cacheUrl).then((r) => r.text())]);
  const folder = checkMlcFolder(config, cache);
  if (!folder.ok) throw modelError('model_file_bad', `${folder.detail}：${modelUrl}`);
  if (!libUrl) return;
  const res = await fetched(libUrl, { headers: { Range: 'bytes=0-63' } });
  const reader = res.body?.getReader();
  const first = reader ? await reader.read() : { value: new Uint8Array(await res.arrayBuffer()) };
  await reader?.cancel().catch(() => undefined);
  const lib = checkWasmHead(first.value ?? new Uint8Array());
  if (!lib.ok) throw modelError('model_file_bad', `${lib.detail}：${libUrl}`);
}
