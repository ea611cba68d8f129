/**
 * Records the Studio's REAL model requests with its demo policies (src/studio/studio-demo-policies.ts):
 * - a design session of 问答卡牌 (the parent asks for a quiz, answers the theme question, rejects
 *   one deck as too hard, accepts the rest) — the manager and every design helper;
 * - a play session of the designed game through the arcade's game runtime (GameSessions →
 *   StudioEngine → PlayRuntime): start, a wrong answer, the right one, "不知道", the right one, and `end`.
 * Runs inside the Vite module runner (package discovery uses `import.meta.glob`); the Book lives
 * in fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import type { StepRequest } from '../../src/core/llm/types.ts';
import { gameInput, type GameInputKind, type GameReply } from '../../src/core/protocol/game-protocol.ts';
import { Book } from '../../src/studio/book.ts';
import { studioDemoPolicies } from '../../src/studio/studio-demo-policies.ts';
import { type SkillPackage } from '../../src/core/studio/package-loader.ts';
import { discoverPackages } from '../../src/studio/bundled-packages.ts';
import { StudioSession } from '../../src/studio/studio-session.ts';
import { GameSessions } from '../../src/games/game-sessions.ts';
import { StudioEngine, studioEngineFactory } from '../../src/studio/play/studio-engine.ts';
import { loadPlayableGame } from '../../src/studio/play-stage.ts';
import { instantDevice, recordingModel } from './record-game.ts';

function quizPackage(): SkillPackage {
  const r = discoverPackages().find((p) => (p.ok ? p.pkg.id : p.packageId) === 'quiz-cards');
  if (!r?.ok) throw new Error(`quiz-cards did not load: ${r && !r.ok ? r.errors.join('\n') : 'missing'}`);
  return r.pkg;
}

function clock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => (t += 1000);
}

function must(r: { ok: boolean; message?: string }, what: string): void {
  if (!r.ok) throw new Error(`${what}: ${r.message}`);
}

export interface StudioRecording {
  /** Every request of the design session, in the order sent. */
  design: StepRequest[];
  /** Every request of the play session, in the order sent. */
  play: StepRequest[];
  /** What the model wrote for each play request (parallel to `play`). */
  playOutputs: string[];
  /** The play session's inputs, what the child heard, the final replies, and the model steps each took. */
  turns: Array<{ kind: GameInputKind; text: string; said: string[]; reply: GameReply; steps: number }>;
}

let dbSeq = 0;

/** `preExecute: false`: the play's model decides every step (the rules pre-execute nothing). */
export async function recordStudio(opts: { preExecute?: boolean } = {}): Promise<StudioRecording> {
  const pkg = quizPackage();
  const book = await Book.open(`bench-llm-${Date.now()}-${++dbSeq}`);
  await book.createProject(pkg, 'p1', 1);

  const design: StepRequest[] = [];
  const s = StudioSession.create({ pkg, model: recordingModel(createScriptedModel(studioDemoPolicies), design), store: book, now: clock() }, 'p1');
  must(await s.input('我想给5岁的孩子做一个问答卡牌游戏'), 'input');
  must(await s.accept('设计.交互范式'), 'accept 交互范式');
  must(await s.accept('设计.run_skill清单'), 'accept run_skill清单');
  must(await s.input('恐龙'), 'answer the theme question');
  must(await s.accept('设计.主题'), 'accept 主题');
  must(await s.reject('设计.卡牌', '太难了，换简单一点的'), 'reject 卡牌');
  for (const t of ['设计.卡牌', '设计.角色']) must(await s.accept(t), `accept ${t}`);
  const game = await loadPlayableGame(book, 'p1');
  if (!game) throw new Error('the design did not reach the play stage');

  const play: StepRequest[] = [];
  const playOutputs: string[] = [];
  let engine: StudioEngine | null = null;
  const create = studioEngineFactory(async () => game, {
    model: recordingModel(createScriptedModel(studioDemoPolicies), play, playOutputs),
    device: instantDevice,
    source: `game:${game.declaration.id}`,
    random: () => 0.5,
    runtime: { now: clock(), ...(opts.preExecute === false ? { preExecute: false } : {}) },
  });
  const handler = new GameSessions({
    create: async (s) => (engine = (await create(s)) as StudioEngine),
    device: instantDevice,
    source: `game:${game.declaration.id}`,
  });
  const runtime = () => engine?.runtime;
  const turns: StudioRecording['turns'] = [];
  let n = 0;
  const send = async (kind: GameInputKind, text: string) => {
    const said: string[] = [];
    const first = play.length;
    const reply = await handler.handle(gameInput(kind, text), { contextId: 'bench', requestId: `bench-${++n}`, signal: new AbortController().signal, say: (t) => void said.push(t) });
    turns.push({ kind, text, said, reply, steps: play.length - first });
    return reply;
  };
  const card = () => runtime()!.currentCard!;

  await send('start', '我们玩恐龙问答吧');
  const other = game.cards.find((c) => c.cardId !== card().cardId)!;
  await send('message', `是${other.answer}吗`);
  await send('message', `我知道了，是${card().answer}`);
  await send('message', '我不知道');
  if (runtime() && !runtime()!.ended) await send('message', card().answer);
  await send('end', '不玩了');
  return { design, play, playOutputs, turns };
}
