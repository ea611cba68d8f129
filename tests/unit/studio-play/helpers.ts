/** Fixtures for the studio play agent: a designed 恐龙问答 (through the real design flow), models, contexts. */
import 'fake-indexeddb/auto';
import { Book } from '../../../src/studio/book.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { loadPlayableGame, type PlayableGame } from '../../../src/studio/play-stage.ts';
import { StudioEngine, studioEngineFactory, type StudioEngineDeps } from '../../../src/studio/play/studio-engine.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import type { PlayRuntime } from '../../../src/studio/play/play-runtime.ts';
import { seededRandom } from '../../../src/core/random.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatModel, ScriptPolicy, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { gameInput, type GameInputKind, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameTurnContext } from '../../../src/core/protocol/handler.ts';
import type { PlayBook } from '../../../src/core/studio/types.ts';
import { clock, demoModel, quizPackage } from '../studio/helpers.ts';
import { FakeDevice, RecordingTrace } from '../games/helpers.ts';
import { GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';

export { FakeDevice, RecordingTrace };

let dbSeq = 0;

/**
 * Designs a game with the demo policies from the parent's words (恐龙问答 by default; the parent
 * takes every draft as it is) and loads it as a playable game.
 */
export async function designedGame(words = '给孩子做一个恐龙问答'): Promise<{ book: Book; bookName: string; game: PlayableGame }> {
  const bookName = `studio-play-${++dbSeq}`;
  const book = await Book.open(bookName);
  const pkg = quizPackage();
  await book.createProject(pkg, 'p1', 1);
  const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p1');
  await s.input(words);
  for (let i = 0; i < 10 && s.view.waiting?.kind === 'review_drafts'; i++) {
    const r = await s.acceptDraft();
    if (!r.ok) throw new Error(`accept: ${r.message}`);
  }
  const game = await loadPlayableGame(book, 'p1');
  if (!game) throw new Error('the design did not reach play');
  return { book, bookName, game };
}

/** The demo model with per-agent overrides, recording every request. */
export { demoModel };

/** A model whose manager steps can be held (to test cancellation) or failed. */
export class ControlledModel implements ChatModel {
  readonly label = 'controlled';
  requests: StepRequest[] = [];
  /** When set, the next manager step waits for this promise first. */
  hold: Promise<void> | null = null;
  /** Throws on the next step of these agents. */
  failNext = new Set<string>();
  private inner: ChatModel;
  constructor(overrides: Record<string, ScriptPolicy> = {}) {
    this.inner = demoModel(overrides).model;
  }
  /** From now on: the demo policies with these overrides. */
  use(overrides: Record<string, ScriptPolicy> = {}): void {
    this.inner = demoModel(overrides).model;
  }
  async step(req: StepRequest): Promise<Step> {
    this.requests.push(req);
    if (this.failNext.delete(req.agent)) throw Object.assign(new Error('模型坏了'), { code: 'model_failed' });
    if (this.hold && req.agent === 'studio:manager') {
      const h = this.hold;
      this.hold = null;
      await h; // deliberately ignores req.signal: the runtime must not need the model's cooperation
    }
    return this.inner.step(req);
  }
}

/** GameSessions over the Studio engine, with the runtime of each session reachable for assertions. */
export type StudioSessions = GameSessions & { runtimeOf(contextId: string): PlayRuntime | null };

export function harness(game: PlayableGame, model: ChatModel, extra: Partial<StudioEngineDeps> = {}) {
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  const saved: PlayBook[] = [];
  let load: () => Promise<PlayableGame | null> = async () => game;
  const engines = new Map<string, StudioEngine>();
  const source = `game:${game.declaration.id}`;
  const create = studioEngineFactory(() => load(), {
    model,
    device,
    trace,
    source,
    random: seededRandom(7),
    // The safety check a game worker gives its engines (the speaking path's: the rules and the learned classifier).
    safety: GAME_SAFETY_CHECK,
    savePlayBook: async (pb) => void saved.push(pb),
    // The model path: the package's reader is off unless a test turns it on (the app's path, shown in
    // tests/unit/games/readers.test.ts and the e2e), so a scripted model decides every step here.
    runtime: { now: clock(), preExecute: false },
    ...extra,
  });
  const sessions = new GameSessions({
    create: async (s) => {
      const engine = (await create(s)) as StudioEngine;
      engines.set(s.contextId, engine);
      return engine;
    },
    device,
    trace,
    source,
  });
  const handler: StudioSessions = Object.assign(sessions, { runtimeOf: (contextId: string) => engines.get(contextId)?.runtime ?? null });
  return {
    handler,
    device,
    trace,
    saved,
    setLoad(fn: () => Promise<PlayableGame | null>) {
      load = fn;
    },
    /** The last saved record of each PlayBook id. */
    books(): PlayBook[] {
      const m = new Map<string, PlayBook>();
      for (const pb of saved) m.set(pb.id, pb);
      return [...m.values()];
    },
  };
}

let req = 0;
export function ctx(contextId = 'ctx-1', signal: AbortSignal = new AbortController().signal): GameTurnContext & { said: string[] } {
  const said: string[] = [];
  return { contextId, requestId: `r${++req}`, signal, say: (t) => said.push(t), said };
}

export async function send(
  handler: GameSessions,
  kind: GameInputKind,
  text: string,
  contextId = 'ctx-1',
  signal?: AbortSignal,
): Promise<{ reply: GameReply; said: string[] }> {
  const c = ctx(contextId, signal);
  const reply = await handler.handle(gameInput(kind, text), c);
  return { reply, said: c.said };
}

export { createScriptedModel, clock };
