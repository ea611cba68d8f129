/**
 * Runs the real agents over the eval's cases (bench/eval/cases.ts) with a given model: the main
 * agent (routing, every utterance through the model: no fast path), 猜数字 and 你画我猜 through the
 * arcade's game runtime, and a Studio design of 问答卡牌 followed by its play. Each scored item
 * says whether the brain took the expected action and whether its reply stated the right outcome.
 * Loaded through Vite (bench/llm/vite-runner.ts): game and Studio code uses Vite-only imports.
 */
import 'fake-indexeddb/auto';
import { instantGames } from '../main-agent/record.ts';
import { seededRandom } from '../../src/core/random.ts';
import { MainAgent } from '../../src/arcade/main-agent.ts';
import type { ArcadeGame } from '../../src/core/arcade/types.ts';
import type { ChatModel, Step, StepRequest } from '../../src/core/llm/types.ts';
import { gameInput, type GameInputKind } from '../../src/core/protocol/game-protocol.ts';
import type { TraceEvent } from '../../src/core/trace/types.ts';
import { GameSessions } from '../../src/games/game-sessions.ts';
import { GuessNumberAgent } from '../../skills/guess-number/game.ts';
import { DrawGuessAgent } from '../../skills/draw-guess/game.ts';
import { ANIMALS } from '../../skills/draw-guess/animals.ts';
import { numbersIn } from '../../skills/guess-number/numbers.ts';
import { Book } from '../../src/studio/book.ts';
import { discoverPackages } from '../../src/studio/bundled-packages.ts';
import { StudioSession } from '../../src/studio/studio-session.ts';
import { StudioEngine, studioEngineFactory } from '../../src/studio/play/studio-engine.ts';
import { loadPlayableGame } from '../../src/studio/play-stage.ts';
import { TURN_BUDGET_LIMITS } from '../../src/core/arcade/turn-budget.ts';
import { DRAW_GAMES, GUESS_GAMES, MAIN_CASES, STUDIO_DESIGN, STUDIO_PLAY, type GuessExpectation } from './cases.ts';
import type { DevicePort } from '../../src/core/robot/types.ts';

export interface ScoredItem {
  agent: 'main' | 'guess-number' | 'draw-guess' | 'studio-design' | 'studio-play';
  input: string;
  /** The expected action was taken (with the expected arguments). */
  actionOk: boolean;
  /** The reply stated the right outcome (true when the case checks no words). */
  replyOk: boolean;
  expected: string;
  got: string;
  /** Model steps this item took. */
  steps: number;
  error?: string;
  /** The item could not run (why): it is reported as "not run", never as a score of 0. */
  notRun?: string;
}

/** A model that records each step it decides (agent, action, arguments). */
function recording(model: ChatModel, steps: Array<{ agent: string; step: Step }>): ChatModel {
  return {
    label: model.label,
    async step(req: StepRequest) {
      const step = await model.step(req);
      steps.push({ agent: req.agent, step });
      return step;
    },
  };
}

const device: DevicePort = {
  react: async () => {},
  showDrawing: async () => ({ device_completed: true }),
  showProgress: async () => ({ device_completed: true }),
  showText: async () => ({ device_completed: true }),
  idle: async () => {},
};

const hasAny = (text: string, words?: string[]) => !words?.length || words.some((w) => text.includes(w));

// ---- main agent ----

const GAMES: ArcadeGame[] = [
  { declaration: { id: 'guess-number', title: '猜数字', description: '机器人想一个 1 到 100 的数字，小朋友来猜', aliases: ['猜数', '数字游戏'], capabilities: [], engine: 'skill' }, available: true },
  { declaration: { id: 'draw-guess', title: '你画我猜', description: '机器人画一个小动物，小朋友来猜', aliases: ['猜动物'], capabilities: [], engine: 'skill' }, available: true },
];

async function runMain(model: ChatModel, out: ScoredItem[]): Promise<void> {
  for (const c of MAIN_CASES) {
    const started: string[] = [];
    const said: string[] = [];
    const tools: string[] = [];
    const steps: Array<{ agent: string; step: Step }> = [];
    const agent = new MainAgent({
      model: () => recording(model, steps),
      games: instantGames((id) => started.push(id)),
      catalog: () => GAMES,
      speaker: {
        say: async (t: string) => {
          said.push(t);
          return { completed: true };
        },
        stop() {},
      } as never,
      trace: { record: (e: TraceEvent) => void (e.kind === 'main_tool' && e.name && tools.push(e.name)) },
      fastPath: false,
      // The eval measures choices, not speed: the longest budget a parent may set, so no "still thinking" line or fallback cuts in.
      budget: () => ({ stillThinkingMs: TURN_BUDGET_LIMITS.stillThinkingMs.max, answerMs: TURN_BUDGET_LIMITS.answerMs.max, colourMs: TURN_BUDGET_LIMITS.colourMs.max }),
    });
    const expected = `${c.action}${c.gameId ? `(${c.gameId})` : ''}${c.uses ? ` 经过 ${c.uses.join('、')}` : ''}`;
    try {
      if (c.state === 'in-game') {
        await agent.handle('我们玩猜数字吧');
        await agent.settled();
      }
      const [s0, t0, g0, n0] = [said.length, tools.length, started.length, steps.length];
      const r = await agent.handle(c.words);
      await agent.settled();
      const usedTools = tools.slice(t0);
      const spoken = said.slice(s0).join('');
      const actionOk =
        r.action === c.action && (!c.gameId || started.slice(g0).includes(c.gameId)) && (c.uses ?? []).every((u) => usedTools.includes(u));
      out.push({ agent: 'main', input: c.words, actionOk, replyOk: hasAny(spoken, c.says), expected, got: `${r.action}${started.length > g0 ? `(${started.slice(g0).join(',')})` : ''} [${usedTools.join(' → ')}]`, steps: steps.length - n0 });
    } catch (err) {
      out.push({ agent: 'main', input: c.words, actionOk: false, replyOk: false, expected, got: 'error', steps: 0, error: String((err as Error)?.message ?? err) });
    }
  }
}

// ---- games ----

type Sent = { text: string; session: string };

function sessionsFor<A>(create: () => A & { turn: unknown }) {
  let agent: A | undefined;
  const service = new GameSessions({ create: () => (agent = create()) as never, device, source: 'game:eval' });
  let n = 0;
  const send = async (kind: GameInputKind, text: string): Promise<Sent> => {
    const said: string[] = [];
    const reply = await service.handle(gameInput(kind, text), { contextId: 'eval', requestId: `eval-${++n}`, signal: new AbortController().signal, say: (t) => void said.push(t) });
    return { text: [...said, reply.text].join(''), session: reply.session };
  };
  return { send, agent: () => agent! };
}

/** What a 猜数字 turn should do (the rules of skills/guess-number/SKILL.md). */
export function guessExpectation(words: string, secret: number): GuessExpectation {
  if (/不玩|不想玩|结束/.test(words)) return { tool: 'end_game', says: [String(secret)] };
  if (/提示/.test(words)) return { tool: 'get_hint' };
  const n = numbersIn(words).at(-1);
  if (n === undefined) return { says: ['数字'] };
  return { tool: 'submit_guess', number: n, says: n < secret ? ['小了', '大一点'] : n > secret ? ['大了', '小一点'] : ['对', '棒', `就是 ${n}`] };
}

function turnSteps(steps: Array<{ agent: string; step: Step }>, from: number) {
  return steps.slice(from).filter((s) => s.agent.startsWith('game:')).map((s) => s.step);
}

async function runGuess(model: ChatModel, out: ScoredItem[]): Promise<void> {
  for (const g of GUESS_GAMES) {
    const steps: Array<{ agent: string; step: Step }> = [];
    const m = recording(model, steps);
    const { send } = sessionsFor(() => new GuessNumberAgent({ model: m, device, random: () => (g.secret - 1 + 0.5) / 100 }));
    const turns: Array<{ kind: GameInputKind; words: string; expect: GuessExpectation }> = [
      { kind: 'start', words: '我们玩猜数字吧', expect: { tool: 'start_game', says: ['1 到 100'] } },
      ...g.turns.map((w) => ({ kind: 'message' as const, words: w, expect: guessExpectation(w, g.secret) })),
    ];
    for (const t of turns) {
      const from = steps.length;
      const expected = `${t.expect.tool ?? '不调用判定工具'}${t.expect.number !== undefined ? `(${t.expect.number})` : ''}${t.expect.says ? ` 并说“${t.expect.says.join('/')}”` : ''}`;
      try {
        const r = await send(t.kind, t.words);
        const taken = turnSteps(steps, from);
        const actionOk = t.expect.tool
          ? taken.some((s) => s.action === t.expect.tool && (t.expect.number === undefined || s.args.number === t.expect.number))
          : !taken.some((s) => s.action === 'submit_guess' || s.action === 'end_game');
        out.push({ agent: 'guess-number', input: t.words, actionOk, replyOk: hasAny(r.text, t.expect.says), expected, got: `${taken.map((s) => s.action + (s.args.number !== undefined ? `(${s.args.number})` : '')).join(' → ')}：${r.text}`, steps: steps.length - from });
        if (r.session === 'ended') break;
      } catch (err) {
        out.push({ agent: 'guess-number', input: t.words, actionOk: false, replyOk: false, expected, got: 'error', steps: steps.length - from, error: String((err as Error)?.message ?? err) });
      }
    }
  }
}

async function runDraw(model: ChatModel, out: ScoredItem[]): Promise<void> {
  for (const [i, game] of DRAW_GAMES.entries()) {
    const steps: Array<{ agent: string; step: Step }> = [];
    const m = recording(model, steps);
    const random = seededRandom(i + 1);
    const { send, agent } = sessionsFor(() => new DrawGuessAgent({ model: m, device, random }));
    const turns = [{ kind: 'start' as const, words: '我们玩你画我猜吧' }, ...game.map((w) => ({ kind: 'message' as const, words: w }))];
    for (const t of turns) {
      const from = steps.length;
      const a = t.kind === 'message' ? agent() : undefined;
      const right = a?.game.card.name ?? '';
      const wrong = ANIMALS.find((x) => x.name !== right)?.name ?? '';
      const words = t.words.replace(/RIGHT/g, right).replace(/WRONG/g, wrong);
      let expect: { tool: string; text?: string; says?: string[] };
      if (t.kind === 'start') expect = { tool: 'show_drawing' };
      else if (/不玩|不想玩|结束/.test(words)) expect = { tool: 'end_game' };
      else if (/提示/.test(words)) expect = { tool: 'get_hint' };
      else if (/跳过|换一题/.test(words)) expect = { tool: 'skip_question' };
      else expect = { tool: 'submit_answer', text: words, says: t.words.includes('RIGHT') ? ['对', '棒', '厉害'] : ['不对', '不是', '再猜', '再想'] };
      const expected = `${expect.tool}${expect.text ? `(${expect.text})` : ''}${expect.says ? ` 并说“${expect.says.join('/')}”` : ''}`;
      try {
        const r = await send(t.kind, words);
        const taken = turnSteps(steps, from);
        const actionOk = taken.some((s) => s.action === expect.tool && (expect.text === undefined || s.args.text === expect.text));
        out.push({ agent: 'draw-guess', input: words, actionOk, replyOk: hasAny(r.text, expect.says), expected, got: `${taken.map((s) => s.action).join(' → ')}：${r.text}`, steps: steps.length - from });
        if (r.session === 'ended') break;
      } catch (err) {
        out.push({ agent: 'draw-guess', input: words, actionOk: false, replyOk: false, expected, got: 'error', steps: steps.length - from, error: String((err as Error)?.message ?? err) });
      }
    }
  }
}

// ---- Studio ----

function clock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => (t += 1000);
}

let dbSeq = 0;

async function runStudio(model: ChatModel, out: ScoredItem[]): Promise<void> {
  const found = discoverPackages().find((p) => (p.ok ? p.pkg.id : p.packageId) === 'quiz-cards');
  if (!found?.ok) throw new Error('the quiz-cards package did not load');
  const pkg = found.pkg;
  const book = await Book.open(`eval-${Date.now()}-${++dbSeq}`);
  await book.createProject(pkg, 'p1', 1);
  const steps: Array<{ agent: string; step: Step }> = [];
  const s = StudioSession.create({ pkg, model: recording(model, steps), store: book, now: clock() }, 'p1');
  for (const d of STUDIO_DESIGN) {
    const from = steps.length;
    const input = d.kind === 'input' ? d.text : `${d.kind === 'accept' ? '采用' : '驳回'} ${d.text}${d.reason ? `（${d.reason}）` : ''}`;
    const expected = d.drafts ? `黑板上有 ${d.drafts}` : '接受这一步';
    try {
      const r = d.kind === 'input' ? await s.input(d.text) : d.kind === 'accept' ? await s.accept(d.text) : await s.reject(d.text, d.reason ?? '');
      const tag = d.drafts ? s.view.board.tags[d.drafts] : undefined;
      const actionOk = r.ok && (!d.drafts || !!tag);
      out.push({ agent: 'studio-design', input, actionOk, replyOk: actionOk, expected, got: r.ok ? (tag ? `${d.drafts}：${tag.status}` : 'ok') : `失败：${r.message}`, steps: steps.length - from });
    } catch (err) {
      out.push({ agent: 'studio-design', input, actionOk: false, replyOk: false, expected, got: 'error', steps: steps.length - from, error: String((err as Error)?.message ?? err) });
    }
  }
  const game = await loadPlayableGame(book, 'p1');
  if (!game) {
    for (const p of STUDIO_PLAY) out.push({ agent: 'studio-play', input: p.text, actionOk: false, replyOk: false, expected: '设计完成后可以玩', got: '设计没有完成', steps: 0, notRun: '设计没有完成' });
    return;
  }
  let engine: StudioEngine | null = null;
  const create = studioEngineFactory(async () => game, { model: recording(model, steps), device, source: `game:${game.declaration.id}`, random: () => 0.5, runtime: { now: clock() } });
  const handler = new GameSessions({ create: async (x) => (engine = (await create(x)) as StudioEngine), device, source: `game:${game.declaration.id}` });
  let n = 0;
  for (const p of STUDIO_PLAY) {
    const card = engine ? (engine as StudioEngine).runtime?.currentCard : undefined;
    const right = card?.answer ?? '';
    const wrong = game.cards.find((c) => c.cardId !== card?.cardId)?.answer ?? '';
    const words = p.text.replace(/RIGHT/g, right).replace(/WRONG/g, wrong);
    const from = steps.length;
    try {
      const said: string[] = [];
      const reply = await handler.handle(gameInput(p.kind, words), { contextId: 'eval', requestId: `eval-${++n}`, signal: new AbortController().signal, say: (t) => void said.push(t) });
      const text = [...said, reply.text].join('');
      const ok = reply.text.trim().length > 0;
      out.push({ agent: 'studio-play', input: words, actionOk: ok, replyOk: hasAny(text, p.says), expected: p.says ? `说“${p.says.join('/')}”` : '有回答', got: text, steps: steps.length - from });
      if (reply.session === 'ended') break;
    } catch (err) {
      out.push({ agent: 'studio-play', input: words, actionOk: false, replyOk: false, expected: '有回答', got: 'error', steps: steps.length - from, error: String((err as Error)?.message ?? err) });
    }
  }
}

export async function runAll(model: ChatModel, only?: string[]): Promise<ScoredItem[]> {
  const out: ScoredItem[] = [];
  const want = (k: string) => !only?.length || only.includes(k);
  if (want('main')) await runMain(model, out);
  if (want('guess-number')) await runGuess(model, out);
  if (want('draw-guess')) await runDraw(model, out);
  if (want('studio')) await runStudio(model, out);
  return out;
}
