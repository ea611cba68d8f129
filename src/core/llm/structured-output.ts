/**
 * How a remote server is asked for a step under the step schema: the structured-output dialects
 * servers actually speak, strongest first, and what each puts in the request and takes out of the
 * answer. Pure request/response shaping; remote-openai.ts sends it, dialect-probe.ts picks the mode.
 *
 * - `json_schema_strict`: `response_format: {type:'json_schema', json_schema:{strict:true, schema}}`
 *   with the exact step schema (a union of actions) — llama.cpp server, vLLM, LM Studio, Ollama's /v1.
 * - `json_schema_strict_object`: the same field with a schema inside OpenAI's strict subset: an
 *   object root in the paired form (`action` enum, `args` union; step-format.ts), every object
 *   closed, every property required (optional ones nullable), no `default`/`const`/length
 *   keywords. The answer is rewritten as a step's usual text, nulls dropped.
 * - `json_schema`: the exact schema, `strict:false` (services that refuse `strict`).
 * - `ollama_format`: Ollama's native `/api/chat` with `format: <schema>` (NDJSON stream).
 * - `gbnf`: llama.cpp's top-level `grammar` field with the step schema as GBNF.
 * - `json_object`: `response_format: {type:'json_object'}` plus the schema in the prompt; the step
 *   check and retries do the rest.
 * - `text`: no format field; the schema in the prompt, and the JSON object taken out of the text.
 */
import { stepGbnf } from './gbnf.ts';
import { pairedToStepJson } from './step-format.ts';
import { chatCompletionsUrl } from './remote-endpoint.ts';
import type { ChatMessage, JsonSchema } from './types.ts';
import type { OutputMode } from './output-modes.ts';

/** The words that introduce the schema in the prompt (json_object and text modes). */
export const SCHEMA_IN_PROMPT = '它必须符合这个 JSON Schema：';

/** The instruction added to the system prompt when the server does not enforce the schema. */
export function schemaInstruction(schema: JsonSchema): string {
  return `\n\n【输出格式】每次只输出一个 JSON 对象，不要输出别的文字，也不要用代码块。${SCHEMA_IN_PROMPT}\n${JSON.stringify(schema)}`;
}

/** Messages as sent: the schema instruction joins the system prompt in the modes that need it. */
function withInstruction(messages: ChatMessage[], schema: JsonSchema): ChatMessage[] {
  const text = schemaInstruction(schema);
  if (messages[0]?.role === 'system') return [{ role: 'system', content: messages[0].content + text }, ...messages.slice(1)];
  return [{ role: 'system', content: text.trim() }, ...messages];
}

// ---- OpenAI's strict subset ----

const DROPPED_IN_STRICT = new Set(['default', 'minLength', 'maxLength', 'title', 'examples', '$schema']);

function strictValue(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (DROPPED_IN_STRICT.has(k)) continue;
    if (k === 'const') out.enum = [v];
    else if (k === 'properties' || k === 'required' || k === 'additionalProperties') continue;
    else if (k === 'items') out.items = strictValue(v as JsonSchema);
    else if (k === 'anyOf' || k === 'oneOf') out.anyOf = (v as JsonSchema[]).map(strictValue);
    else out[k] = v;
  }
  if (s.type === 'object' || s.properties) {
    const props = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
    const required = new Set((s.required as string[] | undefined) ?? []);
    out.type = 'object';
    out.properties = Object.fromEntries(
      Object.entries(props).map(([k, p]) => [k, required.has(k) ? strictValue(p) : nullable(strictValue(p))]),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  return out;
}

function nullable(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'], ...(Array.isArray(s.enum) ? { enum: [...s.enum, null] } : {}) };
  return { anyOf: [s, { type: 'null' }] };
}

/** The step schema rewritten into OpenAI's strict subset (object root; see the module comment). */
export function strictObjectSchema(schema: JsonSchema): JsonSchema {
  const variants = (schema.anyOf as JsonSchema[] | undefined) ?? [schema];
  const actions: string[] = [];
  const args: JsonSchema[] = [];
  const seen = new Set<string>();
  for (const v of variants) {
    const [action, argsOf] = Object.entries(v.properties as Record<string, JsonSchema>)[0];
    actions.push(action);
    const a = strictValue(argsOf);
    const key = JSON.stringify(a);
    if (!seen.has(key)) {
      seen.add(key);
      args.push(a);
    }
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: ['action', 'args'],
    properties: { action: { type: 'string', enum: actions }, args: args.length === 1 ? args[0] : { anyOf: args } },
  };
}

// ---- requests ----

export interface StepCall {
  baseUrl: string;
  model: string;
  messages: ChatMessage[];
  schema: JsonSchema;
  maxTokens: number;
  temperature: number;
  disableThinking?: boolean;
}

export interface DialectRequest {
  url: string;
  body: Record<string, unknown>;
  /** How the answer streams: OpenAI SSE, or Ollama's newline-delimited JSON. */
  stream: 'sse' | 'ndjson';
}

/** Ollama's native chat endpoint from a base URL typed for its OpenAI-compatible one. */
export function ollamaChatUrl(baseUrl: string): string {
  return chatCompletionsUrl(baseUrl).replace(/\/v\d+\/chat\/completions$/, '/api/chat').replace(/\/chat\/completions$/, '/api/chat');
}

export function buildRequest(mode: OutputMode, call: StepCall): DialectRequest {
  if (mode === 'ollama_format') {
    return {
      url: ollamaChatUrl(call.baseUrl),
      stream: 'ndjson',
      body: {
        model: call.model,
        messages: call.messages,
        stream: true,
        format: call.schema,
        options: { temperature: call.temperature, top_p: 0.9, num_predict: call.maxTokens },
        ...(call.disableThinking ? { think: false } : {}),
      },
    };
  }
  const body: Record<string, unknown> = {
    model: call.model,
    messages: mode === 'json_object' || mode === 'text' ? withInstruction(call.messages, call.schema) : call.messages,
    stream: true,
    temperature: call.temperature,
    top_p: 0.9,
    max_tokens: call.maxTokens,
  };
  switch (mode) {
    case 'json_schema_strict':
      body.response_format = { type: 'json_schema', json_schema: { name: 'step', schema: call.schema, strict: true } };
      break;
    case 'json_schema_strict_object':
      body.response_format = { type: 'json_schema', json_schema: { name: 'step', schema: strictObjectSchema(call.schema), strict: true } };
      break;
    case 'json_schema':
      body.response_format = { type: 'json_schema', json_schema: { name: 'step', schema: call.schema, strict: false } };
      break;
    case 'gbnf':
      body.grammar = stepGbnf(call.schema);
      break;
    case 'json_object':
      body.response_format = { type: 'json_object' };
      break;
    case 'text':
      break;
  }
  if (call.disableThinking) {
    body.chat_template_kwargs = { enable_thinking: false };
    body.reasoning_effort = 'none';
  }
  return { url: chatCompletionsUrl(call.baseUrl), body, stream: 'sse' };
}

// ---- answers ----

/** The first balanced JSON object in `text` (prose and code fences around it are dropped), or the text. */
export function extractJsonObject(text: string): string {
  const start = text.indexOf('{');
  if (start < 0) return text;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

function fromPaired(text: string): string {
  try {
    return pairedToStepJson(JSON.parse(text)) ?? text;
  } catch {
    return text;
  }
}

/** The step's JSON text out of what the server answered in this mode. */
export function stepText(mode: OutputMode, text: string): string {
  if (mode === 'json_schema_strict_object') return fromPaired(text);
  if (mode === 'text' || mode === 'json_schema') return extractJsonObject(text);
  return text;
}

/**
 * A filter for streamed pieces: in the modes where a model may write prose first, nothing before
 * the first `{` reaches the agent's incremental reader.
 */
export function deltaFilter(mode: OutputMode, onDelta?: (d: string) => void): ((d: string) => void) | undefined {
  if (!onDelta) return undefined;
  if (mode !== 'text' && mode !== 'json_schema') return onDelta;
  let started = false;
  return (d) => {
    if (started) return onDelta(d);
    const i = d.indexOf('{');
    if (i < 0) return;
    started = true;
    onDelta(d.slice(i));
  };
}
