/**
 * Step schema → GBNF, the grammar format of llama.cpp (the CPU engine in the browser and a
 * llama.cpp server's `grammar` field). Covers the JSON Schema the step schemas use: anyOf/oneOf,
 * const/enum, objects with ordered properties (required and optional), strings with length
 * bounds, integers (small ranges enumerated exactly), numbers, booleans, null, arrays with item
 * bounds. Whitespace between tokens is bounded (a small model must not pad until `max_tokens`),
 * and unbounded repetitions are capped so that random or weak models still end. Bounded
 * repetitions are written out as nested optionals, which every llama.cpp grammar parser accepts
 * (`{m,n}` came later). Anything else falls back to any JSON value; the step check after decoding
 * still applies to everything.
 */
import type { JsonSchema } from './types.ts';

export interface GbnfOptions {
  /** Whitespace characters allowed between JSON tokens (default 2). */
  maxWhitespace?: number;
  /** Characters in a string without maxLength (default 200). */
  maxStringChars?: number;
  /** Items in an array without maxItems (default 16). */
  maxArrayItems?: number;
}

/** Integer ranges up to this many values are enumerated, so the grammar itself enforces them. */
const MAX_ENUMERATED_INTEGERS = 256;

/** A GBNF string literal for `text`. */
export function gbnfLiteral(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

/** `item` repeated min..max times (max finite), as nested optionals. */
function repeat(item: string, min: number, max: number): string {
  const parts: string[] = [];
  for (let i = 0; i < min; i++) parts.push(item);
  let optional = '';
  for (let i = max - min; i > 0; i--) optional = optional ? `(${item} ${optional})?` : `(${item})?`;
  if (optional) parts.push(optional);
  return parts.length ? parts.join(' ') : '""';
}

class Builder {
  readonly rules = new Map<string, string>();
  private readonly byBody = new Map<string, string>();
  private n = 0;
  constructor(readonly opts: Required<GbnfOptions>) {}

  /** A rule for `body` (identical bodies share one rule). */
  rule(hint: string, body: string): string {
    const known = this.byBody.get(body);
    if (known) return known;
    const name = `${hint.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase() || 'r'}-${++this.n}`;
    this.rules.set(name, body);
    this.byBody.set(body, name);
    return name;
  }

  value(s: JsonSchema, hint: string): string {
    if (s.const !== undefined) return gbnfLiteral(JSON.stringify(s.const));
    if (Array.isArray(s.enum)) return this.rule(`${hint}-enum`, s.enum.map((v) => gbnfLiteral(JSON.stringify(v))).join(' | '));
    const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(union) && union.length) return this.rule(hint, union.map((u, i) => this.value(u, `${hint}-${i}`)).join(' | '));
    const type = s.type;
    if (Array.isArray(type)) return this.rule(hint, type.map((t) => this.value({ ...s, type: t }, `${hint}-${t}`)).join(' | '));
    switch (type) {
      case 'string':
        return this.string(s, hint);
      case 'integer':
        return this.integer(s, hint);
      case 'number':
        return 'number';
      case 'boolean':
        return this.rule('boolean', '"true" | "false"');
      case 'null':
        return '"null"';
      case 'array':
        return this.array(s, hint);
      case 'object':
        return this.object(s, hint);
      default:
        if (s.properties) return this.object(s, hint);
        return 'value';
    }
  }

  private string(s: JsonSchema, hint: string): string {
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min, this.opts.maxStringChars);
    return this.rule(`${hint}-str`, `"\\"" ${repeat('char', min, max)} "\\"" ws`);
  }

  private integer(s: JsonSchema, hint: string): string {
    const lo = typeof s.minimum === 'number' ? Math.ceil(s.minimum) : undefined;
    const hi = typeof s.maximum === 'number' ? Math.floor(s.maximum) : undefined;
    if (lo !== undefined && hi !== undefined && hi >= lo && hi - lo < MAX_ENUMERATED_INTEGERS) {
      const values: string[] = [];
      for (let v = lo; v <= hi; v++) values.push(gbnfLiteral(String(v)));
      return this.rule(`${hint}-int`, values.join(' | '));
    }
    if (lo !== undefined && lo >= 0) return 'natural';
    return 'integer';
  }

  private array(s: JsonSchema, hint: string): string {
    const item = this.value((s.items as JsonSchema | undefined) ?? {}, `${hint}-item`);
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, this.opts.maxArrayItems);
    if (max === 0) return this.rule(`${hint}-arr`, '"[" ws "]" ws');
    const more = `("," ws ${item})`;
    const list = `${item} ${repeat(more, Math.max(0, min - 1), max - 1)}`;
    return this.rule(`${hint}-arr`, min > 0 ? `"[" ws ${list} "]" ws` : `"[" ws (${list})? "]" ws`);
  }

  private object(s: JsonSchema, hint: string): string {
    const props = Object.entries((s.properties as Record<string, JsonSchema> | undefined) ?? {});
    const required = new Set((s.required as string[] | undefined) ?? []);
    if (props.length === 0) return this.rule(`${hint}-obj`, '"{" ws "}" ws');
    const kv = props.map(([k, v]) => `${gbnfLiteral(JSON.stringify(k))} ws ":" ws ${this.value(v, `${hint}-${k}`)}`);
    // rest(i, started): the properties from i on, with a leading comma when one was written before.
    const memo = new Map<string, string>();
    const rest = (i: number, started: boolean): string => {
      if (i === props.length) return '';
      const key = `${i}:${started}`;
      const known = memo.get(key);
      if (known !== undefined) return known;
      const item = `${started ? '"," ws ' : ''}${kv[i]}`;
      const after = rest(i + 1, true);
      const take = after ? `${item} ${after}` : item;
      let body: string;
      if (required.has(props[i][0])) body = take;
      else {
        const skip = rest(i + 1, started);
        body = skip ? `${take} | ${skip}` : `(${take})?`;
      }
      const name = this.rule(`${hint}-p${i}`, body);
      memo.set(key, name);
      return name;
    };
    return this.rule(`${hint}-obj`, `"{" ws ${rest(0, false)} "}" ws`);
  }
}

// `char` takes Unicode scalar values only (no surrogates, nothing past U+10FFFF, no \uD800–\uDFFF
// escapes): a model writing byte by byte cannot slip those through, and one `char` is one
// character after decoding, as a schema's minLength/maxLength count them. It also leaves out "<":
// llama.cpp checks a special token (`<|im_start|>`, `<|endoftext|>`, `<tool_call>` …) against the
// grammar by its spelled text, then drops it from the output, so a string could lose characters.
// A reply that needs the sign writes "＜" or "\u003c".
const SHARED = (opts: Required<GbnfOptions>) => [
  `ws ::= ${repeat('[ \\t\\n]', 0, opts.maxWhitespace)}`,
  `char ::= [\\x20\\x21\\x23-\\x3B\\x3D-\\x5B\\x5D-\\x7E\\u0080-\\uD7FF\\uE000-\\U0010FFFF] | "\\\\" (["\\\\/bfnrt] | "u" hex4)`,
  `hex4 ::= [0-9a-cA-CeEfF] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] | [dD] [0-7] [0-9a-fA-F] [0-9a-fA-F]`,
  `digits ::= ${repeat('[0-9]', 0, 15)}`,
  `natural ::= ("0" | [1-9] digits) ws`,
  `integer ::= "-"? ("0" | [1-9] digits) ws`,
  `number ::= "-"? ("0" | [1-9] digits) ("." [0-9] digits)? ([eE] [-+]? [0-9] digits)? ws`,
  `value ::= (string | number | "true" ws | "false" ws | "null" ws | array | object)`,
  `string ::= "\\"" ${repeat('char', 0, opts.maxStringChars)} "\\"" ws`,
  `array ::= "[" ws (value ("," ws value)*)? "]" ws`,
  `object ::= "{" ws (string ":" ws value ("," ws string ":" ws value)*)? "}" ws`,
];

/** The GBNF (root rule `root`) accepting the JSON values of `schema`, with bounded whitespace. */
export function schemaToGbnf(schema: JsonSchema, options: GbnfOptions = {}): string {
  const opts: Required<GbnfOptions> = {
    maxWhitespace: options.maxWhitespace ?? 2,
    maxStringChars: options.maxStringChars ?? 200,
    maxArrayItems: options.maxArrayItems ?? 16,
  };
  const b = new Builder(opts);
  const top = b.value(schema, 'step');
  const all = new Map<string, string>([['root', top], ...b.rules]);
  for (const line of SHARED(opts)) {
    const at = line.indexOf(' ::= ');
    all.set(line.slice(0, at), line.slice(at + 5));
  }
  // Only the rules root reaches (the shared JSON rules are there for schemas that need them).
  const reached = new Set<string>(['root']);
  const queue = ['root'];
  while (queue.length) {
    for (const ref of all.get(queue.pop()!)!.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, ' ').match(/[a-zA-Z0-9-]+/g) ?? [])
      if (all.has(ref) && !reached.has(ref)) {
        reached.add(ref);
        queue.push(ref);
      }
  }
  const lines = [...all].filter(([name]) => reached.has(name)).map(([name, body]) => `${name} ::= ${body}`);
  return `${lines.join('\n')}\n`;
}

const cache = new Map<string, string>();
const MAX_CACHED = 64;

/** The step schema's GBNF, cached by the schema's text (tools repeat every turn). */
export function stepGbnf(schema: JsonSchema): string {
  const key = JSON.stringify(schema);
  let g = cache.get(key);
  if (g === undefined) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    g = schemaToGbnf(schema);
    cache.set(key, g);
  }
  return g;
}
