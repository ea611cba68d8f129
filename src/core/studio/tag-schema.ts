/**
 * What a tag's value looks like, declared in the package manifest next to the tag's meaning: a
 * small JSON-schema subset with the labels a parent reads. One declaration serves four readers:
 * - the parent's form (改一改, the card form): fields, rows, labels, limits;
 * - the plain summary of a draft (`summary`, `list` templates);
 * - the checks: a helper's submit, a parent's edit, a hand-written deck (`valueProblems`);
 * - the helper's submit tool, as standard JSON schema (`toJsonSchema`).
 * Pure.
 */
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

/**
 * What is wrong with a value, in words a parent understands (「第 2 张缺少「答案」」); empty when
 * it is fine. Fields the schema does not name are allowed.
 */
export function valueProblems(s: FieldSchema, value: unknown, name = s.title ?? '内容'): string[] {
  const out: string[] = [];
  walk(s, value, `「${name}」`, out);
  return out;
}

function walk(s: FieldSchema, v: unknown, where: string, out: string[]): void {
  switch (s.type) {
    case 'object': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return void out.push(`${where}格式不对`);
      const o = v as Record<string, unknown>;
      for (const k of s.required ?? []) if (isBlank(o[k])) out.push(`${where}缺少${label(s.properties![k], k)}`);
      for (const [k, p] of Object.entries(s.properties ?? {})) if (!isBlank(o[k])) walk(p, o[k], `${where}的${label(p, k)}`, out);
      return;
    }
    case 'array': {
      if (!Array.isArray(v)) return void out.push(`${where}应该是一个列表`);
      const unit = s.unit ?? '项';
      if (s.minItems !== undefined && v.length < s.minItems) out.push(`${where}至少要 ${s.minItems} ${unit}（现在 ${v.length} ${unit}）`);
      if (s.maxItems !== undefined && v.length > s.maxItems) out.push(`${where}最多 ${s.maxItems} ${unit}（现在 ${v.length} ${unit}）`);
      if (s.items) v.forEach((x, i) => walk(s.items!, x, `${where}第 ${i + 1} ${unit}`, out));
      return;
    }
    case 'string': {
      if (typeof v !== 'string') return void out.push(`${where}应该是文字`);
      const n = Array.from(v.trim()).length;
      if (s.minLength !== undefined && n < s.minLength) out.push(`${where}太短了`);
      if (s.maxLength !== undefined && n > s.maxLength) out.push(`${where}太长了（最多 ${s.maxLength} 个字，现在 ${n} 个字）`);
      // Said aloud (every field a parent sees and is not a picked value): no marks without a sound.
      const marks = s.hidden || s.widget || s.enum ? [] : unsayable(v);
      if (marks.length) out.push(`${where}里有机器人念不出来的符号（${marks.join(' ')}），请换成文字`);
      if (s.enum && !s.enum.includes(v)) out.push(`${where}只能是：${(s.labels ?? s.enum).join('、')}`);
      return;
    }
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v) || (s.type === 'integer' && !Number.isInteger(v))) return void out.push(`${where}应该是${s.type === 'integer' ? '整数' : '数字'}`);
      if ((s.minimum !== undefined && v < s.minimum) || (s.maximum !== undefined && v > s.maximum))
        out.push(`${where}要在 ${s.minimum ?? '-∞'}～${s.maximum ?? '∞'} 之间`);
      return;
    }
    case 'boolean':
      if (typeof v !== 'boolean') out.push(`${where}应该是「是」或「否」`);
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
