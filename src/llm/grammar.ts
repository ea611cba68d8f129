/**
 * Step schema → XGrammar EBNF with bounded whitespace. WebLLM's own JSON-schema path compiles
 * with unbounded whitespace, so a small model can emit spaces until `max_tokens`
 * (WebLLM 0.2.86 takes a grammar, not a JSON schema, for constrained decoding); we convert here and send `response_format: {type:'grammar'}`.
 * `@mlc-ai/web-xgrammar` is a UMD bundle that installs `globalThis.xgrammar` (wasm inlined).
 * Under Node it needs a `require` shim first (see tests/support/xgrammar-node.ts).
 */
import type { JsonSchema } from '../core/llm/types.ts';

type XGrammar = typeof import('@mlc-ai/web-xgrammar');

let loading: Promise<XGrammar> | undefined;

export function loadXGrammar(): Promise<XGrammar> {
  loading ??= import('@mlc-ai/web-xgrammar').then((mod) => {
    const g = (globalThis as { xgrammar?: XGrammar }).xgrammar;
    const x = g ?? (mod as unknown as { default?: XGrammar }).default ?? (mod as unknown as XGrammar);
    if (!x?.Testings) throw new Error('web-xgrammar did not load');
    return x;
  });
  return loading;
}

/** Whitespace allowed between JSON tokens: enough for `{"a": 1}` style, never a flood. */
export const MAX_WHITESPACE = 2;

const cache = new Map<string, Promise<string>>();
const MAX_CACHED = 64;

/** The EBNF (root rule `root`) accepting exactly the JSON values the schema allows. */
export function stepGrammar(schema: JsonSchema, maxWhitespace = MAX_WHITESPACE): Promise<string> {
  const text = JSON.stringify(schema);
  const key = `${maxWhitespace}:${text}`;
  let p = cache.get(key);
  if (!p) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    p = loadXGrammar().then((xg) =>
      // (schema, anyWhitespace, indent, separators, strictMode, maxWhitespaceCnt)
      xg.Testings._jsonSchemaToEBNF(text, true, 2, undefined, true, maxWhitespace),
    );
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

/**
 * The EBNF whose only sentence is `text`: decoding under it writes exactly `text` again, whatever
 * the model (used to give WebLLM back a conversation another agent's step replaced).
 */
export function literalGrammar(text: string): string {
  const escaped = text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return `root ::= "${escaped}"`;
}
