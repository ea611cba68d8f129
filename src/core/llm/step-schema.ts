/**
 * The per-request step schema: the union (anyOf) of exactly the actions legal right now, each an
 * object with one key, the action's name, whose value is the tool's parameters (step-format.ts);
 * and the second check after decoding (JSON parse, known action, args valid under ajv), whose
 * error text goes back to the model as a short correction.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { RESERVED_ACTION_NAMES, stepOfValue } from './step-format.ts';
import type { JsonSchema, Step, ToolSpec } from './types.ts';

/** The tool's argument schema as it is enforced: an object with no undeclared keys. */
function argsSchema(tool: ToolSpec): JsonSchema {
  const p = tool.parameters ?? {};
  return {
    ...p,
    type: 'object',
    properties: (p.properties as JsonSchema | undefined) ?? {},
    required: (p.required as string[] | undefined) ?? [],
    additionalProperties: p.additionalProperties ?? false,
  };
}

export function buildStepSchema(tools: readonly ToolSpec[]): JsonSchema {
  if (tools.length === 0) throw new Error('buildStepSchema: an agent step needs at least one legal action');
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`buildStepSchema: duplicate tool name "${t.name}"`);
    if (RESERVED_ACTION_NAMES.includes(t.name)) throw new Error(`buildStepSchema: "${t.name}" cannot name a tool`);
    seen.add(t.name);
  }
  return {
    anyOf: tools.map((t) => ({
      type: 'object',
      additionalProperties: false,
      required: [t.name],
      properties: { [t.name]: argsSchema(t) },
    })),
  };
}

// One Ajv for the layer; validators are cached by the schema's text (tools repeat every turn).
const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>();
const MAX_VALIDATORS = 256;

function validatorFor(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    if (validators.size >= MAX_VALIDATORS) validators.delete(validators.keys().next().value as string);
    v = ajv.compile(schema);
    validators.set(key, v);
  }
  return v;
}

/** Validates arguments against a tool's JSON schema; returns a readable problem (in Chinese) or null. */
export function argumentProblem(schema: JsonSchema, args: unknown): string | null {
  const validate = validatorFor(schema);
  if (validate(args)) return null;
  return describeAjvError(validate.errors![0]);
}

type StepCheck = { ok: true; step: Step } | { ok: false; reason: string };

function describeAjvError(e: ErrorObject): string {
  const where = e.instancePath ? `${e.instancePath.slice(1).replace(/\//g, '.')} ` : '';
  if (e.keyword === 'required') return `${where}缺少 ${(e.params as { missingProperty: string }).missingProperty}`;
  if (e.keyword === 'additionalProperties')
    return `${where}不能有 ${(e.params as { additionalProperty: string }).additionalProperty}`;
  if (e.keyword === 'enum') return `${where}必须是其中之一：${(e.params as { allowedValues: unknown[] }).allowedValues.join('、')}`;
  return `${where || '参数 '}${e.message ?? '不合法'}`;
}

/** Strips a Markdown code fence a remote model may wrap its JSON in. */
function unfence(raw: string): string {
  const t = raw.trim();
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(t);
  return m ? m[1] : t;
}

/** Checks decoded text against the legal tools; never throws. */
export function checkStep(raw: string, tools: readonly ToolSpec[]): StepCheck {
  let value: unknown;
  try {
    value = JSON.parse(unfence(raw));
  } catch {
    return { ok: false, reason: '输出不是合法的 JSON' };
  }
  const shape = stepOfValue(value);
  if (!shape.ok) return shape;
  const tool = tools.find((t) => t.name === shape.action);
  if (!tool) return { ok: false, reason: `没有动作 ${shape.action}` };
  const args = shape.args;
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { ok: false, reason: `${tool.name} 的参数必须是一个对象` };
  const validate = validatorFor(argsSchema(tool));
  if (!validate(args)) return { ok: false, reason: `${tool.name} 的参数不对：${describeAjvError(validate.errors![0])}` };
  return { ok: true, step: { action: tool.name, args: args as Record<string, unknown> } };
}

/** The short message that sends an invalid step back to the model. */
export function correctionMessage(reason: string, tools: readonly ToolSpec[]): string {
  return `上一个输出无效：${reason}。请只输出一个 JSON 对象 {"动作名": {参数}}，动作只能是：${tools
    .map((t) => t.name)
    .join('、')}。`;
}
