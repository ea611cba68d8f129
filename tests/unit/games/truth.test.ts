/**
 * The truth check: what a reply may claim, per game (pure rules over the turn's tool results and the
 * game's state), and what the engine does with a reply that claims what the rules did not decide —
 * refused back to the model before the child hears it, then the rules' own line.
 */
import { describe, expect, it, vi } from 'vitest';
import { checkSentence, TRUTH_RETRIES, type TruthRules, type TurnResult } from '../../../src/core/games/truth.ts';
import type { Step, StepRequest } from '../../../src/core/llm/types.ts';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import { call, lastOf, readTurn, reply } from '../../../src/core/games/demo-kit.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { DEFAULT_CONFIG, GuessNumberGame } from '../../../skills/guess-number/rules.ts';
import { truth as guessTruth } from '../../../skills/guess-number/truth.ts';
import { DrawGuessAgent } from '../../../skills/draw-guess/game.ts';
import { truth as drawTruth } from '../../../skills/draw-guess/truth.ts';
import { ANIMALS } from '../../../skills/draw-guess/animals.ts';
import { DEFAULT_CONFIG as DRAW_CONFIG, DrawGuessGame, type Card } from '../../../skills/draw-guess/rules.ts';
import { truth as quizTruth } from '../../../skills/quiz-cards/truth.ts';
import type { CardAsset } from '../../../src/core/studio/types.ts';
import { EngineFailure } from '../../../src/core/games/engine.ts';
import { ctx, FakeDevice, RecordingTrace, secretRandom, send } from './helpers.ts';
import { pacedModel } from '../../support/paced-model.ts';

const ok = (rules: TruthRules, s: string) => checkSentence(s, rules) === null;

describe('猜数字 truth rules', () => {
  // The secret is 63; 50 was judged too small in this turn.
  const game = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(63));
  game.start();
  const verdict = { result: game.guess(50), number: 50, tries_left: game.triesLeft };
  const results: TurnResult[] = [{ name: 'submit_guess', args: { number: 50 }, result: verdict }];
  const rules = guessTruth({ results, state: game, heard: '我猜50' });

  it.each([
    ['50 小了！', true],
    ['再大一点哦，还有 6 次机会。', true],
    ['你还没猜对哦。', true],
    ['它比 50 大。', true],
    ['答案在 51 到 100 之间。', true],
    ['是 63 吗？', false],
    ['太棒了，你猜对了！', false],
    ['50 大了！', false],
    ['再小一点。', false],
    ['还剩 5 次机会。', false],
    ['答案是 63。', false],
    ['它比 70 小。', false],
    ['这个数字是双数。', false],
    ['没关系，下次一定能猜中！', true],
  ])('%s → %s', (s, allowed) => {
    expect(ok(rules, s)).toBe(allowed);
  });

  it('a refusal never tells the model which number is the answer (the same reason for any number)', () => {
    const reasons = ['是 63 吗？', '是 64 吗？', '是 12 吗？'].map((s) => checkSentence(s, rules)?.reason);
    expect(new Set(reasons).size).toBe(1);
    expect(reasons[0]).not.toContain('63');
  });

  it('after the game is over the answer may be said', () => {
    const g = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(63));
    g.start();
    g.end();
    const r = guessTruth({ results: [{ name: 'end_game', args: {}, result: { ended: true, answer: 63 } }], state: g, heard: '不玩了' });
    expect(ok(r, '答案是 63。')).toBe(true);
    expect(ok(r, '答案是 62。')).toBe(false);
    expect(r.fallback()).toBe('好的，这局先玩到这里。答案是 63，下次再来玩吧！');
  });

  it('the line built from the tool results says what was decided', () => {
    expect(rules.fallback()).toBe('50 小了！再大一点哦，还有 6 次机会。');
    expect(guessTruth({ results: [], state: game, heard: '你好' }).fallback()).toBeNull();
  });
});

describe('你画我猜 truth rules', () => {
  const deck = ANIMALS as readonly Card[];
  const vocabulary = deck.map((c) => ({ name: c.name, aliases: [...c.aliases] }));
  function setup() {
    const game = new DrawGuessGame(deck, DRAW_CONFIG, () => 0);
    game.start();
    return game;
  }

  it('names no animal of the game before its question is over, unless the child said it', () => {
    const game = setup();
    // The seeded game asks 狗 first, then 兔子.
    expect(game.card.name).toBe('狗');
    const ahead = setup();
    ahead.skip();
    ahead.next();
    expect(ahead.card.name).toBe('兔子');
    const rules = drawTruth({ results: [], state: { game, animals: vocabulary }, heard: '是猫吗' });
    expect(ok(rules, '是狗吗？')).toBe(false);
    expect(ok(rules, '下一题是兔子。')).toBe(false);
    expect(ok(rules, '是猫吗？')).toBe(true); // the child said it
    expect(ok(rules, '马上就画好啦。')).toBe(true);
  });

  it('答对了 only after a correct verdict, 不对 only after a wrong one, and the counts as they are', () => {
    const game = setup();
    const wrong: TurnResult[] = [{ name: 'submit_answer', args: { text: '是猫吗' }, result: { verdict: 'wrong', heard: '猫', attempts_left: 2 } }];
    game.answer(false);
    const rules = drawTruth({ results: wrong, state: { game, animals: vocabulary }, heard: '是猫吗' });
    expect(game.card.name).toBe('狗');
    expect(ok(rules, '不是猫哦！')).toBe(true);
    expect(ok(rules, '答对啦！')).toBe(false);
    expect(ok(rules, '还有 2 次机会。')).toBe(true);
    expect(ok(rules, '还有 3 次机会。')).toBe(false);
    expect(ok(rules, '你答对了 1 题。')).toBe(false);
    expect(rules.fallback()).toBe('不是猫哦！再猜猜看，还有 2 次机会。');
  });
});

describe('问答卡牌 truth rules (from its 运行.* tags)', () => {
  const card = (id: string, answer: string, aliases: string[] = []): CardAsset => ({ projectId: 'p', cardId: id, kind: 'question', prompt: '?', answer, aliases, hints: [], difficulty: 1 });
  const cards = [card('c1', '霸王龙', ['暴龙']), card('c2', '三角龙')];

  it('claims only what judge-answer and keep-score decided; the card on the table stays unnamed', () => {
    const score = { score: 2, correct: 1, played: 2 };
    const judgedRight = quizTruth({ results: [], state: { changes: { verdict: { result: '对' }, judgedCard: cards[0], score, unit: 'cards' }, cards, used: ['c1', 'c2'], current: cards[1] }, heard: '霸王龙' });
    expect(ok(judgedRight, '答对了！')).toBe(true);
    expect(ok(judgedRight, '你得了 2 分。')).toBe(true);
    expect(ok(judgedRight, '你得了 3 分。')).toBe(false);
    expect(ok(judgedRight, '霸王龙最厉害。')).toBe(true);
    expect(ok(judgedRight, '下一张是三角龙。')).toBe(false);
    const judgedWrong = quizTruth({ results: [], state: { changes: { verdict: { result: '错' }, judgedCard: cards[1], score, unit: 'cards' }, cards, used: ['c1', 'c2'], current: cards[1] }, heard: '是翼龙' });
    expect(ok(judgedWrong, '答对了！')).toBe(false);
    expect(ok(judgedWrong, '不对哦。')).toBe(true);
    expect(judgedWrong.fallback()).toBe('不对哦，再想一想。你现在得了 2 分。');
  });
});

/** 猜数字 with a model that judges the guess, then says `lies` (one per reply step) before telling the truth, if ever. */
function lyingGame(lies: string[], opts: { stream?: boolean } = {}) {
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  let replies = 0;
  const policy = (req: StepRequest): Step => {
    const last = readToolResult(req.messages.at(-1)!);
    if (req.messages.at(-1)!.content.includes('"event":"start"') && !last) return { action: 'start_game', args: {} };
    if (last?.name === 'start_game') return { action: 'reply', args: { text: '开始啦，猜吧！' } };
    if (!last) return { action: 'submit_guess', args: { number: 50 } };
    const lie = lies[replies++];
    return { action: 'reply', args: { text: lie ?? '50 小了！再大一点哦，还有 6 次机会。' } };
  };
  const model = opts.stream ? pacedModel({ 'game:guess-number': policy }, { chunkChars: 2, delayMs: 0 }) : createScriptedModel({ 'game:guess-number': policy });
  const service = new GameSessions({ create: () => new GuessNumberAgent({ model, device, random: () => secretRandom(63), trace, preExecute: false }), device, trace, source: 'game:test' });
  return { service, trace };
}

describe('a reply that claims what the rules did not decide', () => {
  it('is refused before the child hears it (also while it streams), and the model tells the truth next', async () => {
    const { service, trace } = lyingGame(['太棒了，你猜对了！'], { stream: true });
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜50');
    expect(r.reply.text).toBe('50 小了！再大一点哦，还有 6 次机会。');
    expect(r.reply.text).not.toContain('猜对');
    expect(trace.events.filter((e) => e.name === 'truth')).toHaveLength(1);
  });

  it(`after ${TRUTH_RETRIES} refusals the engine says the line built from the tool results`, async () => {
    const { service } = lyingGame(['太棒了，你猜对了！', '还剩 7 次机会。', '答案是 63。', '你赢了！']);
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜50');
    expect(r.reply).toMatchObject({ text: '50 小了！再大一点哦，还有 6 次机会。', session: 'active' });
  });

  it('a sentence said before the false one stays said, once', async () => {
    const { service } = lyingGame(['50 小了！太棒了，你猜对了！'], { stream: true });
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜50');
    expect(r.intermediate).toEqual(['50 小了！']);
    expect(r.final.text).toBe('再大一点哦，还有 6 次机会。');
  });
});

describe('the answer is always told when a session ends', () => {
  function guessGame(decide: (req: StepRequest) => Step | Promise<Step>) {
    const device = new FakeDevice();
    const model = createScriptedModel({ 'game:guess-number': decide });
    return new GameSessions({ create: () => new GuessNumberAgent({ model, device, random: () => secretRandom(63), preExecute: false }), device, source: 'game:test' });
  }

  const normal = (req: StepRequest): Step => {
    const v = readTurn(req);
    if (v.event === 'start') return lastOf(v, 'start_game') ? reply('猜吧！') : call('start_game');
    return lastOf(v, 'end_game') ? reply('好的，再见！') : call('end_game');
  };

  it('end: the model calls end_game but does not say the number → it is appended', async () => {
    const s = guessGame(normal);
    await send(s, 'start', '玩');
    const r = await send(s, 'end', '不玩了');
    expect(r.reply).toMatchObject({ session: 'ended', text: '好的，再见！这局我想的数字是 63。' });
  });

  it('a model that fails at the end (no end_game, no reply) → the goodbye fallback, with the number', async () => {
    const s = guessGame((req) => (readTurn(req).event === 'end' ? ({ raw: 'not json' } as never) : normal(req)));
    await send(s, 'start', '玩');
    const r = await send(s, 'end', '不玩了');
    expect(r.reply.session).toBe('ended');
    expect(r.reply.text).toMatch(/这局我想的数字是 63。$/);
  });

  it('a start whose model fails after start_game: the child hears the start from the tool result, and the number at the end', async () => {
    const s = guessGame((req) => (readTurn(req).event === 'start' && lastOf(readTurn(req), 'start_game') ? ({ raw: '{oops' } as never) : normal(req)));
    const r = await send(s, 'start', '玩');
    expect(r.reply).toMatchObject({ session: 'active', text: '我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧！' });
    const ended = await send(s, 'end', '不玩了');
    expect(ended.reply.text).toBe('好的，再见！这局我想的数字是 63。');
  });

  it('no reveal when the child was told (the model said it, or the child guessed it)', async () => {
    const s = guessGame((req) => (readTurn(req).event === 'end' && lastOf(readTurn(req), 'end_game') ? reply('答案是 63，再见！') : normal(req)));
    await send(s, 'start', '玩');
    const r = await send(s, 'end', '不玩了');
    expect(r.reply.text).toBe('答案是 63，再见！');
  });

  it('你画我猜: ending mid-question tells that question\'s animal', async () => {
    const device = new FakeDevice();
    const model = createScriptedModel({
      'game:draw-guess': (req) => {
        const last = readToolResult(req.messages.at(-1)!)?.name;
        if (req.messages.at(-1)!.content.includes('"event":"end"')) return { action: 'end_game', args: {} };
        if (last === 'end_game') return { action: 'reply', args: { text: '好的，再见！' } };
        return last === 'start_game' ? { action: 'reply', args: { text: '猜猜看！' } } : { action: 'start_game', args: {} };
      },
    });
    const agents: DrawGuessAgent[] = [];
    const s = new GameSessions({ create: () => (agents.push(new DrawGuessAgent({ model, device, random: () => 0, preExecute: false })), agents.at(-1)!), device, source: 'game:test' });
    await send(s, 'start', '玩');
    const animal = agents[0].game.card.name;
    const r = await send(s, 'end', '不玩了');
    expect(r.reply.text).toBe(`好的，再见！这一题的答案是${animal}。`);
  });
});

describe("a turn's deadline", () => {
  it('a model that hangs after judging: by the deadline the child hears the verdict the rules decided', async () => {
    const device = new FakeDevice();
    const model = {
      label: 'hangs',
      step: (req: StepRequest): Promise<Step> => {
        const last = readToolResult(req.messages.at(-1)!);
        if (!last && req.messages.at(-1)!.content.includes('"event":"message"')) return Promise.resolve({ action: 'submit_guess', args: { number: 50 } });
        return new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
    };
    vi.useFakeTimers();
    try {
      const agent = new GuessNumberAgent({ model, device, random: () => secretRandom(63), preExecute: false });
      agent.game.start();
      const c = ctx();
      const turn = agent.turn({ kind: 'message', text: '我猜50', requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 300 });
      await vi.advanceTimersByTimeAsync(300);
      expect(await turn).toEqual({ text: '50 小了！再大一点哦，还有 6 次机会。', ended: false });
      // Nothing decided and the deadline passes: a failure (GameSessions says its fallback).
      const c2 = ctx();
      const nothing = agent.turn({ kind: 'message', text: '你好', requestId: c2.requestId, contextId: c2.contextId, signal: c2.signal, say: c2.say, deadline: Date.now() + 200 }).catch((e) => e);
      await vi.advanceTimersByTimeAsync(200);
      expect(await nothing).toBeInstanceOf(EngineFailure);
    } finally {
      vi.useRealTimers();
    }
  });
});
