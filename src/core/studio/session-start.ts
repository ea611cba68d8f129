/**
 * The snapshot a Studio session starts from: a new design (the Studio's first words, an empty
 * board, the manager in design mode), or the play stage of a declared design (a fresh board
 * holding the accepted design facts, the manager in play mode with the design's run skills). Pure.
 */
import * as bb from './blackboard.ts';
import { managerSystemPrompt } from './manager-tools.ts';
import type { SkillPackage } from './package-loader.ts';
import { initialPhaseState, type PhaseState } from './phase-machine.ts';
import { RUN_SKILL_LIST } from './planner.ts';
import type { SessionSnapshot } from './types.ts';

/** What the Studio says first (the parent has never heard of skills or agents). */
const START_WORDS = '说说你想给孩子做个什么样的游戏吧。比如：「给5岁的孩子做个恐龙问答」「猜谜语，玩3轮」「我想和孩子讲故事」「我说你做」。';

export function designSnapshot(pkg: SkillPackage, projectId: string, at: number): SessionSnapshot {
  return {
    v: 1,
    projectId,
    packageId: pkg.id,
    state: initialPhaseState(pkg.burstCap),
    board: bb.emptyBoard(Object.keys(pkg.tags)),
    manager: [{ role: 'system', content: managerSystemPrompt(pkg, 'design') }],
    pendingHelper: null,
    transcript: [{ who: 'agent', text: START_WORDS, at }],
    seq: 0,
    savedAt: at,
  };
}

export function playSnapshot(pkg: SkillPackage, projectId: string, design: Record<string, unknown>, at: number): SessionSnapshot {
  let board = bb.emptyBoard(Object.keys(pkg.tags));
  for (const [tag, value] of Object.entries(design)) board = bb.recordUserFact(board, tag, value, at);
  const state: PhaseState = { ...initialPhaseState(pkg.burstCap, 'play'), ready: true };
  return {
    v: 1,
    projectId,
    packageId: pkg.id,
    state,
    board,
    manager: [{ role: 'system', content: managerSystemPrompt(pkg, 'play', Array.isArray(design[RUN_SKILL_LIST]) ? (design[RUN_SKILL_LIST] as string[]) : []) }],
    pendingHelper: null,
    transcript: [],
    seq: 0,
    savedAt: at,
  };
}
