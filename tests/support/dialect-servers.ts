/**
 * Local fake LLM servers, one per structured-output dialect a family may point the app at, each
 * following what that server documents it accepts and refuses. Behind each sits the demo brain
 * (tests/support/demo-brain-server.ts), which can answer any of our agents, and which learns the
 * legal actions the way a real model would in that dialect: from the enforced schema or grammar
 * when the server constrains decoding, from the prompt when it does not (so a client that forgets
 * to put the schema in the prompt gets nowhere). A server that ignores a field answers in prose.
 *
 * - `openai`: OpenAI's cloud. Unknown top-level fields are refused; strict json_schema must be an
 *   object root, every object `additionalProperties:false`, every property required, no
 *   `default`/`minLength`/`maxLength`; json_object needs the word "json" in the messages.
 * - `ollama`: /v1 takes json_schema (any root; `strict` ignored) and json_object; native /api/chat
 *   takes `format: <schema>` and streams NDJSON; unknown fields are ignored.
 * - `ollama-old`: an Ollama whose /v1 ignores json_schema (json_object only); native `format` works.
 * - `llamacpp`: llama.cpp server: json_schema and top-level GBNF `grammar` (not both at once).
 * - `llamacpp-old`: an older llama.cpp server: response_format must be "text" or "json_object";
 *   `grammar` works.
 * - `vllm`: json_schema (guided decoding); unknown fields ignored.
 * - `lmstudio`: json_schema only; json_object is refused.
 * - `json-object-cloud`: a cloud API with JSON mode only (json_schema refused).
 * - `plain`: a proxy that ignores every format field and answers in prose.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoStepWith, toolsOfStepSchema } from './demo-brain-server.ts';
import { parseGbnf } from './gbnf-matcher.ts';
import { readStep } from '../../src/core/agent/messages.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';
import { argumentProblem } from '../../src/core/llm/step-schema.ts';
import type { ChatMessage, JsonSchema, ToolSpec } from '../../src/core/llm/types.ts';
import { SCHEMA_IN_PROMPT } from '../../src/core/llm/structured-output.ts';
import { seededRandom } from '../../src/core/random.ts';

export type Dialect = 'openai' | 'ollama' | 'ollama-old' | 'llamacpp' | 'llamacpp-old' | 'vllm' | 'lmstudio' | 'json-object-cloud' | 'plain';

export const DIALECTS: Dialect[] = ['openai', 'ollama', 'ollama-old', 'llamacpp', 'llamacpp-old', 'vllm', 'lmstudio', 'json-object-cloud', 'plain'];

export interface DialectServer {
  readonly dialect: Dialect;
  /** Base URL as a parent types it (…/v1). */
  readonly baseUrl: string;
  readonly requests: Array<{ path: string; body: any; status: number }>;
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How the "model" behind the server learned the actions: enforced (schema/grammar) or from the prompt. */
type Constraint =
  | { kind: 'schema'; schema: JsonSchema }
  | { kind: 'grammar'; gbnf: string }
  | { kind: 'json' }
  | { kind: 'none' };

// ---- reading the legal actions back ----

function toolsFromSchema(schema: JsonSchema): ToolSpec[] {
  if (Array.isArray(schema.anyOf)) return toolsOfStepSchema(schema);
  // OpenAI's strict form: an `action` enum and a union of argument schemas (the policies need only the names).
  const p = schema.properties as { action: { enum: string[] } };
  return p.action.enum.map((name) => ({ name, description: '', parameters: { type: 'object', properties: {} } }));
}

/** Under OpenAI's strict form a model writes the paired form, with null for the optional arguments it leaves out. */
function withNulls(text: string, schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return text;
  const read = readStep({ role: 'assistant', content: text });
  if (!read) return text;
  const step = { action: read.action, args: { ...read.args } };
  const args = (schema.properties as { args: JsonSchema }).args;
  const options = (args.anyOf as JsonSchema[] | undefined) ?? [args];
  const fits = options.find((o) => Object.keys(step.args).every((k) => k in ((o.properties as object) ?? {}))) ?? options[0];
  for (const k of Object.keys((fits.properties as object) ?? {})) if (!(k in step.args)) step.args[k] = null;
  return JSON.stringify(step);
}

function toolsFromGrammar(gbnf: string): ToolSpec[] {
  // The keys of the step's own objects (rules `step-<i>-p0-<n>`, schemaToGbnf's names); the grammar check in answer() keeps it honest.
  const names = new Set([...gbnf.matchAll(/^step-\d+-p0-\d+ ::= "\\"([^"\\]+)\\"" ws ":"/gm)].map((m) => m[1]));
  return [...names].map((name) => ({ name, description: '', parameters: { type: 'object', properties: {} } }));
}

function toolsFromPrompt(messages: ChatMessage[]): ToolSpec[] | undefined {
  const system = messages[0]?.role === 'system' ? messages[0].content : '';
  const at = system.lastIndexOf(SCHEMA_IN_PROMPT);
  if (at < 0) return undefined;
  return toolsFromSchema(JSON.parse(system.slice(at + SCHEMA_IN_PROMPT.length).trim()));
}

/** Some step for a request no policy knows (the connection probe): the first action, simplest arguments. */
function anyStep(tools: ToolSpec[]): string {
  const t = tools[0];
  const props = (t.parameters.properties as Record<string, JsonSchema> | undefined) ?? {};
  const args: Record<string, unknown> = {};
  for (const k of (t.parameters.required as string[] | undefined) ?? [])
    args[k] = props[k]?.type === 'string' ? '你好呀！' : props[k]?.type === 'integer' ? (props[k].minimum ?? 1) : true;
  return stepJson({ action: t.name, args });
}

/** A simple value under `s` (for requests no policy knows). */
function sampleValue(s: JsonSchema): unknown {
  if (s.enum) return (s.enum as unknown[])[0];
  if (s.const !== undefined) return s.const;
  if (s.anyOf) return sampleValue((s.anyOf as JsonSchema[])[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'string') return '你好呀！';
  if (type === 'integer' || type === 'number') return (s.minimum as number | undefined) ?? 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (type === 'array') return [];
  const props = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
  const req = (s.required as string[] | undefined) ?? [];
  return Object.fromEntries(req.map((k) => [k, sampleValue(props[k] ?? {})]));
}

async function brain(messages: ChatMessage[], tools: ToolSpec[], schema?: JsonSchema): Promise<string> {
  try {
    return await demoStepWith(messages, tools);
  } catch {
    return schema && !schema.anyOf ? JSON.stringify(sampleValue(schema)) : anyStep(tools);
  }
}

/** What the model writes under `c`. Unconstrained models write prose around the JSON, or only prose. */
async function answer(messages: ChatMessage[], c: Constraint): Promise<string> {
  if (c.kind === 'schema') {
    const text = withNulls(await brain(messages, toolsFromSchema(c.schema), c.schema), c.schema);
    const problem = argumentProblem(c.schema, JSON.parse(text));
    if (problem) throw new Refusal(500, `test server: the brain's step ${text} breaks the enforced schema (${problem})`);
    return text;
  }
  if (c.kind === 'grammar') {
    const g = parseGbnf(c.gbnf);
    const tools = toolsFromGrammar(c.gbnf);
    let text = await brain(messages, tools);
    // A request no policy knows: the first action the grammar takes without arguments, else the least it allows.
    const guesses = tools.flatMap((t) => [anyStep([t]), stepJson({ action: t.name, args: { text: '你好呀！' } })]);
    if (!g.accepts(text)) text = guesses.find((t) => g.accepts(t)) ?? g.shortest();
    if (!g.accepts(text)) throw new Refusal(500, `test server: the grammar does not accept the brain's step ${text}`);
    return text;
  }
  const tools = toolsFromPrompt(messages);
  if (!tools) return '你好呀！我是小机器人，很高兴见到你！';
  const step = await brain(messages, tools);
  return c.kind === 'json' ? step : `好的！\n\`\`\`json\n${step}\n\`\`\`\n希望这样可以。`;
}

// ---- what each server accepts ----

function strictProblems(s: JsonSchema, where = 'schema'): string | undefined {
  for (const k of ['default', 'minLength', 'maxLength']) if (k in s) return `In context=${where}, '${k}' is not permitted.`;
  if (s.type === 'object' || s.properties) {
    if (s.additionalProperties !== false) return `In context=${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys((s.properties as object) ?? {});
    const req = (s.required as string[] | undefined) ?? [];
    if (keys.some((k) => !req.includes(k)))
      return `In context=${where}, 'required' is required to be supplied and to be an array including every key in properties.`;
    for (const [k, v] of Object.entries((s.properties as Record<string, JsonSchema>) ?? {})) {
      const p = strictProblems(v, `${where}.properties.${k}`);
      if (p) return p;
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const)
    for (const [i, v] of ((s[key] as JsonSchema[] | undefined) ?? []).entries()) {
      const p = strictProblems(v, `${where}.${key}[${i}]`);
      if (p) return p;
    }
  if (s.items) return strictProblems(s.items as JsonSchema, `${where}.items`);
  return undefined;
}

const OPENAI_FIELDS = new Set(['model', 'messages', 'stream', 'temperature', 'top_p', 'max_tokens', 'response_format', 'stop', 'n', 'seed', 'stream_options', 'reasoning_effort', 'tools', 'tool_choice']);

function chatConstraint(dialect: Dialect, body: any): Constraint {
  const rf = body.response_format as { type?: string; json_schema?: { schema?: JsonSchema; strict?: boolean } } | undefined;
  const text = JSON.stringify(body.messages ?? []);
  switch (dialect) {
    case 'openai': {
      const extra = Object.keys(body).find((k) => !OPENAI_FIELDS.has(k));
      if (extra) throw new Refusal(400, `Unrecognized request argument supplied: ${extra}`);
      if (rf?.type === 'json_schema') {
        const schema = rf.json_schema?.schema ?? {};
        if (rf.json_schema?.strict) {
          if (schema.type !== 'object')
            throw new Refusal(400, `Invalid schema for response_format 'step': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`);
          const p = strictProblems(schema);
          if (p) throw new Refusal(400, `Invalid schema for response_format 'step': ${p}`);
          return { kind: 'schema', schema };
        }
        return { kind: 'none' };
      }
      if (rf?.type === 'json_object') {
        if (!/json/i.test(text)) throw new Refusal(400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.");
        return { kind: 'json' };
      }
      return { kind: 'none' };
    }
    case 'ollama':
    case 'vllm':
      if (rf?.type === 'json_schema') return { kind: 'schema', schema: rf.json_schema!.schema! };
      if (rf?.type === 'json_object') return { kind: 'json' };
      return { kind: 'none' };
    case 'ollama-old':
      if (rf?.type === 'json_object') return { kind: 'json' };
      return { kind: 'none' };
    case 'llamacpp':
    case 'llamacpp-old': {
      if (dialect === 'llamacpp-old' && rf?.type && rf.type !== 'text' && rf.type !== 'json_object')
        throw new Refusal(500, `response_format type must be one of "text" or "json_object", but got: ${rf.type}`);
      const schema = rf?.type === 'json_schema' ? rf.json_schema?.schema : body.json_schema;
      if (schema && body.grammar) throw new Refusal(400, 'Either "json_schema" or "grammar" can be specified, but not both');
      if (schema) return { kind: 'schema', schema };
      if (typeof body.grammar === 'string') {
        try {
          parseGbnf(body.grammar);
        } catch (err) {
          throw new Refusal(400, `Failed to parse grammar: ${(err as Error).message}`);
        }
        return { kind: 'grammar', gbnf: body.grammar };
      }
      if (rf?.type === 'json_object') return { kind: 'json' };
      return { kind: 'none' };
    }
    case 'lmstudio':
      if (rf?.type === 'json_schema') return { kind: 'schema', schema: rf.json_schema!.schema! };
      if (rf?.type && rf.type !== 'text') throw new Refusal(400, `'response_format.type' must be 'json_schema' or 'text'`);
      return { kind: 'none' };
    case 'json-object-cloud':
      if (rf?.type === 'json_schema') throw new Refusal(400, 'This response_format type is unavailable now');
      if (rf?.type === 'json_object') {
        if (!/json/i.test(text)) throw new Refusal(400, "Prompt must contain the word 'json' in some form to use 'response_format' of type 'json_object'");
        return { kind: 'json' };
      }
      return { kind: 'none' };
    case 'plain':
      return { kind: 'none' };
  }
}

function sse(res: ServerResponse, content: string, model: string): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Access-Control-Allow-Origin': '*' });
  const chars = [...content];
  for (let i = 0; i < chars.length; i += 4)
    res.write(`data: ${JSON.stringify({ object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content: chars.slice(i, i + 4).join('') }, finish_reason: null }] })}\n\n`);
  res.write(`data: ${JSON.stringify({ object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
  res.end();
}

function ndjson(res: ServerResponse, content: string, model: string): void {
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Access-Control-Allow-Origin': '*' });
  const chars = [...content];
  for (let i = 0; i < chars.length; i += 4)
    res.write(`${JSON.stringify({ model, message: { role: 'assistant', content: chars.slice(i, i + 4).join('') }, done: false })}\n`);
  res.end(`${JSON.stringify({ model, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`);
}

function readBody(req: IncomingMessage): Promise<any> {
  return new Promise((resolve) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (s += d));
    req.on('end', () => {
      try {
        resolve(s ? JSON.parse(s) : undefined);
      } catch {
        resolve(s);
      }
    });
  });
}

const NATIVE_OLLAMA: Dialect[] = ['ollama', 'ollama-old'];

/**
 * A misbehaving server (the eval's "chaos" run): a share of the agents' requests (never the
 * connection probe's) fails on purpose, chosen by a seeded random source — an HTTP 500, an answer
 * cut off mid-JSON, the JSON wrapped in prose, or an action that does not exist.
 */
export interface Chaos {
  seed: number;
  /** Share of requests that go wrong (0..1). */
  rate: number;
}

export type ChaosFault = 'http_500' | 'truncated' | 'prose' | 'unknown_action';
const FAULTS: ChaosFault[] = ['http_500', 'truncated', 'prose', 'unknown_action'];

/** A server that lists its models to anyone but answers only with `apiKey` (401 otherwise); `listedFirst`: models it lists before its chat models (LM Studio lists its embedding model first). */
export interface ServerOptions {
  apiKey?: string;
  listedFirst?: string[];
}

export async function startDialectServer(dialect: Dialect, model = 'test-model', chaos?: Chaos, opts: ServerOptions = {}): Promise<DialectServer & { faults: ChaosFault[] }> {
  const requests: DialectServer['requests'] = [];
  const faults: ChaosFault[] = [];
  const random = chaos ? seededRandom(chaos.seed) : undefined;
  const faultFor = (body: any): ChaosFault | undefined => {
    if (!random || JSON.stringify(body.messages ?? []).includes('跟我打个招呼吧')) return undefined;
    if (random() >= chaos!.rate) return undefined;
    const f = FAULTS[Math.floor(random() * FAULTS.length)];
    faults.push(f);
    return f;
  };
  const server = createServer(async (req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'content-type, authorization', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    const path = (req.url ?? '').split('?')[0];
    const body = await readBody(req);
    const record = { path, body, status: 200 };
    requests.push(record);
    const fail = (status: number, message: string) => {
      record.status = status;
      res.writeHead(status, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify(NATIVE_OLLAMA.includes(dialect) && path === '/api/chat' ? { error: message } : { error: { message, type: 'invalid_request_error' } }));
    };
    try {
      if (req.method === 'GET' && path === '/v1/models') {
        res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
        const ids = [...(opts.listedFirst ?? []), model, `${model}-large`];
        return void res.end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) }));
      }
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return fail(401, 'Invalid API key');
      if (req.method === 'POST' && path === '/api/chat' && NATIVE_OLLAMA.includes(dialect)) {
        const c: Constraint = body.format && typeof body.format === 'object' ? { kind: 'schema', schema: body.format } : body.format === 'json' ? { kind: 'json' } : { kind: 'none' };
        return void ndjson(res, await answer(body.messages, c), model);
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        if (body.model !== model) return fail(404, `model "${body.model}" not found`);
        let content = await answer(body.messages, chatConstraint(dialect, body));
        const fault = faultFor(body);
        if (fault === 'http_500') return fail(500, 'chaos: the server fell over');
        if (fault === 'truncated') content = content.slice(0, Math.floor(content.length / 2));
        if (fault === 'prose') content = `好的，我想一想。${content}`;
        if (fault === 'unknown_action') content = content.replace(/"action":\s*"[^"]+"/, '"action":"dance"');
        if (body.stream) return void sse(res, content, model);
        res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      }
      fail(404, `no route ${req.method} ${path}`);
    } catch (err) {
      if (err instanceof Refusal) return fail(err.status, err.message);
      fail(500, String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dialect,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    faults,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mode the probe must pick for each dialect (the strongest one the server honours). */
export const EXPECTED_MODE: Record<Dialect, string> = {
  openai: 'json_schema_strict_object',
  ollama: 'json_schema_strict',
  'ollama-old': 'ollama_format',
  llamacpp: 'json_schema_strict',
  'llamacpp-old': 'gbnf',
  vllm: 'json_schema_strict',
  lmstudio: 'json_schema_strict',
  'json-object-cloud': 'json_object',
  plain: 'text',
};
