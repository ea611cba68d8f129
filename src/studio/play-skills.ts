/**
 * A run skill in play and its code follow-ups (`then`), all inside one `run_helper` call: each
 * writes its `运行.*` tags; if any fails, the board is left as it was before the call. A run skill
 * that wrote `运行.回复` has said what the child hears: that is the burst's reply.
 */
import * as bb from '../core/studio/blackboard.ts';
import { skillById, type StudioSkill, type SkillPackage } from '../core/studio/package-loader.ts';
import type { CodeExecutor } from './session-types.ts';
import type { HelperOutcome } from './helper-executor.ts';

const REPLY_TAG = '运行.回复';

/** A code skill's run: its reads (accepted values only) in, its output tag values out. */
export function runCodeSkill(skill: StudioSkill, board: bb.Blackboard, executors: Record<string, CodeExecutor> | undefined): HelperOutcome {
  const exec = executors?.[skill.id];
  if (!exec) return { kind: 'failed', message: `skill「${skill.id}」需要运行时代码，但没有提供`, messages: [], rounds: 0 };
  const reads = Object.fromEntries(skill.reads.map((t) => [t, board.tags[t]?.status === 'accepted' ? board.tags[t].value : undefined]));
  try {
    return { kind: 'submitted', values: exec(reads), messages: [], rounds: 1 };
  } catch (err) {
    return { kind: 'failed', message: `skill「${skill.id}」的运行时代码出错：${err instanceof Error ? err.message : String(err)}`, messages: [], rounds: 1 };
  }
}

export type PlaySkillsResult =
  | { ok: true; board: bb.Blackboard; tags: string[]; lines: string[]; reply?: { text: string; session: 'active' | 'ended' } }
  /** `lines`: what the manager is told the skills did, when they ran but their reply was empty. */
  | { ok: false; message: string; lines?: string[] };

export interface PlaySkillsRun {
  pkg: SkillPackage;
  board: bb.Blackboard;
  skill: StudioSkill;
  /** What the skill itself wrote. */
  values: Record<string, unknown>;
  /** Writes one skill's values to the board. */
  submit(board: bb.Blackboard, skill: StudioSkill, values: Record<string, unknown>): bb.Blackboard;
  executors: Record<string, CodeExecutor> | undefined;
}

export function runPlaySkills(run: PlaySkillsRun): PlaySkillsResult {
  let board = run.board;
  const ran: Array<{ skill: StudioSkill; values: Record<string, unknown> }> = [{ skill: run.skill, values: run.values }];
  try {
    board = run.submit(board, run.skill, run.values);
    for (const next of run.skill.then) {
      const follow = skillById(run.pkg, next) as StudioSkill;
      const out = runCodeSkill(follow, board, run.executors);
      if (out.kind !== 'submitted') throw new Error(`${next}: ${out.kind === 'failed' ? out.message : '没有结果'}`);
      board = run.submit(board, follow, out.values);
      ran.push({ skill: follow, values: out.values });
    }
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  const lines = ran.map((r) => `${r.skill.id} 已更新：${playResultSummary(board, Object.keys(r.values))}`);
  const spoke = ran.filter((r) => REPLY_TAG in r.values);
  const said = spoke.at(-1)?.values[REPLY_TAG];
  const tags = [...new Set(ran.flatMap((r) => Object.keys(r.values)))];
  if (spoke.length && (typeof said !== 'string' || !said.trim())) return { ok: false, message: `${spoke.at(-1)!.skill.id} 写的「${REPLY_TAG}」是空的`, lines };
  const reply = typeof said === 'string' ? { text: said.trim(), session: ran.some((r) => r.skill.ends) ? ('ended' as const) : ('active' as const) } : undefined;
  return { ok: true, board, tags, lines, ...(reply ? { reply } : {}) };
}

/** What the play manager may see of the new `运行.*` values (never the current card's answer). */
function playResultSummary(board: bb.Blackboard, tags: string[]): string {
  return JSON.stringify(Object.fromEntries(tags.filter((t) => t !== '运行.当前卡').map((t) => [t, board.tags[t]?.value])));
}
