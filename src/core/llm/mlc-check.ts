/**
 * Is this folder a WebLLM (MLC) model, and this file its WebAssembly library? Read before a
 * self-hosted WebLLM address is saved: the folder's `mlc-chat-config.json` names a conversation
 * template and a vocabulary, its `ndarray-cache.json` lists the weight shards (with their sizes),
 * and the library begins with the WebAssembly magic. A web page, a missing file or another kind of
 * file is named plainly. Pure: it reads the texts and bytes handed to it.
 */

export type MlcCheck = { ok: true; shards: number; bytes: number } | { ok: false; detail: string };

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
  if (looksLikeHtml(cacheText)) return { ok: false, detail: 'ndarray-cache.json 是一个网页（HTML），没有权重清单' };
  const cache = parse(cacheText) as { records?: Array<{ dataPath?: unknown; nbytes?: unknown }> } | undefined;
  const records = Array.isArray(cache?.records) ? cache.records : [];
  if (!records.length || records.some((r) => typeof r.dataPath !== 'string' || typeof r.nbytes !== 'number'))
    return { ok: false, detail: 'ndarray-cache.json 没有列出权重文件（dataPath 和 nbytes）' };
  return { ok: true, shards: records.length, bytes: records.reduce((n, r) => n + (r.nbytes as number), 0) };
}

/** The library's first bytes: WebAssembly begins with `\0asm`. */
export function checkWasmHead(head: Uint8Array): MlcCheck {
  if (head.length >= 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) return { ok: true, shards: 0, bytes: 0 };
  const text = new TextDecoder().decode(head.subarray(0, 64));
  return { ok: false, detail: looksLikeHtml(text) ? '模型库地址是一个网页（HTML），不是 .wasm 文件' : '模型库不是 WebAssembly（.wasm）文件' };
}
