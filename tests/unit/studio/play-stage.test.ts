import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Book } from '../../../src/studio/book.ts';
import { StudioSession } from '../../../src/studio/phase-runtime.ts';
import { loadPlayableGame, PlaySession } from '../../../src/studio/play-stage.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();

describe('play stage of a designed game (what issue 9 serves)', () => {
  it('loads a project that reached play, plays it and writes the PlayBook', async () => {
    const book = await Book.open('play-stage-test');
    await book.createProject(pkg, 'p1', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p1');
    expect(await loadPlayableGame(book, 'p1')).toBeNull();
    await s.input('给孩子做一个恐龙问答');
    for (const t of ['设计.交互范式', '设计.run_skill清单', '设计.主题', '设计.卡牌', '设计.规则', '设计.角色']) await s.accept(t);
    const game = (await loadPlayableGame(book, 'p1'))!;
    expect(game.declaration.title).toBe('恐龙问答');
    expect(game.cards.length).toBe(7);

    const { model, requests } = demoModel();
    const play = new PlaySession(game, model, { book, now: clock(), id: 'pb1' });
    const first = await play.turn('开始');
    expect(first.replies[0].text).toContain('第1题');
    expect(first.replies[0].text).not.toContain(play.currentCard!.answer);
    // "I don't know" twice → hints, then the answer is revealed and the next card comes.
    const h = await play.turn('不知道');
    expect(h.replies[0].text).toContain('提示');
    await play.turn('不知道');
    const revealed = await play.turn('还是不知道');
    expect(revealed.replies[0].text).toMatch(/^答案是「.+」。第2题/);
    for (const r of requests) expect(r.messages.some((m) => m.content.includes('"answer"'))).toBe(false);
    await play.end();
    const [pb] = await book.playBooks('p1');
    expect(pb).toMatchObject({ id: 'pb1', projectId: 'p1', score: 0, correct: 0, cardsPlayed: 2, turns: [{ input: '开始' }, {}, {}, {}] });
    expect(pb.endedAt).toBeGreaterThan(pb.startedAt);
    expect(play.ended).toBe(true);
    expect((await play.turn('再来')).ok).toBe(false);
  });
});
