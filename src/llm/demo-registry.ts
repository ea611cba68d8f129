/**
 * The demo-mode policy registry: every game's `skills/<folder>/demo.ts` (exporting
 * `policy: ScriptPolicy`) becomes the policy of agent `game:<folder>`; other agents (the main
 * agent, the studio) add theirs with `registerPolicy`.
 */
import type { ScriptPolicy } from '../core/llm/types.ts';

const skillDemos = import.meta.glob<{ policy?: ScriptPolicy }>('/skills/*/demo.ts', { eager: true });

const extra = new Map<string, ScriptPolicy>();

/** `/skills/guess-number/demo.ts` → `game:guess-number`. */
export function agentOfDemoPath(path: string): string | undefined {
  const m = /^\/skills\/([^/]+)\/demo\.ts$/.exec(path);
  return m ? `game:${m[1]}` : undefined;
}

function skillPolicies(): Map<string, ScriptPolicy> {
  const out = new Map<string, ScriptPolicy>();
  for (const [path, mod] of Object.entries(skillDemos)) {
    const agent = agentOfDemoPath(path);
    if (agent && typeof mod.policy === 'function') out.set(agent, mod.policy);
  }
  return out;
}

const fromSkills = skillPolicies();

export function registerPolicy(agent: string, policy: ScriptPolicy): void {
  extra.set(agent, policy);
}

/** The policy for an agent: a registered one wins over a skill's demo. */
export function demoPolicy(agent: string): ScriptPolicy | undefined {
  return extra.get(agent) ?? fromSkills.get(agent);
}
