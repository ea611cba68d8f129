/**
 * Is this folder a WebLLM (MLC) model, and this file its WebAssembly library? Read before a
 * self-hosted WebLLM address is saved: the folder's `mlc-chat-config.json` names a conversation
 * template and a vocabulary, its weight manifest (`tensor-cache.json`, the file WebLLM 0.2.86
 * reads; older MLC folders have `ndarray-cache.json`) lists the weight shards with their sizes and,
 * usually, an MD5 each, and the library begins with the WebAssembly magic. Each shard, fetched or
 * in the download cache, is then checked against its record (`checkShard`). A web page, a missing
 * file or another kind of file is named plainly. Pure: it reads the texts and bytes handed to it.
 */

/** The weight manifest WebLLM reads, and the older name MLC once gave it. */
export const WEIGHT_MANIFEST = 'tensor-cache.json';
export const OLD_WEIGHT_MANIFEST = 'ndarray-cache.json';

/** One weight shard as the manifest lists it. */
export interface ShardRecord {
  dataPath: string;
  nbytes: number;
  /** Lowercase hex, when the manifest gives one. */
  md5sum?: string;
}

export type MlcCheck = { ok: true; shards: number; bytes: number; records: ShardRecord[] } | { ok: false; detail: string };

/** WebLLM's own rule for a model address: a folder, and `resolve/main/` added unless the address has a `resolve/<branch>/`. */
export function mlcFileUrl(modelUrl: string, file: string): string {
  let base = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(base)) base += 'resolve/main/';
  return `${base}${file}`;
}

const looksLikeHtml = (text: string) => /^\s*</.test(text);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The folder's two JSON files, as text. */
export function checkMlcFolder(configText: string, cacheText: string): MlcCheck {
  if (looksLikeHtml(configText)) return { ok: false, detail: 'mlc-chat-config.json 是一个网页（HTML），这不是模型文件夹' };
  const config = parse(configText) as { conv_template?: unknown; vocab_size?: unknown; model_type?: unknown } | undefined;
  if (!config || typeof config !== 'object') return { ok: false, detail: 'mlc-chat-config.json 不是 JSON，这不是模型文件夹' };
  if (config.conv_template === undefined || (config.vocab_size === undefined && config.model_type === undefined))
    return { ok: false, detail: 'mlc-chat-config.json 里没有对话模板和词表大小，这不是 MLC 模型的配置' };
  return checkWeightList(cacheText);
}

/** The weight manifest, as text: the shards it lists. */
export function checkWeightList(cacheText: string): MlcCheck {
  if (looksLikeHtml(cacheText)) return { ok: false, detail: `${WEIGHT_MANIFEST} 是一个网页（HTML），没有权重清单` };
  const cache = parse(cacheText) as { records?: Array<{ dataPath?: unknown; nbytes?: unknown; md5sum?: unknown }> } | undefined;
  const listed = Array.isArray(cache?.records) ? cache.records : [];
  if (!listed.length || listed.some((r) => typeof r.dataPath !== 'string' || typeof r.nbytes !== 'number' || !Number.isSafeInteger(r.nbytes) || r.nbytes < 0))
    return { ok: false, detail: `${WEIGHT_MANIFEST} 没有列出权重文件（dataPath 和 nbytes）` };
  const records = listed.map((r) => ({
    dataPath: r.dataPath as string,
    nbytes: r.nbytes as number,
    ...(typeof r.md5sum === 'string' && /^[0-9a-f]{32}$/i.test(r.md5sum) ? { md5sum: r.md5sum.toLowerCase() } : {}),
  }));
  return { ok: true, shards: records.length, bytes: records.reduce((n, r) => n + r.nbytes, 0), records };
}

/** What a shard's first bytes, its size and (when read whole) its checksum say against its record. */
export interface ShardFacts {
  /** Its first bytes (at least a few). */
  head: Uint8Array;
  /** Its size: the whole body read, or the size the server declared. */
  size: number;
  /** MD5 of the whole shard, when it was read whole. */
  md5?: string;
}

/** Undefined when the shard matches its record; else what is wrong, in plain words with the file's name. */
export function checkShard(record: ShardRecord, facts: ShardFacts): string | undefined {
  const name = record.dataPath;
  if (/^\s*<(!doctype|html|head|body|\?xml|!--)/i.test(new TextDecoder().decode(facts.head.subarray(0, 64))))
    return `权重文件 ${name} 是一个网页（HTML），不是权重`;
  if (facts.size !== record.nbytes)
    return facts.size < record.nbytes ? `权重文件 ${name} 不完整：只有 ${facts.size} 字节，清单上是 ${record.nbytes} 字节` : `权重文件 ${name} 的大小不对：${facts.size} 字节，清单上是 ${record.nbytes} 字节`;
  if (facts.md5 !== undefined && record.md5sum !== undefined && facts.md5 !== record.md5sum) return `权重文件 ${name} 坏了：内容的校验值（MD5）和清单上的不一样`;
  return undefined;
}

/** The library's first bytes: WebAssembly begins with `\0asm`. */
export function checkWasmHead(head: Uint8Array): { ok: true } | { ok: false; detail: string } {
  if (head.length >= 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) return { ok: true };
  const text = new TextDecoder().decode(head.subarray(0, 64));
  return { ok: false, detail: looksLikeHtml(text) ? '模型库地址是一个网页（HTML），不是 .wasm 文件' : '模型库不是 WebAssembly（.wasm）文件' };
}
