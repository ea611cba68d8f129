import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Book } from '../../../src/studio/book.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { loadPlayableGame } from '../../../src/studio/play-stage.ts';
import { PlayRuntime } from '../../../src/studio/play/play-runtime.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();

describe('play stage of a designed game (what the arcade serves)', () => {
  it('loads a project that reached play, plays it on the play runtime and writes the PlayBook', async () => {
    const book = await Book.open('play-stage-test');
    await book.createProject(pkg, 'p1', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p1');
    expect(await loadPlayableGame(book, 'p1')).toBeNull();
    await s.input('给孩子做一个恐龙问答');
    for (const t of ['设计.交互范式', '设计.run_skill清单', '设计.主题', '设计.卡牌', '设计.角色']) await s.accept(t);
    const game = (await loadPlayableGame(book, 'p1'))!;
    expect(game.declaration.title).toBe('恐龙问答');
    expect(game.cards.length).toBe(7);

    const { model, requests } = demoModel();
    const play = new PlayRuntime(game, model, { now: clock(), id: 'pb1', random: () => 0.5 });
    const signal = new AbortController().signal;
    const turn = async (text: string) => {
      const r = await play.turn(text, signal);
      if (!r.ok) throw new Error(r.reason);
      play.noteTurn(text, r.replies.map((x) => x.text));
      await book.savePlayBook(play.playBook);
      return r;
    };
    const first = await turn('开始');
    expect(first.replies[0].text).toContain('第1题');
    expect(first.replies[0].text).not.toContain(play.currentCard!.answer);
    // "I don't know" twice → hints, then the answer is revealed and the next card comes.
    const h = await turn('不知道');
    expect(h.replies[0].text).toContain('提示');
    await turn('不知道');
    const revealed = await turn('还是不知道');
    expect(revealed.replies[0].text).toMatch(/^答案是「.+」。第2题/);
    expect(revealed.changes.verdict).toMatchObject({ result: '不知道', revealed: expect.any(String) });
    for (const r of requests) expect(r.messages.some((m) => m.content.includes('"answer"'))).toBe(false);
    await play.close();
    await book.savePlayBook(play.playBook);
    const [pb] = await book.playBooks('p1');
    expect(pb).toMatchObject({ id: 'pb1', projectId: 'p1', score: 0, correct: 0, cardsPlayed: 2, turns: [{ input: '开始' }, {}, {}, {}] });
    expect(pb.endedAt).toBeGreaterThan(pb.startedAt);
    expect(play.ended).toBe(true);
    expect(await play.turn('再来', signal)).toEqual({ ok: false, reason: '这局游戏已经结束' });
  });
});
