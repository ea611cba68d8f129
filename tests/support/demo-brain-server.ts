/**
 * The demo brain behind an OpenAI-compatible server: every request is answered by the same
 * scripted policy the app's demo mode would use for that agent (the main agent, each game's
 * `skills/<id>/demo.ts`, the Studio's manager and helpers), found from what the request says —
 * its system prompt and the actions its schema allows. Lets e2e tests play real games against a
 * remote brain that is slow, or faulty, on purpose.
 */
import { mainDemoPolicy } from '../../src/arcade/demo-policy.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';
import { isPrewarmBody } from './openai-test-server.ts';
import type { ChatMessage, JsonSchema, ScriptPolicy, Step, StepRequest, ToolSpec } from '../../src/core/llm/types.ts';
import { studioDemoPolicies } from '../../src/studio/studio-demo-policies.ts';
import { MANAGER_AGENT, helperAgent } from '../../src/core/studio/manager-tools.ts';
import { policy as guessNumber } from '../../skills/guess-number/demo.ts';
import { policy as drawGuess } from '../../skills/draw-guess/demo.ts';

const GAMES: Array<{ heading: string; agent: string; policy: ScriptPolicy }> = [
  { heading: '# 猜数字', agent: 'game:guess-number', policy: guessNumber },
  { heading: '# 你画我猜', agent: 'game:draw-guess', policy: drawGuess },
];

/** The tools a request allows, read back from its step schema (`response_format.json_schema`). */
export function toolsOf(body: { response_format?: { json_schema?: { schema?: { anyOf?: unknown[] } } } }): ToolSpec[] {
  return toolsOfStepSchema(body.response_format?.json_schema?.schema ?? {});
}

/** The legal actions of a step schema (an `anyOf` of one-key objects: the action and its arguments). */
export function toolsOfStepSchema(schema: { anyOf?: unknown[] }): ToolSpec[] {
  return ((schema.anyOf ?? []) as Array<{ properties: Record<string, JsonSchema> }>).map((v) => {
    const [name, parameters] = Object.entries(v.properties)[0];
    return { name, description: '', parameters };
  });
}

/** Which agent sent the request, from its system prompt (and, for the main agent, its tools). */
export function agentOf(messages: ChatMessage[], tools: ToolSpec[]): string {
  const system = messages[0]?.role === 'system' ? messages[0].content : '';
  for (const g of GAMES) if (system.includes(g.heading)) return g.agent;
  const helper = /skill「([^」]+)」/.exec(system);
  if (system.startsWith('你是「') && helper) return helperAgent(helper[1]);
  if (system.includes('总管')) return MANAGER_AGENT;
  if (tools.some((t) => t.name === 'list_games')) return 'main';
  return 'unknown';
}

/** The demo brain's step for one chat-completion request body, as the JSON text a model would write (a prewarm: one space, nothing decided). */
export async function demoStep(body: { messages: ChatMessage[]; stream?: unknown; max_tokens?: unknown }): Promise<string> {
  if (isPrewarmBody(body)) return ' ';
  return demoStepWith(body.messages, toolsOf(body as never));
}

/** The demo brain's step for messages and the actions legal now, however the request told them. */
export async function demoStepWith(messages: ChatMessage[], tools: ToolSpec[]): Promise<string> {
  const body = { messages };
  const agent = agentOf(body.messages, tools);
  const policy = agent === 'main' ? mainDemoPolicy : (GAMES.find((g) => g.agent === agent)?.policy ?? studioDemoPolicies[agent]);
  if (!policy) throw new Error(`the demo brain has no policy for agent "${agent}"`);
  const req: StepRequest = { agent, messages: body.messages, tools };
  const out = await policy(req);
  return typeof out.raw === 'string' ? out.raw : stepJson(out as Step);
}
