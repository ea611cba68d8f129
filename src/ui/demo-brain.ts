/**
 * The rules brain "规则大脑（不用模型）": the scripted model with every agent's policy — each game's
 * `skills/<id>/demo.ts`, the main agent's, the Studio's manager and helpers, and the settings'
 * try-out. Loaded only when the demo brain is chosen, never on the first screen.
 */
import { mainDemoPolicy } from '../arcade/demo-policy.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { demoPolicy, registerPolicy } from '../llm/demo-registry.ts';
import { TRY_AGENT } from '../llm/model-controller.ts';
import { createScriptedModel } from '../llm/scripted.ts';
import { studioDemoPolicies } from '../studio/studio-demo-policies.ts';

registerPolicy('main', mainDemoPolicy);
for (const [agent, policy] of Object.entries(studioDemoPolicies)) registerPolicy(agent, policy);
// The settings' "试一步" is not a game, so it has no skills/*/demo.ts.
registerPolicy(TRY_AGENT, (req) => ({ action: 'reply', args: { text: `（规则大脑）你说的是：“${req.messages.at(-1)?.content ?? ''}”` } }));

export function createDemoModel(): ChatModel {
  return createScriptedModel(demoPolicy);
}
