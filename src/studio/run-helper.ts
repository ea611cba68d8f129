/**
 * A helper's run in a Studio session (./studio-session.ts; seed 004 §3, §9): the runtime assembles
 * its context, runs it on its own tool loop (./helper-executor.ts) or as code, and writes what it
 * submitted; the machine then gets the outcome as an event.
 */
import { toolResultMessage } from '../core/agent/messages.ts';
import type { ChatMessage } from '../core/llm/types.ts';
import * as bb from '../core/studio/blackboard.ts';
import { assembleHelperContext } from '../core/studio/helper-context.ts';
import { skillById, type StudioSkill } from '../core/studio/package-loader.ts';
import type { Effect } from '../core/studio/phase-machine.ts';
import { runHelperLoop, type HelperOutcome } from './helper-executor.ts';
import { runPlaySkills } from './play-skills.ts';
import type { SessionIo } from './session-types.ts';

/**
 * One helper's run for the phase machine's `run_helper` / `resume_helper`: its context assembled
 * (or its own conversation with the parent's answer), its outcome written to the board as drafts
 * (design) or live values with their code follow-ups (play), and the outcome as the machine's event.
 */
export async function runHelper(io: SessionIo, skillId: string, helperId: string, answer: string | null, work: Effect[]): Promise<void> {
  const pkg = io.deps.pkg;
  const skill = skillById(pkg, skillId) as StudioSkill;
  const started = io.now();
  let outcome: HelperOutcome;
  try {
    if (skill.executor === 'code') outcome = io.runCodeHelper(skill);
    else {
      let messages: ChatMessage[];
      if (answer !== null && io.snap.pendingHelper?.helperId === helperId) messages = [...io.snap.pendingHelper.messages, toolResultMessage('ask_user', { answer })];
      else messages = assembleHelperContext(pkg, skill, io.snap.board).messages;
      const design = io.snap.state.stage === 'design';
      const contract = {
        schemas: Object.fromEntries(skill.writes.map((t) => [t, pkg.tagDefs[t]?.schema])),
        ...(design ? { check: (values: Record<string, unknown>) => io.problems(values, 'helper') } : {}),
      };
      outcome = await runHelperLoop({ model: io.deps.model, skill, messages, now: io.now, contract });
    }
  } catch (err) {
    io.fail(err);
    return;
  }
  io.snap.pendingHelper = null;
  io.log('helper_run', { helperId, skill: skillId, outcome: outcome.kind, rounds: outcome.rounds, ms: io.now() - started, ...(outcome.kind === 'submitted' ? { tags: Object.keys(outcome.values) } : {}) });
  if (outcome.kind === 'asked') {
    io.snap.pendingHelper = { helperId, skill: skillId, messages: outcome.messages };
    io.dispatch({ type: 'helper_asked', helperId, question: outcome.question, options: outcome.options }, work);
    return;
  }
  if (outcome.kind === 'failed') {
    io.dispatch({ type: 'helper_failed', helperId, message: outcome.message }, work);
    return;
  }
  const submit = (board: bb.Blackboard, s: StudioSkill, values: Record<string, unknown>) => bb.submit(board, { helperId, skill: s.id, burst: io.snap.state.burstNo, at: io.now(), declaredWrites: s.writes, values });
  if (io.snap.state.stage !== 'play') {
    try {
      io.snap.board = submit(io.snap.board, skill, io.identified(outcome.values));
    } catch (err) {
      io.dispatch({ type: 'helper_failed', helperId, message: (err as Error).message }, work);
      return;
    }
    io.addUserMessage(toolResultMessage('run_helper', `${skillId} 交了草稿：${Object.keys(outcome.values).join('、')}，等家长验收`).content);
    io.dispatch({ type: 'helper_submitted', helperId, tags: Object.keys(outcome.values) }, work);
    return;
  }
  // Play: the skill, then its deterministic code follow-ups, all inside this one tool call (./play-skills.ts).
  const played = runPlaySkills({ pkg, board: io.snap.board, skill, values: outcome.values, submit, executors: io.deps.codeExecutors });
  if (played.lines) io.addUserMessage(toolResultMessage('run_helper', played.lines.join('\n')).content);
  if (!played.ok) {
    io.dispatch({ type: 'helper_failed', helperId, message: played.message }, work);
    return;
  }
  io.snap.board = played.board;
  io.dispatch({ type: 'helper_submitted', helperId, tags: played.tags, ...(played.reply ? { reply: played.reply } : {}) }, work);
}
