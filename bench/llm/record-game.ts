/**
 * Records a game agent's REAL model requests over one session, for any built-in game folder
 * `skills/<id>/` with `SKILL.md`, `game.ts` (createAgent) and `demo.ts` (policy):
 * the game's own SkillAgent, thinking through the scripted ChatModel that plays its demo policy
 * (wrapped to record every StepRequest), a robot that completes every command at once, and a
 * scripted child that decides what to say next from what the robot answered.
 *
 * Runs inside the Vite module runner (bench/llm/vite-runner.ts): game.ts imports `SKILL.md?raw`.
 * The inputs go through the one game runtime (src/games/game-sessions.ts): one session, inputs in
 * order, nothing more after a reply with `session: ended`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';
import type { ChatModel, ScriptPolicy, StepRequest } from '../../src/core/llm/types.ts';
import { gameInput, type GameInputKind, type GameReply } from '../../src/core/protocol/game-protocol.ts';
import type { DevicePort } from '../../src/core/robot/types.ts';
import type { TraceEvent } from '../../src/core/trace/types.ts';
import { seededRandom } from '../../src/core/random.ts';
import { GameSessions } from '../../src/games/game-sessions.ts';
import type { AgentDeps, SkillAgent } from '../../src/games/skill-agent.ts';

/** Built-in games: folders under skills/ with SKILL.md + game.ts + demo.ts (studio packages have none). */
export function discoverGames(root: string): string[] {
  const skills = join(root, 'skills');
  return readdirSync(skills, { withFileTypes: true })
    .filter((d) => d.isDirectory() && ['SKILL.md', 'game.ts', 'demo.ts'].every((f) => existsSync(join(skills, d.name, f))))
    .map((d) => d.name)
    .sort();
}

/** A model that records every request it is asked (without the AbortSignal) before answering. */
export function recordingModel(model: ChatModel, into: StepRequest[], outputs?: string[]): ChatModel {
  return {
    label: model.label,
    async step(req) {
      const { signal: _signal, onStream: _onStream, ...plain } = req;
      const index = into.push(structuredClone(plain)) - 1;
      const step = await model.step(req);
      // What the model wrote for this request, exactly (a local engine's cache holds this text).
      if (outputs) outputs[index] = step.raw ?? stepJson(step);
      return step;
    },
  };
}

/** A robot that does everything at once. */
export const instantDevice: DevicePort = {
  react: async () => {},
  showDrawing: async () => ({ device_completed: true }),
  showProgress: async () => ({ device_completed: true }),
  showText: async () => ({ device_completed: true }),
  idle: async () => {},
};

/** What the scripted child knows after each input. */
export interface ChildView {
  /** Inputs sent so far in this session. */
  inputs: number;
  /** The final reply to the last input (undefined before the first). */
  reply?: GameReply;
  /** Intermediate replies (`say`) of the last input. */
  said: string[];
  /** Game tools called during the last input, with their results (from the agent's trace). */
  tools: Array<{ name: string; args: unknown; result: unknown }>;
  /**
   * Secrets the game recorded for the parent's trace so far (e.g. `{number}`, `{answer}`), newest
   * last. A bench child may peek, so a session has wrong and right answers where the script wants them.
   */
  secrets: unknown[];
}

/** The next input, or null to stop (the session is then left as it is). */
export type Child = (view: ChildView) => { kind: GameInputKind; text: string } | null;

/** Works for any game: start, ask for a hint, say something that is no answer, guess, leave. */
export const genericChild: Child = ({ inputs }) =>
  [
    { kind: 'start' as const, text: '我们来玩吧' },
    { kind: 'message' as const, text: '给我一点提示' },
    { kind: 'message' as const, text: '嗯……我想想' },
    { kind: 'message' as const, text: '是一吗' },
    { kind: 'end' as const, text: '不玩了' },
  ][inputs] ?? null;

export interface RecordedTurn {
  input: { kind: GameInputKind; text: string };
  said: string[];
  reply: GameReply;
  /** Model steps this input took. */
  steps: number;
}

export interface RecordedSession {
  gameId: string;
  steps: StepRequest[];
  /** What the model wrote for each step, in order (parallel to `steps`). */
  outputs: string[];
  turns: RecordedTurn[];
}

const MAX_INPUTS = 30;

/** Plays one session of `skills/<gameId>/` with its demo policy and records every model request. */
/** `preExecute: false`: the model decides every step itself (the rules pre-execute nothing), as before the rules spoke first. */
export async function recordGame(gameId: string, child: Child = genericChild, opts: { seed?: number; preExecute?: boolean } = {}): Promise<RecordedSession> {
  const game = (await import(/* @vite-ignore */ `/skills/${gameId}/game.ts`)) as { createAgent?: (deps: AgentDeps) => SkillAgent };
  const demo = (await import(/* @vite-ignore */ `/skills/${gameId}/demo.ts`)) as { policy?: ScriptPolicy };
  if (typeof game.createAgent !== 'function') throw new Error(`skills/${gameId}/game.ts does not export createAgent`);
  if (typeof demo.policy !== 'function') throw new Error(`skills/${gameId}/demo.ts does not export policy`);

  const steps: StepRequest[] = [];
  const outputs: string[] = [];
  const events: TraceEvent[] = [];
  const model = recordingModel(createScriptedModel({ [`game:${gameId}`]: demo.policy }), steps, outputs);
  const random = seededRandom(opts.seed ?? 7);
  const trace = { record: (e: TraceEvent) => void events.push(e) };
  const sessions = new GameSessions({ create: () => game.createAgent!({ model, device: instantDevice, trace, random, ...(opts.preExecute === false ? { preExecute: false } : {}) }), device: instantDevice, trace, source: `game:${gameId}` });

  const turns: RecordedTurn[] = [];
  const view: ChildView = { inputs: 0, said: [], tools: [], secrets: [] };
  for (let i = 0; i < MAX_INPUTS; i++) {
    const next = child(view);
    if (!next) break;
    const said: string[] = [];
    const firstStep = steps.length;
    const firstEvent = events.length;
    const reply = await sessions.handle(gameInput(next.kind, next.text), {
      contextId: 'bench',
      requestId: `bench-${i + 1}`,
      signal: new AbortController().signal,
      say: (t: string) => void said.push(t),
    });
    turns.push({ input: next, said, reply, steps: steps.length - firstStep });
    const fresh = events.slice(firstEvent).filter((e) => e.kind === 'game_tool');
    view.inputs++;
    view.reply = reply;
    view.said = said;
    view.tools = fresh.flatMap((e) => {
      const d = e.data as { args?: unknown; result?: unknown } | null;
      return d && 'result' in d ? [{ name: e.name ?? '', args: d.args, result: d.result }] : [];
    });
    view.secrets.push(...fresh.flatMap((e) => ((e.data as { secret?: unknown } | null)?.secret !== undefined ? [(e.data as { secret: unknown }).secret] : [])));
    if (reply.session === 'ended') break;
  }
  return { gameId, steps, outputs, turns };
}
