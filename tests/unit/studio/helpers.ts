import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatModel, ScriptPolicy, StepRequest } from '../../../src/core/llm/types.ts';
import { type SkillPackage } from '../../../src/core/studio/package-loader.ts';
import { discoverPackages } from '../../../src/studio/bundled-packages.ts';
import { studioDemoPolicies } from '../../../src/studio/studio-demo-policies.ts';

export function quizPackage(): SkillPackage {
  const r = discoverPackages().find((p) => (p.ok ? p.pkg.id : p.packageId) === 'quiz-cards');
  if (!r || !r.ok) throw new Error(`quiz-cards did not load: ${r && !r.ok ? r.errors.join('\n') : 'missing'}`);
  return r.pkg;
}

/** The demo model, recording every request it saw. */
export function demoModel(overrides: Record<string, ScriptPolicy> = {}): { model: ChatModel; requests: StepRequest[] } {
  const requests: StepRequest[] = [];
  const policies = { ...studioDemoPolicies, ...overrides };
  const model = createScriptedModel((agent) => {
    const p = policies[agent];
    return p ? (req) => (requests.push(req), p(req)) : undefined;
  });
  return { model, requests };
}

export function clock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => (t += 1000);
}
