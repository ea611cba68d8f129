/**
 * Back-chaining (seed 004 §5): the interaction-paradigm skill names the run skills; each run skill's
 * `设计.*` reads must be accepted facts before play; for every one still missing, work back to the
 * instantiate skill that writes it (and, transitively, to what that skill reads). Pure.
 */
import { acceptedValue, isAccepted, type Blackboard } from './blackboard.ts';
import { DESIGN_PREFIX, type SkillPackage } from './package-loader.ts';

export const RUN_SKILL_LIST = '设计.run_skill清单';

interface DesignPlan {
  /** Run skills named by the accepted `设计.run_skill清单` (empty until it is accepted). */
  runSkills: string[];
  /** Names in the list that are not run skills of this package. */
  unknownRunSkills: string[];
  /** Design tags play needs (the list itself plus every run skill's `设计.*` reads that some skill produces). */
  neededTags: string[];
  /** Needed tags not accepted yet. */
  missingTags: string[];
  /** Instantiate skills to invoke, dependencies first, excluding those whose drafts await review. */
  missing: string[];
  /** Of `missing`, the first whose own inputs are all accepted: what to invoke next. */
  next: string | null;
  /** Tags with a draft waiting for the user. */
  awaitingReview: string[];
  /** Every needed tag is accepted: `declare_instance_ready` is legal. */
  ready: boolean;
}

function producerOf(pkg: SkillPackage, tag: string): string | undefined {
  return pkg.skills.find((s) => s.stage === 'instantiate' && s.writes.includes(tag))?.id;
}

export function missingInstantiateSkills(pkg: SkillPackage, board: Blackboard): DesignPlan {
  const list = acceptedValue<unknown>(board, RUN_SKILL_LIST);
  const named = Array.isArray(list) ? list.map(String) : [];
  const runSkills = named.filter((id) => pkg.skills.some((s) => s.id === id && s.stage === 'run'));
  const unknownRunSkills = named.filter((id) => !runSkills.includes(id));

  const needed = new Set<string>([RUN_SKILL_LIST]);
  for (const id of runSkills)
    for (const t of pkg.skills.find((s) => s.id === id)!.reads) if (t.startsWith(DESIGN_PREFIX) && producerOf(pkg, t)) needed.add(t);
  const neededTags = [...needed];
  const missingTags = neededTags.filter((t) => !isAccepted(board, t));

  // Depth-first over producers so a skill comes after the skills producing its inputs.
  const order: string[] = [];
  const visiting = new Set<string>();
  const visitTag = (tag: string) => {
    if (isAccepted(board, tag)) return;
    const p = producerOf(pkg, tag);
    if (!p || order.includes(p) || visiting.has(p)) return;
    visiting.add(p);
    for (const r of pkg.skills.find((s) => s.id === p)!.reads) if (r.startsWith(DESIGN_PREFIX)) visitTag(r);
    visiting.delete(p);
    order.push(p);
  };
  missingTags.forEach(visitTag);

  const awaitingReview = Object.values(board.tags).filter((e) => e.status === 'draft').map((e) => e.name);
  const missing = order.filter((id) => !pkg.skills.find((s) => s.id === id)!.writes.some((t) => awaitingReview.includes(t)));
  const inputsReady = (id: string) =>
    pkg.skills.find((s) => s.id === id)!.reads.every((r) => !r.startsWith(DESIGN_PREFIX) || !producerOf(pkg, r) || isAccepted(board, r));
  // Among the runnable ones, follow the manifest's order (its author's reading order).
  const next = pkg.skills.map((s) => s.id).find((id) => missing.includes(id) && inputsReady(id)) ?? null;
  const ready = missingTags.length === 0 && runSkills.length > 0 && unknownRunSkills.length === 0;
  return { runSkills, unknownRunSkills, neededTags, missingTags, missing, next, awaitingReview, ready };
}
