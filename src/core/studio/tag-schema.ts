/**
 * What a tag's value looks like, declared in the package manifest next to the tag's meaning: a
 * small JSON-schema subset with the labels a parent reads. One declaration serves four readers:
 * - the parent's form (改一改, the card form): fields, rows, labels, limits;
 * - the plain summary of a draft (`summary`, `list` templates);
 * - the checks: a helper's submit, a parent's edit, a hand-written deck (`valueProblems`: ajv
 *   validates the value against the JSON schema below, the problems are worded for the parent);
 * - the helper's submit tool, as standard JSON schema (`toJsonSchema`).
 * Pure.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { joinList } from '../text/punctuation.ts';
import { unsayable } from '../text/speakable.ts';

export type FieldType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface FieldSchema {
  type: FieldType;
  /** The label a parent reads (「答案」, 「玩几轮」). */
  title?: string;
  /** A help line under the field. */
  description?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  items?: FieldSchema;
  minItems?: number;
  maxItems?: number;
  /** What one item of an array is counted in (「张」 cards, 「个」 actions). */
  unit?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: string[];
  /** The parent's words for the enum values, in the same order. */
  labels?: string[];
  /** `drawing`: one of the robot's drawings, by id. */
  widget?: 'drawing';
  /** Shown in the form but changed only by words (e.g. the shape of play). */
  readOnly?: boolean;
  /** Not shown in the form (ids). */
  hidden?: boolean;
  /** A helper's value must equal what the parent said, when they said it. */
  stated?: 'rounds' | 'age';
  /** The game's name in the arcade: it may not be taken already. */
  gameName?: boolean;
  /** An answer the child says (a card's answer or alias): the game's name may not be one. */
  answer?: boolean;
}

/** A declared tag: what it means and, optionally, how its value looks and reads. */
export interface TagDef {
  name: string;
  meaning: string;
  /** The parent's name for it (「玩法」, 「卡片」). */
  title: string;
  schema?: FieldSchema;
  /** One line for the parent, e.g. 「玩法：{说明}，一共 {轮数} 轮」 (see `fillTemplate`). */
  summary?: string;
  /** Items listed under the summary: `path` to an array (empty: the value itself), `item` template. */
  list?: { path: string; item: string };
  /** Plumbing: shown only under 技术细节, never in the parent's main view. */
  technical: boolean;
}

const TYPES: FieldType[] = ['object', 'array', 'string', 'integer', 'number', 'boolean'];
const KEYS = new Set([
  'type', 'title', 'description', 'properties', 'required', 'items', 'minItems', 'maxItems', 'unit', 'minimum', 'maximum',
  'minLength', 'maxLength', 'enum', 'labels', 'widget', 'readOnly', 'hidden', 'stated', 'gameName', 'answer',
]);

/** Reads a schema from the manifest's YAML; every problem goes to `err`. */
export function parseFieldSchema(raw: unknown, where: string, err: (m: string) => void): FieldSchema | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    err(`${where}: schema 必须是映射`);
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!KEYS.has(k)) err(`${where}: schema 里不认识的字段「${k}」`);
  if (!TYPES.includes(r.type as FieldType)) {
    err(`${where}: schema 的 type 必须是 ${TYPES.join('、')} 之一`);
    return undefined;
  }
  const s: FieldSchema = { type: r.type as FieldType };
  for (const k of ['title', 'description', 'unit'] as const) if (typeof r[k] === 'string') s[k] = r[k] as string;
  for (const k of ['minItems', 'maxItems', 'minimum', 'maximum', 'minLength', 'maxLength'] as const) {
    if (r[k] === undefined) continue;
    if (typeof r[k] !== 'number') err(`${where}: ${k} 必须是数字`);
    else s[k] = r[k] as number;
  }
  for (const k of ['readOnly', 'hidden', 'gameName', 'answer'] as const) if (r[k] === true) s[k] = true;
  if (r.widget !== undefined) {
    if (r.widget !== 'drawing') err(`${where}: widget 只能是 drawing`);
    else s.widget = 'drawing';
  }
  if (r.stated !== undefined) {
    if (r.stated !== 'rounds' && r.stated !== 'age') err(`${where}: stated 只能是 rounds 或 age`);
    else s.stated = r.stated;
  }
  if (r.enum !== undefined) {
    if (!Array.isArray(r.enum) || !r.enum.every((x) => typeof x === 'string')) err(`${where}: enum 必须是字符串列表`);
    else s.enum = r.enum as string[];
  }
  if (r.labels !== undefined) {
    if (!Array.isArray(r.labels) || r.labels.length !== (s.enum?.length ?? -1)) err(`${where}: labels 必须和 enum 一一对应`);
    else s.labels = (r.labels as unknown[]).map(String);
  }
  if (s.type === 'object') {
    s.properties = {};
    const props = r.properties;
    if (props && typeof props === 'object' && !Array.isArray(props))
      for (const [k, v] of Object.entries(props as Record<string, unknown>)) {
        const p = parseFieldSchema(v, `${where}.${k}`, err);
        if (p) s.properties[k] = p;
      }
    else err(`${where}: object 需要 properties`);
    if (r.required !== undefined) {
      if (!Array.isArray(r.required) || !r.required.every((x) => typeof x === 'string' && x in (s.properties ?? {}))) err(`${where}: required 只能列出 properties 里的字段`);
      else s.required = r.required as string[];
    }
  }
  if (s.type === 'array') {
    const items = parseFieldSchema(r.items, `${where}[]`, err);
    if (items) s.items = items;
  }
  return s;
}

/** The standard JSON schema of a value (for tool parameters): the parent-facing extras dropped. */
export function toJsonSchema(s: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { type: s.type };
  for (const k of ['title', 'description', 'minItems', 'maxItems', 'minimum', 'maximum', 'minLength', 'maxLength', 'enum', 'required'] as const)
    if (s[k] !== undefined) out[k] = s[k];
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toJsonSchema(v)]));
  if (s.items) out.items = toJsonSchema(s.items);
  return out;
}

const label = (s: FieldSchema, key: string) => `「${s.title ?? key}」`;
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && v.length === 0);

// Values are validated by ajv against the JSON schema above (`toJsonSchema`), compiled once per schema.
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
function validatorFor(s: FieldSchema): ValidateFunction {
  const schema = toJsonSchema(s);
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = ajv.compile(schema)));
  return v;
}

/**
 * The value as the parent means it: a blank field (empty text, an empty list) is a field not given,
 * and a text's length is counted without the spaces around it.
 */
function asMeant(s: FieldSchema | undefined, v: unknown): unknown {
  if (!s) return v;
  if (s.type === 'object' && v && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => !isBlank(x)).map(([k, x]) => [k, asMeant(s.properties?.[k], x)]));
  if (s.type === 'array' && Array.isArray(v)) return v.map((x) => asMeant(s.items, x));
  if (s.type === 'string' && typeof v === 'string' && !s.enum) return v.trim();
  return v;
}

const TYPE_WORDS: Record<FieldType, string> = { object: '格式不对', array: '应该是一个列表', string: '应该是文字', integer: '应该是整数', number: '应该是数字', boolean: '应该是「是」或「否」' };
const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * What is wrong with a value, in words a parent understands (「第 2 张缺少「答案」」); empty when
 * it is fine. Fields the schema does not name are allowed. ajv decides what is wrong; the
 * problems are worded field by field, in the schema's order.
 */
export function valueProblems(s: FieldSchema, value: unknown, name = s.title ?? '内容'): string[] {
  const meant = asMeant(s, value);
  const validate = validatorFor(s);
  const errors = new Map<string, ErrorObject[]>();
  if (!validate(meant)) for (const e of validate.errors ?? []) errors.set(e.instancePath, [...(errors.get(e.instancePath) ?? []), e]);
  const out: string[] = [];
  words(s, meant, value, '', `「${name}」`, errors, out);
  return out;
}

/** The problems of one field (ajv's errors at `path`), then of the fields inside it. `raw` is the value as given. */
function words(s: FieldSchema, v: unknown, raw: unknown, path: string, where: string, errors: Map<string, ErrorObject[]>, out: string[]): void {
  const here = errors.get(path) ?? [];
  const has = (keyword: string) => here.find((e) => e.keyword === keyword);
  if (has('type')) return void out.push(`${where}${TYPE_WORDS[s.type]}`);
  switch (s.type) {
    case 'object': {
      const o = v as Record<string, unknown>;
      for (const k of s.required ?? []) if (here.some((e) => e.keyword === 'required' && (e.params as { missingProperty: string }).missingProperty === k)) out.push(`${where}缺少${label(s.properties![k], k)}`);
      for (const [k, p] of Object.entries(s.properties ?? {})) if (k in o) words(p, o[k], (raw as Record<string, unknown>)[k], pointer(path, k), `${where}的${label(p, k)}`, errors, out);
      return;
    }
    case 'array': {
      const a = v as unknown[];
      const unit = s.unit ?? '项';
      if (has('minItems')) out.push(`${where}至少要 ${s.minItems} ${unit}（现在 ${a.length} ${unit}）`);
      if (has('maxItems')) out.push(`${where}最多 ${s.maxItems} ${unit}（现在 ${a.length} ${unit}）`);
      if (s.items) a.forEach((x, i) => words(s.items!, x, (raw as unknown[])[i], pointer(path, i), `${where}第 ${i + 1} ${unit}`, errors, out));
      return;
    }
    case 'string': {
      if (has('minLength')) out.push(`${where}太短了`);
      if (has('maxLength')) out.push(`${where}太长了（最多 ${s.maxLength} 个字，现在 ${Array.from(v as string).length} 个字）`);
      // Said aloud (every field a parent sees and is not a picked value): no marks without a sound.
      const marks = s.hidden || s.widget || s.enum ? [] : unsayable(raw as string);
      if (marks.length) out.push(`${where}里有机器人念不出来的符号（${marks.join(' ')}），请换成文字`);
      if (has('enum')) out.push(`${where}只能是：${(s.labels ?? s.enum ?? []).join('、')}`);
      return;
    }
    case 'integer':
    case 'number':
      if (has('minimum') || has('maximum')) out.push(`${where}要在 ${s.minimum ?? '-∞'}～${s.maximum ?? '∞'} 之间`);
      return;
    case 'boolean':
      return;
  }
}

/** The value at a dotted path; over an array, the path continues into every item. */
function valueAt(value: unknown, path: string): unknown {
  if (!path) return value;
  let cur: unknown = value;
  for (const key of path.split('.')) {
    if (Array.isArray(cur)) cur = cur.map((x) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[key] : undefined));
    else if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[key];
    else return undefined;
  }
  return cur;
}

function show(v: unknown, sep = '、'): string {
  if (v === undefined || v === null) return '';
  // Items keep no trailing comma of their own: 「没关系，」「差一点点，」 read 「没关系、差一点点」.
  if (Array.isArray(v)) return joinList(v.map((x) => show(x, sep)), sep);
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'object') return '';
  return String(v);
}

/**
 * Fills a template: `{path}` the value (lists joined with 、), `{path|sep}` joined with sep,
 * `{path#}` how many items, `{path?words}` the words when the value is truthy (non-empty).
 */
export function fillTemplate(template: string, value: unknown): string {
  return template.replace(/\{([^{}?|#]*)(#|\|[^{}]*|\?[^{}]*)?\}/g, (_m, path: string, mod: string | undefined) => {
    const v = valueAt(value, path.trim());
    if (mod === '#') return String(Array.isArray(v) ? v.length : 0);
    if (mod?.startsWith('?')) return !isBlank(v) && v !== false ? mod.slice(1) : '';
    if (mod?.startsWith('|')) return show(v, mod.slice(1));
    return show(v);
  });
}

/** The plain summary of a tag's value, and its listed items, for the parent. */
export function summarize(def: TagDef, value: unknown): { text: string; items: string[] } {
  const text = def.summary ? fillTemplate(def.summary, value) : typeof value === 'string' ? value : '';
  const listed = def.list ? valueAt(value, def.list.path) : undefined;
  const items = Array.isArray(listed) ? listed.map((x) => fillTemplate(def.list!.item, x)) : [];
  return { text, items };
}

/**
 * Rows of a list whose items have a (hidden) `id` field get one when they have none — a card the
 * parent writes or dictates has no id, and run skills find the card on the table by it. Existing
 * ids are kept; new ones do not clash with them.
 */
export function withIds(s: FieldSchema | undefined, value: unknown): unknown {
  if (s?.type !== 'array' || !Array.isArray(value) || !s.items?.properties?.id) return value;
  const used = new Set(value.map((v) => (v && typeof v === 'object' ? (v as { id?: unknown }).id : undefined)).filter((id) => typeof id === 'string' && id));
  let n = 0;
  const next = () => {
    let id: string;
    do id = `c${++n}`;
    while (used.has(id));
    used.add(id);
    return id;
  };
  return value.map((v) => (v && typeof v === 'object' && !(typeof (v as { id?: unknown }).id === 'string' && (v as { id: string }).id) ? { id: next(), ...(v as object) } : v));
}

/** The parent's word for an enum value. */
export function enumLabel(s: FieldSchema, v: string): string {
  const i = s.enum?.indexOf(v) ?? -1;
  return i >= 0 && s.labels ? s.labels[i] : v;
}
