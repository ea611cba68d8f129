/**
 * The runtime's checks on a design value before it reaches the board, for every author:
 * - its shape, against the tag's schema (a worker's draft, a parent's edit, a hand-written deck);
 * - a game name already in the arcade is refused, with a free one suggested;
 * - the shape of play and its run skill list agree with the package's paradigms;
 * and for a worker's draft also:
 * - rounds and age equal what the parent said (when they said it);
 * - a redo is not the very draft the parent rejected (the reason must change something, or the
 *   worker asks the parent why it cannot).
 * Problems are sentences a parent (or a worker, who retries) can act on. Pure.
 */
import { acceptedValue, type Blackboard } from './blackboard.ts';
import { nameTaken, takenNameMessage } from './names.ts';
import type { SkillPackage } from './package-loader.ts';
import { statedAge, statedRounds } from './parent-words.ts';
import { RUN_SKILL_LIST } from './planner.ts';
import { valueProblems, type FieldSchema } from './tag-schema.ts';

export const PARENT_WORDS_TAG = '设计.家长要求';
export const PARADIGM_TAG = '设计.交互范式';

export interface DraftContext {
  board: Blackboard;
  /** Names (titles and aliases) of the games already in the arcade, this design's own excluded. */
  taken: readonly string[];
  by: 'worker' | 'user';
}

/** Everything the parent has said in this design, in order (their requests and their reasons). */
function parentWords(board: Blackboard): string {
  const said = acceptedValue<unknown>(board, PARENT_WORDS_TAG);
  return Array.isArray(said) ? said.map(String).join('；') : '';
}

/** Fields of a schema with a given marker, as [path, schema] (objects only, not inside arrays). */
function marked(s: FieldSchema | undefined, pick: (f: FieldSchema) => boolean, path: string[] = []): Array<[string[], FieldSchema]> {
  if (!s) return [];
  const out: Array<[string[], FieldSchema]> = pick(s) ? [[path, s]] : [];
  for (const [k, p] of Object.entries(s.properties ?? {})) out.push(...marked(p, pick, [...path, k]));
  return out;
}

const at = (v: unknown, path: string[]): unknown => path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function draftProblems(pkg: SkillPackage, values: Record<string, unknown>, ctx: DraftContext): string[] {
  const out: string[] = [];
  const words = parentWords(ctx.board);
  for (const [tag, value] of Object.entries(values)) {
    const def = pkg.tagDefs[tag];
    if (!def?.schema) continue;
    out.push(...valueProblems(def.schema, value, def.title));
    for (const [path] of marked(def.schema, (f) => f.gameName === true)) {
      const name = at(value, path);
      if (typeof name === 'string' && nameTaken(name, ctx.taken)) out.push(takenNameMessage(name, ctx.taken));
    }
    if (ctx.by !== 'worker') continue;
    for (const [path, f] of marked(def.schema, (x) => x.stated !== undefined)) {
      const v = at(value, path);
      if (f.stated === 'rounds') {
        const n = statedRounds(words);
        if (n !== undefined && v !== n) out.push(`家长说了玩 ${n} 轮，「${f.title ?? path.join('.')}」应该是 ${n}`);
      } else {
        const age = statedAge(words);
        if (age !== undefined && !String(v ?? '').includes(String(age))) out.push(`家长说了孩子 ${age} 岁，「${f.title ?? path.join('.')}」应该写 ${age} 岁`);
      }
    }
    const last = ctx.board.tags[tag]?.rejections.at(-1);
    if (last && ctx.board.tags[tag]?.status === 'rejected' && same(last.value, value))
      out.push(`「${def.title}」和家长驳回的那一版一模一样。请按家长的理由（${last.reason}）改；改不了就用 ask_user 告诉家长为什么`);
  }
  // The shape of play names its run skills: the list must be the package's list for that shape.
  const paradigm = (values[PARADIGM_TAG] as { 范式?: unknown } | undefined)?.范式;
  if (pkg.paradigms.length && typeof paradigm === 'string') {
    const p = pkg.paradigms.find((x) => x.name === paradigm);
    if (!p) out.push(`没有「${paradigm}」这种玩法；可以选：${pkg.paradigms.map((x) => x.name).join('、')}`);
    else if (RUN_SKILL_LIST in values) {
      const list = values[RUN_SKILL_LIST];
      if (!Array.isArray(list) || !same([...list].map(String).sort(), [...p.runSkills].sort())) out.push(`玩法「${paradigm}」的 run skill 清单应该是：${p.runSkills.join('、')}`);
    }
  }
  return out;
}
