/**
 * The runtime's checks on a design value before it reaches the board, for every author:
 * - its shape, against the tag's schema (a helper's draft, a parent's edit, a hand-written deck);
 * - a game name already in the arcade is refused, with a free one suggested;
 * - a game name that is also one of its answers is refused, with another suggested (a child's
 *   answer would sound like asking for the game);
 * - the shape of play and its run skill list agree with the package's paradigms;
 * and for a helper's draft also:
 * - rounds and age equal what the parent said (when they said it);
 * - a redo is not the very draft the parent rejected (the reason must change something, or the
 *   helper asks the parent why it cannot).
 * Problems are sentences a parent (or a helper, who retries) can act on. Pure.
 */
import { acceptedValue, type Blackboard } from './blackboard.ts';
import { freeName, nameTaken, takenNameMessage } from './names.ts';
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
  by: 'helper' | 'user';
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

/** Every string of `v` at a field `pick` chooses, inside lists too. */
function stringsAt(s: FieldSchema | undefined, v: unknown, pick: (f: FieldSchema) => boolean, out: string[] = []): string[] {
  if (!s || v === undefined || v === null) return out;
  if (s.type === 'string' && pick(s) && typeof v === 'string' && v.trim()) out.push(v.trim());
  else if (s.type === 'array' && Array.isArray(v)) for (const x of v) stringsAt(s.items, x, pick, out);
  else if (s.type === 'object' && typeof v === 'object') for (const [k, p] of Object.entries(s.properties ?? {})) stringsAt(p, (v as Record<string, unknown>)[k], pick, out);
  return out;
}

/**
 * The game's name may not be one of its answers (the 「豆豆」 quiz whose answer is 豆豆): checked
 * when either is being written, against the other as written now or already taken.
 */
function nameIsAnswer(pkg: SkillPackage, values: Record<string, unknown>, ctx: DraftContext): string[] {
  const names: string[] = [];
  const answers: string[] = [];
  let touched = false;
  for (const [tag, def] of Object.entries(pkg.tagDefs)) {
    if (!def.schema) continue;
    const fresh = tag in values;
    const v = fresh ? values[tag] : acceptedValue<unknown>(ctx.board, tag);
    const n = stringsAt(def.schema, v, (f) => f.gameName === true);
    const a = stringsAt(def.schema, v, (f) => f.answer === true);
    if (fresh && (n.length || a.length)) touched = true;
    names.push(...n);
    answers.push(...a);
  }
  if (!touched) return [];
  return names
    .filter((n) => nameTaken(n, answers))
    .map((n) => `游戏的名字「${n}」也是一张卡片的答案：孩子回答「${n}」时，会像是要开始这个游戏。换一个名字吧，比如「${freeName(`${n}问答`, [...ctx.taken, ...answers])}」。`);
}

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
    if (ctx.by !== 'helper') continue;
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
  out.push(...nameIsAnswer(pkg, values, ctx));
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
  // The same unsayable marks copied into several places (a name in the host's lines): told once, where first seen.
  const seen = new Set<string>();
  return out.filter((m) => {
    const marks = /念不出来的符号（(.+)）/.exec(m)?.[1];
    if (!marks) return true;
    if (seen.has(marks)) return false;
    seen.add(marks);
    return true;
  });
}
