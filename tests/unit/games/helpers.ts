/** Small fakes for the game runtime tests: a recording device, a recording model, turn contexts. */
import type { EngineReply, GameEngine } from '../../../src/core/games/engine.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { isInputMessage, type SkillAgent } from '../../../src/games/skill-agent.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatModel, ScriptPolicy, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { gameInput, type GameInput, type GameInputKind, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameHandler, GameTurnContext } from '../../../src/core/protocol/handler.ts';
import type { DevicePort, DeviceResult, Drawing, Expression, Gesture, Progress, TextCard } from '../../../src/core/robot/types.ts';
import type { TraceEvent, TraceSink } from '../../../src/core/trace/types.ts';
export { deferred } from '../../support/deferred.ts';
import { childLines } from '../../../src/core/errors/catalogue.ts';
import { expect } from 'vitest';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Any of the ways the child may hear a catalogue code's sentence (fallbacks take turns among their variants). */
export function linesOf(code: string): RegExp {
  const lines = childLines(code);
  if (!lines.length) throw new Error(`no catalogue entry ${code}`);
  return new RegExp(`^(${lines.map(escapeRe).join('|')})$`);
}

/** An expected value matching any variant of a catalogue code's sentence. */
export function lineOf(code: string): string {
  return expect.stringMatching(linesOf(code)) as unknown as string;
}

export type DeviceCall =
  | { op: 'react'; expression: Expression; gesture: Gesture }
  | { op: 'showDrawing'; drawing: Drawing }
  | { op: 'showProgress'; progress: Progress }
  | { op: 'showText'; card: TextCard }
  | { op: 'idle' };

export class FakeDevice implements DevicePort {
  calls: DeviceCall[] = [];
  fail = false;
  private done(): DeviceResult {
    if (this.fail) throw new Error('robot unplugged');
    return { device_completed: true };
  }
  async react(expression: Expression, gesture: Gesture) {
    this.calls.push({ op: 'react', expression, gesture });
    if (this.fail) throw new Error('robot unplugged');
  }
  async showDrawing(drawing: Drawing) {
    this.calls.push({ op: 'showDrawing', drawing });
    return this.done();
  }
  async showProgress(progress: Progress) {
    this.calls.push({ op: 'showProgress', progress });
    return this.done();
  }
  async showText(card: TextCard) {
    this.calls.push({ op: 'showText', card });
    return this.done();
  }
  async idle() {
    this.calls.push({ op: 'idle' });
  }
  reacts(): string[] {
    return this.calls.flatMap((c) => (c.op === 'react' ? [`${c.expression}+${c.gesture}`] : []));
  }
}

export class RecordingTrace implements TraceSink {
  events: TraceEvent[] = [];
  record(e: TraceEvent) {
    this.events.push(e);
  }
}

/** A model that records every request, deciding with `decide` (raw: no decoding layer in between). */
export class RecordingModel implements ChatModel {
  readonly label = 'test';
  requests: StepRequest[] = [];
  /** What each request was answered with, in order. */
  decided: Array<Promise<Step>> = [];
  constructor(private decide: (req: StepRequest, n: number) => Step | Promise<Step>) {}
  async step(req: StepRequest): Promise<Step> {
    this.requests.push(req);
    const step = Promise.resolve(this.decide(req, this.requests.length));
    this.decided.push(step);
    return step;
  }
  /** The whole prompt text of every request (what a leak test scans). */
  prompts(): string[] {
    return this.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
  }
}

/** The demo policy behind the real model layer (decoding, validation), with every request recorded. */
export function scriptedRecording(agent: string, policy: ScriptPolicy): { model: ChatModel; requests: StepRequest[] } {
  const requests: StepRequest[] = [];
  const inner = createScriptedModel({ [agent]: policy });
  return {
    requests,
    model: {
      label: inner.label,
      step(req) {
        requests.push(req);
        return inner.step(req);
      },
    },
  };
}

export interface Said {
  intermediate: string[];
}

let seq = 0;
export function ctx(contextId = 'ctx-1', signal: AbortSignal = new AbortController().signal): GameTurnContext & Said {
  const intermediate: string[] = [];
  return { contextId, requestId: `req-${++seq}`, signal, say: (t) => intermediate.push(t), intermediate };
}

/**
 * Sends one input to a handler. `reply` is what the child heard in the turn as one reply: the
 * sentences sent at once (intermediate replies) and the final reply, joined, with the final
 * reply's session; `final` is the final reply itself.
 */
export async function send(
  handler: GameHandler,
  kind: GameInputKind,
  text: string,
  contextId = 'ctx-1',
): Promise<{ reply: GameReply; final: GameReply; intermediate: string[]; requestId: string }> {
  const c = ctx(contextId);
  const final = await handler.handle(gameInput(kind, text) as GameInput, c);
  return { reply: { ...final, text: [...c.intermediate, final.text].join('') }, final, intermediate: c.intermediate, requestId: c.requestId };
}

/** A random source that returns the given values in turn (then repeats the last). */
export function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
}

/** The random value that makes GuessNumberGame pick `secret` in 1..100. */
export function secretRandom(secret: number, min = 1, max = 100): number {
  return (secret - min + 0.5) / (max - min + 1);
}


/** One turn played by an engine directly (no session rules around it): its reply, or its EngineFailure. */
export function turn(engine: GameEngine, kind: GameInputKind, text: string, c: GameTurnContext & Said = ctx()): Promise<EngineReply> {
  return engine.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say });
}

/** The child's words of each remembered round of a SkillAgent, oldest first. */
export function rememberedInputs(agent: SkillAgent): string[] {
  return agent.conversation.filter(isInputMessage).map((m) => JSON.parse(m.content).user_text as string);
}

/** GameSessions over an engine factory, as a game worker builds it. */
export function sessions(create: () => GameEngine, device?: FakeDevice, trace?: RecordingTrace): GameSessions {
  return new GameSessions({ create, device, trace, source: 'game:test' });
}
