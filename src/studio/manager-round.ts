/**
 * The Studio manager's part of a burst (./studio-session.ts): the agent tool loop over the tools
 * the phase machine allows now. Loop tools read the board; a boundary tool's event is dispatched by
 * the tool itself; in play, what the manager says goes out sentence by sentence (./play-words.ts).
 */
import { errorOf } from '../core/agent/messages.ts';
import { runToolLoop, ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import type { ChatMessage, ToolSpec } from '../core/llm/types.ts';
import * as bb from '../core/studio/blackboard.ts';
import { managerToolSpecs, MANAGER_AGENT, parseManagerStep, runLoopTool } from '../core/studio/manager-tools.ts';
import { allowedTools, isLoopTool, type Effect } from '../core/studio/phase-machine.ts';
import { RUN_SKILL_LIST } from '../core/studio/planner.ts';
import type { SessionIo } from './session-types.ts';

/**
 * The manager's part of a burst: the agent tool loop over the tools the phase machine allows now,
 * with the burst's remaining rounds as its step budget. Every step is an event for the machine
 * (a loop tool, a refused step); a boundary tool's event is dispatched by the tool itself and
 * ends the loop, and the machine's effects (run a helper, wait, reply) continue the drive.
 */
export async function managerRound(io: SessionIo, work: Effect[]): Promise<void> {
  const s = io.snap.state;
  const reader = s.stage === 'play' && !io.modelStepped ? io.deps.reader : undefined;
  let outcome;
  try {
    outcome = await runToolLoop({
      agent: MANAGER_AGENT,
      model: io.deps.model,
      messages: io.snap.manager,
      tools: () => managerTools(io, work),
      maxSteps: Math.max(1, s.burstCap - s.burst),
      now: io.now,
      ...(reader ? { pre: (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => reader({ messages, tools }) } : {}),
      onStep: (r) => {
        if (!r.pre) io.modelStepped = true;
        io.log('tool_call', { tool: r.step.action, args: r.step.args, kind: r.refused ? 'invalid' : r.kind });
        // The loop goes on by itself: a step's `call_model` effect is not queued again.
        if (r.refused) io.dispatch({ type: 'agent_tool_error', message: errorOf(r.result) ?? '' }, []);
        else if (r.kind === 'loop') io.dispatch({ type: 'agent_loop_tool', name: r.step.action }, []);
      },
    });
  } catch (err) {
    io.fail(err);
    return;
  }
  io.snap.manager = outcome.messages;
}

/** The manager's tool registry now: loop tools read the board; boundary tools become phase events. */
function managerTools(io: SessionIo, work: Effect[]): AgentTool[] {
  const s = io.snap.state;
  const allowed = allowedTools(s);
  const runSkills = s.stage === 'play' ? (bb.acceptedValue<string[]>(io.snap.board, RUN_SKILL_LIST) ?? []) : [];
  return managerToolSpecs(io.deps.pkg, s, allowed, runSkills).map((spec): AgentTool => {
    if (isLoopTool(spec.name)) return { ...spec, kind: 'loop', perform: () => runLoopTool(spec.name, io.deps.pkg, io.snap.board) };
    // In play, what the manager says to the child goes out sentence by sentence as it is written, each sentence checked first.
    const speaks = s.stage === 'play' && (spec.name === 'reply' || spec.name === 'finish');
    const stream = speaks ? io.playWords.step() : null;
    return {
          ...spec,
          kind: 'boundary',
          ...(stream ? { streamText: (text: string, attempt: number) => io.playWords.update(stream, text, attempt, spec.name !== 'finish') } : {}),
          perform: (raw) => {
            const args = stream && typeof raw.text === 'string' ? { ...raw, text: io.playWords.finalText(stream, raw.text.trim(), spec.name !== 'finish') } : raw;
            const parsed = parseManagerStep({ action: spec.name, args }, allowed, io.deps.pkg, s.stage, () => `w${++io.snap.seq}`);
            if (parsed.kind === 'invalid') throw new ToolError(parsed.message);
            if (parsed.kind !== 'boundary') throw new ToolError(`「${spec.name}」不是边界工具`);
            const r = io.dispatch(parsed.event, work);
            if (!r.ok) throw new ToolError(r.message);
            if (parsed.event.type === 'agent_run_helper' && s.stage === 'design') io.say({ who: 'agent', text: `我来想想${io.skillTitle(parsed.event.skill)}……` });
            return { ok: true };
          },
        };
  });
}
