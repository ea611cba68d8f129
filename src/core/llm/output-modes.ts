/**
 * The structured-output modes a remote server may speak (what each sends: structured-output.ts),
 * in the probe's order, with what settings says about each. Tiny and free of the request code, so
 * the settings record and screen can name a mode without loading the remote client.
 */
export type OutputMode =
  | 'json_schema_strict'
  | 'json_schema_strict_object'
  | 'json_schema'
  | 'ollama_format'
  | 'gbnf'
  | 'json_object'
  | 'text';

/** The probe's order: the first mode a server accepts (and honours) is used. */
export const MODE_ORDER: readonly OutputMode[] = [
  'json_schema_strict',
  'json_schema_strict_object',
  'json_schema',
  'ollama_format',
  'gbnf',
  'json_object',
  'text',
];

export const DEFAULT_MODE: OutputMode = 'json_schema_strict';

/** What settings shows for each mode (plain Chinese; `enforced`: the server itself keeps to the schema). */
export const MODE_INFO: Record<OutputMode, { label: string; note: string; enforced: boolean }> = {
  json_schema_strict: { label: 'JSON Schema（严格）', note: '服务器按当前能用的动作约束输出，最可靠。', enforced: true },
  json_schema_strict_object: {
    label: 'JSON Schema（严格，OpenAI 兼容写法）',
    note: '服务器只接受 OpenAI 规定的严格写法：动作和参数分开约束，回答后再检查一次。',
    enforced: true,
  },
  json_schema: { label: 'JSON Schema（非严格）', note: '服务器尽量按结构输出，回答后检查，不对就让模型重写。', enforced: false },
  ollama_format: { label: 'Ollama 原生 format（/api/chat）', note: 'Ollama 的原生接口按结构约束输出，可靠。', enforced: true },
  gbnf: { label: 'llama.cpp 语法（GBNF）', note: 'llama.cpp 按语法约束输出，可靠。', enforced: true },
  json_object: {
    label: 'JSON 模式 + 提示里的格式说明',
    note: '服务器只保证输出是 JSON，动作对不对靠检查和重写，小模型容易出错、更慢。',
    enforced: false,
  },
  text: {
    label: '纯文字 + 提取 JSON',
    note: '服务器不支持任何结构化输出，只能从文字里找出 JSON，最不可靠。',
    enforced: false,
  },
};

export function isOutputMode(v: unknown): v is OutputMode {
  return typeof v === 'string' && (MODE_ORDER as readonly string[]).includes(v);
}

