import { describe, expect, it, vi } from 'vitest';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import { groupRounds, viewRounds } from '../../../src/core/trace/rounds.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { createCodeExecutors } from '../../../skills/quiz-cards/runtime.ts';
import { designedGame, ControlledModel, harness, send, demoModel, clock } from './helpers.ts';
import { lineOf } from '../games/helpers.ts';

const fallbacks = {
  message: lineOf('game_model_failed'),
  start: lineOf('game_model_failed_start'),
  end: lineOf('game_model_failed_end'),
  gone: lineOf('game_session_ended'),
};

describe('a studio game played through its GameHandler', () => {
  it('plays 恐龙问答 to the end: cards on the screen, reactions, score, PlayBook, robot idle', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);

    const first = await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(first.said).toEqual(['好呀，我们来玩恐龙问答！']);
    expect(first.reply.session).toBe('active');
    expect(first.reply.text).toMatch(/^你好，我是小龙博士！.*第1题：/);
    const rt = h.handler.runtimeOf('ctx-1')!;
    const card1 = rt.currentCard!;
    expect(first.reply.text).not.toContain(card1.answer);
    expect(h.device.calls).toEqual([{ op: 'showText', card: { text: `第1题：${card1.prompt}` } }]);

    // Wrong (another dinosaur) → sorry + shake and a hint; then right → happy + nod and the next card.
    const other = game.cards.find((c) => c.cardId !== card1.cardId)!;
    const wrong = await send(h.handler, 'message', `是${other.answer}吗`);
    expect(wrong.reply).toMatchObject({ session: 'active' });
    expect(wrong.reply.text).toContain('提示');
    expect(h.device.reacts()).toEqual(['sorry+shake']);
    const right = await send(h.handler, 'message', `我知道了，是${card1.aliases[0] ?? card1.answer}`);
    expect(right.reply.text).toMatch(/^答对了！第2题：/);
    expect(h.device.reacts()).toEqual(['sorry+shake', 'happy+nod']);
    const card2 = rt.currentCard!;
    expect(card2.cardId).not.toBe(card1.cardId);
    expect(h.device.calls.at(-1)).toEqual({ op: 'showText', card: { text: `第2题：${card2.kind === 'picture' ? card2.picture : card2.prompt}` } });

    // Answer every remaining card right until the game says goodbye.
    let last = right.reply;
    for (let i = 0; i < 10 && last.session === 'active'; i++) last = (await send(h.handler, 'message', rt.currentCard!.answer)).reply;
    expect(last.session).toBe('ended');
    expect(last.text).toMatch(/你答对了 5 张，一张不落，得了 9 分，真了不起！/);
    expect(h.device.calls.at(-2)).toEqual({ op: 'showProgress', progress: { current: 5, total: 5, label: '答对 5 张 · 9 分' } });
    expect(h.device.calls.at(-1)).toEqual({ op: 'idle' });
    expect(h.handler.liveSessions).toEqual([]);

    const [pb] = h.books();
    expect(pb).toMatchObject({ projectId: 'p1', score: 9, correct: 5, cardsPlayed: 5 });
    expect(pb.turns.map((t) => t.input)).toEqual(['我们玩恐龙问答吧', `是${other.answer}吗`, expect.stringContaining('我知道了'), expect.any(String), expect.any(String), expect.any(String), expect.any(String)]);
    // What the child heard: the greeting said at once, then the first card.
    expect(pb.turns[0].replies).toEqual([...first.said, first.reply.text]);
    expect(pb.endedAt).toBeGreaterThan(pb.startedAt);
    expect(pb.durationMs).toBe(pb.endedAt! - pb.startedAt);

    // The game is over: a further message gets the "session ended" reply.
    expect((await send(h.handler, 'message', '再来')).reply).toEqual({ protocol: 'desktop-game/5', text: fallbacks.gone, session: 'ended' });
  });
});

/** seed 000 §出错处理, row by row, for the studio runtime. */
describe('the protocol error table holds for a studio game', () => {
  it('row 1: an invalid tool call goes back to the model as an error, and the model recovers', async () => {
    const { game } = await designedGame();
    let tried = false;
    const model = new ControlledModel({
      'studio:manager': (req) => {
        if (!tried) {
          tried = true;
          // Valid for the decoder (schema), refused by the runtime: a blank reply.
          return { action: 'reply', args: { text: '   ' } };
        }
        return demoModel().model.step(req) as never;
      },
    });
    const h = harness(game, model);
    const r = await send(h.handler, 'start', '开始');
    expect(r.reply.text).toContain('第1题');
    const retry = model.requests.filter((q) => q.agent === 'studio:manager')[1];
    expect(readToolResult(retry.messages.at(-1)!)).toEqual({ name: 'reply', result: { error: 'reply 需要 text' } });
  });

  it('row 2 (message): the model fails → a fallback sentence, the session goes on, and the turn left nothing behind', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const card = rt.currentCard!;
    const managerCalls = () => model.requests.filter((q) => q.agent === 'studio:manager').length;

    // The child answers right, but the model breaks after the answer was judged and scored
    // (its second step, the one that would present the next card).
    let steps = 0;
    model.use({
      'studio:manager': (req) => {
        if (++steps === 2) throw new Error('模型坏了');
        return demoModel().model.step(req) as never;
      },
    });
    const before = managerCalls();
    const failed = await send(h.handler, 'message', card.answer);
    expect(failed.reply).toEqual({ protocol: 'desktop-game/5', text: fallbacks.message, session: 'active' });
    expect(managerCalls() - before).toBe(2);
    const second = model.requests.filter((q) => q.agent === 'studio:manager').at(-1)!;
    const result = readToolResult(second.messages.at(-1)!);
    expect(result?.name).toBe('run_helper');
    expect(result?.result).toMatch(/^judge-answer 已更新：.*"结果":"对".*\nkeep-score 已更新：.*"得分":2/s);
    // Restored: same card, no points, no reaction from the lost turn.
    expect(rt.currentCard!.cardId).toBe(card.cardId);
    expect(rt.score).toEqual({ score: 0, correct: 0, played: 1 });
    expect(h.device.reacts()).toEqual([]);

    // Said again, it counts once.
    model.use();
    const again = await send(h.handler, 'message', card.answer);
    expect(again.reply.text).toMatch(/^答对了！第2题/);
    expect(rt.score).toMatchObject({ score: 2, correct: 1 });
    // The fallback turn is in the PlayBook too (what the child said, what the robot answered).
    expect(h.books()[0].turns.map((t) => t.replies[0])).toEqual([expect.any(String), fallbacks.message, again.reply.text]);
    // …and the manager's memory holds no trace of the lost turn.
    const lastManager = model.requests.filter((q) => q.agent === 'studio:manager').at(-1)!;
    expect(lastManager.messages.filter((m) => m.content.endsWith(`[孩子] ${card.answer}`))).toHaveLength(1);
  });

  it('row 2 (no reply): a burst that never replies (the cap) → the fallback sentence', async () => {
    const { game } = await designedGame();
    let looping = false;
    const model = new ControlledModel({
      'studio:manager': (req) => (looping ? { action: 'read_blackboard', args: {} } : (demoModel().model.step(req) as never)),
    });
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    looping = true;
    const r = await send(h.handler, 'message', '是霸王龙');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: fallbacks.message, session: 'active' });
    expect(h.trace.events.some((e) => e.kind === 'error' && JSON.stringify(e.data).includes('burst_cap'))).toBe(true);
    looping = false;
    expect((await send(h.handler, 'message', '是霸王龙')).reply.session).toBe('active');
  });

  it('row 2 (a run skill fails) → the fallback sentence, and the judged answer is not kept', async () => {
    const { game } = await designedGame();
    const code = createCodeExecutors();
    let broken = true;
    const h = harness(game, new ControlledModel(), {
      runtime: {
        now: clock(),
        preExecute: false,
        codeExecutors: {
          ...code,
          'give-hint': (r) => {
            if (broken) throw new Error('提示坏了');
            return code['give-hint'](r);
          },
        },
      },
    });
    await send(h.handler, 'start', '开始');
    const r = await send(h.handler, 'message', '不知道');
    expect(r.reply).toMatchObject({ text: fallbacks.message, session: 'active' });
    expect(h.trace.events.some((e) => e.kind === 'error' && JSON.stringify(e.data).includes('提示坏了'))).toBe(true);
    broken = false;
    // The lost turn's judging was rolled back: three more tries on the card before its answer is told.
    const card = h.handler.runtimeOf('ctx-1')!.currentCard!;
    expect((await send(h.handler, 'message', '不知道')).reply.text).toContain(`提示：${card.hints[0]}`);
    expect((await send(h.handler, 'message', '不知道')).reply.text).toContain(`提示：${card.hints[1]}`);
    expect((await send(h.handler, 'message', '不知道')).reply.text).toMatch(new RegExp(`^答案是「${card.answer}」。第2题`));
  });

  it('row 2 (a code follow-up fails inside run_helper) → the fallback sentence, nothing written', async () => {
    const { game } = await designedGame();
    const code = createCodeExecutors();
    const h = harness(game, new ControlledModel(), {
      runtime: { now: clock(), preExecute: false, codeExecutors: { ...code, 'keep-score': () => { throw new Error('计分坏了'); } } },
    });
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const r = await send(h.handler, 'message', rt.currentCard!.answer);
    expect(r.reply).toMatchObject({ text: fallbacks.message, session: 'active' });
    expect(h.device.reacts()).toEqual([]);
    expect(rt.score).toEqual({ score: 0, correct: 0, played: 1 });
    expect(h.trace.events.some((e) => e.kind === 'error' && JSON.stringify(e.data).includes('计分坏了'))).toBe(true);
  });

  it('row 2 (start): the model fails at start → the fallback sentence and the session is over', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    model.failNext.add('studio:manager');
    const h = harness(game, model);
    const r = await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(r.said).toEqual(['好呀，我们来玩恐龙问答！']);
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: fallbacks.start, session: 'ended' });
    expect(h.handler.liveSessions).toEqual([]);
    expect(h.device.calls).toEqual([{ op: 'idle' }]);
    expect(h.books()[0].endedAt).toBeDefined();
    expect((await send(h.handler, 'message', '霸王龙')).reply).toMatchObject({ text: fallbacks.gone, session: 'ended' });
  });

  it('row 2 (end): the model fails at end → the game\'s own honest goodbye (its wrap-up code), and the session is over', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    await send(h.handler, 'message', h.handler.runtimeOf('ctx-1')!.currentCard!.answer);
    model.failNext.add('studio:manager');
    const r = await send(h.handler, 'end', '不玩了');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: '今天答对了 1 张，下次接着玩！这张卡的答案是「三角龙」。', session: 'ended' });
    expect(h.handler.liveSessions).toEqual([]);
    expect(h.device.calls.at(-1)).toEqual({ op: 'idle' });
    expect(h.books()[0]).toMatchObject({ score: 2, correct: 1, cardsPlayed: 2 });
    expect(h.books()[0].turns.at(-1)).toMatchObject({ input: '不玩了', replies: [r.reply.text] });
  });

  it('end with words ("不玩了"): the burst wraps the game up honestly — no praise for nothing; an empty end (app exit) needs no model', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    const r = await send(h.handler, 'end', '不玩了');
    expect(r.reply).toEqual({ protocol: 'desktop-game/5', text: '好的，今天就玩到这里，下次接着玩！这张卡的答案是「霸王龙」。', session: 'ended' });

    await send(h.handler, 'start', '开始', 'ctx-2');
    const calls = model.requests.length;
    const quiet = await send(h.handler, 'end', '', 'ctx-2');
    expect(quiet.reply).toMatchObject({ session: 'ended', text: '好的，今天就玩到这里，下次接着玩！这张卡的答案是「霸王龙」。' });
    expect(model.requests.length).toBe(calls);
  });

  it('row 3: start while a session is live → it is closed (PlayBook saved) and a new one starts', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始', 'ctx-old');
    await send(h.handler, 'message', '不知道', 'ctx-old');
    const fresh = await send(h.handler, 'start', '再玩一次', 'ctx-new');
    expect(fresh.reply.text).toContain('第1题');
    expect(h.handler.liveSessions).toEqual(['ctx-new']);
    const books = h.books();
    expect(books).toHaveLength(2);
    expect(books[0]).toMatchObject({ turns: [{ input: '开始' }, { input: '不知道' }] });
    expect(books[0].endedAt).toBeDefined();
    expect(books[1].endedAt).toBeUndefined();
    // The replaced session no longer exists.
    expect((await send(h.handler, 'message', '霸王龙', 'ctx-old')).reply).toMatchObject({ text: fallbacks.gone, session: 'ended' });
    // A start on the same contextId also starts over.
    const again = await send(h.handler, 'start', '重新开始', 'ctx-new');
    expect(again.reply.text).toContain('第1题');
    expect(h.books()).toHaveLength(3);
  });

  it('row 4: message or end for a session that does not exist → a reply with session ended', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    for (const kind of ['message', 'end'] as const) {
      const text = kind === 'end' ? '' : '霸王龙';
      expect((await send(h.handler, kind, text, 'never-started')).reply).toEqual({ protocol: 'desktop-game/5', text: fallbacks.gone, session: 'ended' });
    }
    expect(h.trace.events.filter((e) => e.name === 'session_ended')).toHaveLength(2);
  });

  it('a game deleted from the Book since → start says so and ends', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    h.setLoad(async () => null);
    const r = await send(h.handler, 'start', '开始');
    expect(r.reply).toMatchObject({ session: 'ended', text: expect.stringContaining('找不到') });
    expect(h.handler.liveSessions).toEqual([]);
  });
});

describe('cancellation and end mid-turn', () => {
  it('end cancels the turn in flight (even a model that ignores its signal) and always ends the session', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    const card = h.handler.runtimeOf('ctx-1')!.currentCard!;
    let release!: () => void;
    model.hold = new Promise((r) => (release = r));
    const inflight = send(h.handler, 'message', card.answer);
    await new Promise((r) => setTimeout(r, 5));
    const ended = await send(h.handler, 'end', '不玩了');
    await expect(inflight).rejects.toMatchObject({ name: 'AbortError' });
    expect(ended.reply.session).toBe('ended');
    // The cancelled answer never counted.
    expect(ended.reply.text).toBe('好的，今天就玩到这里，下次接着玩！这张卡的答案是「霸王龙」。');
    release();
    expect(h.handler.liveSessions).toEqual([]);
    expect(h.device.reacts()).toEqual([]);
  });

  it('a cancelled turn (ctx.signal) rejects at once, leaves nothing behind, and the next input works', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const card = rt.currentCard!;
    let release!: () => void;
    model.hold = new Promise((r) => (release = r));
    const ac = new AbortController();
    const turn = send(h.handler, 'message', card.answer, 'ctx-1', ac.signal);
    await new Promise((r) => setTimeout(r, 5));
    ac.abort(new DOMException('CancelTask', 'AbortError'));
    await expect(turn).rejects.toMatchObject({ name: 'AbortError' });
    release();
    expect(rt.currentCard!.cardId).toBe(card.cardId);
    expect(rt.score.correct).toBe(0);
    const next = await send(h.handler, 'message', card.answer);
    expect(next.reply.text).toMatch(/^答对了！/);
    expect(rt.score.correct).toBe(1);
  });

  it('requests of one session are handled one at a time, in arrival order', async () => {
    const { game } = await designedGame();
    const model = new ControlledModel();
    const h = harness(game, model);
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const a = rt.currentCard!.answer;
    const [r1, r2] = await Promise.all([send(h.handler, 'message', a), send(h.handler, 'message', '不知道')]);
    expect(r1.reply.text).toMatch(/^答对了！第2题/);
    expect(r2.reply.text).toContain('提示');
  });
});

describe('memory and trace of a long game', () => {
  it('the manager keeps the last 16 rounds of the game; the board keeps the whole state', async () => {
    const { game } = await designedGame();
    const long = { ...game, design: { ...game.design, '设计.交互范式': { ...(game.design['设计.交互范式'] as object), 轮数: 7 } } };
    const model = new ControlledModel();
    const h = harness(long, model);
    await send(h.handler, 'start', '开始');
    let r = await send(h.handler, 'message', '不知道');
    let turns = 2;
    while (r.reply.session === 'active' && turns < 40) {
      r = await send(h.handler, 'message', turns % 3 === 0 ? h.handler.runtimeOf('ctx-1')!.currentCard!.answer : '不知道');
      turns++;
    }
    expect(turns).toBeGreaterThan(16);
    expect(r.reply.text).toMatch(/你答对了 \d 张/);
    const rounds = model.requests.filter((q) => q.agent === 'studio:manager').map((q) => q.messages.filter((m) => /(^|\n)\[孩子\] /.test(m.content)).length);
    // 16 remembered rounds + the child's words of the round being played (as the built-in games' memory).
    expect(Math.max(...rounds)).toBe(17);
    expect(rounds.at(-1)).toBe(17);
    const lastManager = model.requests.filter((q) => q.agent === 'studio:manager').at(-1)!;
    expect(lastManager.messages[0].role).toBe('system');
    expect(h.books()[0].cardsPlayed).toBe(7);
  });

  it('the trace files each card\'s answer as a secret, and a reveal comes before the next card', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const card1 = rt.currentCard!;
    const start = h.trace.events.find((e) => e.name === 'burst')!;
    expect(start.data).toMatchObject({ card: { id: card1.cardId, secret: { answer: card1.answer } } });
    const before = h.trace.events.length;
    await send(h.handler, 'message', card1.answer);
    const card2 = rt.currentCard!;
    const turn = h.trace.events.slice(before).filter((e) => e.kind === 'game_tool');
    expect(turn.map((e) => e.name)).toEqual(['reveal', 'burst']);
    expect(turn[0]).toMatchObject({ revealsSecret: true, data: { answer: card1.answer } });
    expect(turn[1].data).toMatchObject({ verdict: '对', card: { id: card2.cardId, secret: { answer: card2.answer } } });
    expect(JSON.stringify({ ...(turn[1].data as object), card: undefined })).not.toContain(card2.answer);
  });

  it('in the trace view, the turn that reveals card 1 and presents card 2 shows card 1\'s answer and hides card 2\'s', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const card1 = rt.currentCard!;
    const before = h.trace.events.length;
    // The whole turn within one millisecond (a fast turn): the reveal and the burst are recorded in the same tick.
    const now = vi.spyOn(Date, 'now').mockReturnValue(h.trace.events.at(-1)!.at + 10);
    try {
      await send(h.handler, 'message', card1.answer);
    } finally {
      now.mockRestore();
    }
    const card2 = rt.currentCard!;
    expect(card2.cardId).not.toBe(card1.cardId);

    // Each request is its own round in the trace view, as the main thread records them.
    const game1 = h.trace.events.slice(0, before);
    const game2 = h.trace.events.slice(before);
    const roundOf = (evs: TraceEvent[], roundId: string): TraceEvent[] => [
      { kind: 'user_input', at: Math.min(...evs.map((e) => e.at)) - 1, roundId, source: 'main', data: { text: roundId } },
      ...evs,
    ];
    const requests = new Map([[game1.find((e) => e.requestId)!.requestId!, 'R1'], [game2.find((e) => e.requestId)!.requestId!, 'R2']]);
    const grouped = groupRounds([...roundOf(game1, 'R1'), ...roundOf(game2, 'R2')], requests);
    expect(grouped.orphans).toEqual([]);
    const [r1, r2] = viewRounds(grouped.rounds);
    const shown = (events: typeof r1.events, name: string) => JSON.stringify(events.filter((e) => e.name === name).map((e) => e.data));
    // Card 1 was presented in round 1 and revealed in round 2: its answer is shown now.
    expect(shown(r1.events, 'burst')).toContain(card1.answer);
    // Card 2 is what the child is guessing: hidden, in the same round as the reveal of card 1.
    const burst2 = r2.events.find((e) => e.name === 'burst')!;
    expect(burst2.secretHidden).toBe(true);
    expect(shown(r2.events, 'burst')).not.toContain(card2.answer);
    expect(shown(r2.events, 'reveal')).toContain(card1.answer);
  });

  it('a session replaced by a new start that fails to close leaves an error in the trace, not an unhandled rejection', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始', 'ctx-1');
    vi.spyOn(h.handler.runtimeOf('ctx-1')!, 'close').mockRejectedValue(new Error('关不上'));
    const r = await send(h.handler, 'start', '再来一局', 'ctx-2');
    expect(r.reply.session).toBe('active');
    await vi.waitFor(() => expect(h.trace.events.find((e) => e.kind === 'error' && e.name === 'close')).toMatchObject({ contextId: 'ctx-1', data: { error: 'Error: 关不上' } }));
    expect(h.handler.liveSessions).toEqual(['ctx-2']);
  });
});
