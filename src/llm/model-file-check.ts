/**
 * A model file checked at its address before it is used (src/core/llm/gguf-check.ts reads it): the
 * CPU engine checks a file it is about to download, and the settings check a new self-hosted
 * address before the working brain is let go. A WebLLM model's folder is checked shard by shard
 * (src/core/llm/mlc-check.ts): at its address before it is saved, and in the download cache,
 * whole, before it is called ready.
 */
import { checkGguf } from '../core/llm/gguf-check.ts';
import { checkMlcFolder, checkShard, checkWeightList, checkWasmHead, mlcFileUrl, OLD_WEIGHT_MANIFEST, WEIGHT_MANIFEST, type ShardFacts, type ShardRecord } from '../core/llm/mlc-check.ts';
import { Md5, md5Hex } from '../core/llm/md5.ts';
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

/** Where WebLLM fetches a model's files: its own address, or the prebuilt model's (mlc-ai on Hugging Face). */
export function webLlmModelUrl(modelId: string, modelUrl?: string): string {
  return mlcFileUrl(modelUrl || `https://huggingface.co/mlc-ai/${modelId}`, '');
}

/** The folder's weight manifest: WebLLM's file, or a plain word that only the old one is there. */
async function weightList(folderUrl: string, get: (url: string) => Promise<Response | undefined>): Promise<Response> {
  const url = `${folderUrl}${WEIGHT_MANIFEST}`;
  const res = await get(url).catch(() => undefined);
  if (res?.ok) return res;
  const old = await get(`${folderUrl}${OLD_WEIGHT_MANIFEST}`).catch(() => undefined);
  if (old?.ok) throw modelError('model_file_bad', `只有旧的 ${OLD_WEIGHT_MANIFEST}，这个版本的 WebLLM 要 ${WEIGHT_MANIFEST}：${folderUrl}`);
  throw modelError('model_download_failed', res ? `HTTP ${res.status}：${url}` : `连不上 ${url}`);
}

/**
 * Reads a shard's answer: its first bytes, and its size (the body read to the end when `whole`, with
 * its MD5; else the size the server declared, after the first bytes).
 */
async function shardFacts(res: Response, whole: boolean): Promise<ShardFacts> {
  const reader = res.body?.getReader();
  if (!reader) {
    const all = new Uint8Array(await res.arrayBuffer());
    return { head: all.subarray(0, 64), size: all.length, ...(whole ? { md5: md5Hex(all) } : {}) };
  }
  const md5 = new Md5();
  let head: Uint8Array = new Uint8Array(0);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (head.length < 64) head = concat(head, value.subarray(0, 64 - head.length));
    size += value.length;
    if (!whole) break;
    md5.update(value);
  }
  if (!whole) {
    await reader.cancel().catch(() => undefined);
    const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
    const length = Number(res.headers.get('content-length') ?? NaN);
    return { head, size: range ? Number(range[1]) : Number.isFinite(length) ? length : size };
  }
  return { head, size, md5: md5.hex() };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Each shard the manifest lists, from `get` (the network, or the download cache: undefined when it
 * is not there), against its record: there, not a web page, its size, and when `whole` its MD5
 * where the manifest gives one. The first that fails is named (the file, and what is wrong).
 */
export async function verifyShards(folderUrl: string, records: ShardRecord[], get: (url: string, whole: boolean) => Promise<Response | undefined>, whole: boolean): Promise<void> {
  for (const record of records) {
    const url = new URL(record.dataPath, folderUrl).href;
    let res: Response | undefined;
    try {
      res = await get(url, whole);
    } catch (e) {
      throw modelError('model_download_failed', `连不上 ${url}：${(e as Error).message}`);
    }
    if (!res) throw modelError('model_file_bad', `权重文件 ${record.dataPath} 不在下载里：${url}`);
    if (!res.ok && res.status !== 206) throw modelError('model_download_failed', `HTTP ${res.status}：${url}`);
    const problem = checkShard(record, await shardFacts(res, whole));
    if (problem) throw modelError('model_file_bad', `${problem}：${url}`);
  }
}

/**
 * A self-hosted WebLLM model (its folder, and its library when given) checked at its address before
 * it is saved: the folder's config and weight list read as an MLC model's, every shard the list
 * names answered with its size and is not a web page (its first bytes read; the whole shard is read,
 * and its MD5 checked, once it is downloaded: `verifyDownloadedWebLlm`), the library as WebAssembly.
 */
export async function verifyWebLlmModel(modelUrl: string, libUrl?: string): Promise<void> {
  const folder = mlcFileUrl(modelUrl, '');
  const [config, cache] = await Promise.all([
    fetched(`${folder}mlc-chat-config.json`).then((r) => r.text()),
    weightList(folder, (u) => fetch(u)).then((r) => r.text()),
  ]);
  const list = checkMlcFolder(config, cache);
  if (!list.ok) throw modelError('model_file_bad', `${list.detail}：${modelUrl}`);
  await verifyShards(folder, list.records, (u) => fetch(u, { headers: { Range: 'bytes=0-63' } }), false);
  if (!libUrl) return;
  const res = await fetched(libUrl, { headers: { Range: 'bytes=0-63' } });
  const reader = res.body?.getReader();
  const first = reader ? await reader.read() : { value: new Uint8Array(await res.arrayBuffer()) };
  await reader?.cancel().catch(() => undefined);
  const lib = checkWasmHead(first.value ?? new Uint8Array());
  if (!lib.ok) throw modelError('model_file_bad', `${lib.detail}：${libUrl}`);
}

/** The Cache Storage WebLLM keeps a model's weights in (its `webllm/model` scope). */
export const WEBLLM_MODEL_CACHE = 'webllm/model';

/**
 * A WebLLM model just downloaded, checked in WebLLM's cache before it is called ready: its weight
 * manifest there, and every shard it lists there, whole, of its size and with its MD5 where the
 * manifest gives one. `open` is the cache (Cache Storage in the page).
 */
export async function verifyDownloadedWebLlm(folderUrl: string, open: () => Promise<Pick<Cache, 'match'>> = () => caches.open(WEBLLM_MODEL_CACHE)): Promise<void> {
  const cache = await open();
  const manifest = await cache.match(`${folderUrl}${WEIGHT_MANIFEST}`);
  if (!manifest) throw modelError('model_file_bad', `下载里没有权重清单 ${WEIGHT_MANIFEST}：${folderUrl}`);
  const list = checkWeightList(await manifest.text());
  if (!list.ok) throw modelError('model_file_bad', `${list.detail}：${folderUrl}`);
  await verifyShards(folderUrl, list.records, (u) => cache.match(u), true);
}
