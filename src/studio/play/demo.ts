/**
 * Demo mode "演示脚本，无模型" for the Studio: the hub's scripted model finds each agent's policy in
 * the demo registry, so the Studio's manager and workers must be registered there — on the main
 * thread, where the hub runs, for designing and for playing (game workers reach the hub's model).
 */
import { registerPolicy } from '../../llm/demo-policies.ts';
import { studioDemoPolicies } from '../demo-policies.ts';

export function registerStudioDemoPolicies(): void {
  for (const [agent, policy] of Object.entries(studioDemoPolicies)) registerPolicy(agent, policy);
}
