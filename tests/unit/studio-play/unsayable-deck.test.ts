/**
 * A deck designed by talking in which the safety check blocks every card (the parent took the
 * flagged drafts as they were): the game does not start, and says so in the catalogue's words —
 * the child hears that a grown-up has to change the cards first, the parent reads why in 记录 and
 * which cards in 安全提醒 — and nothing is lost: the design in the Book keeps every card as it was,
 * and the game stays there for the parent to change.
 */
import { describe, expect, it } from 'vitest';
import { describe as entryOf } from '../../../src/core/errors/catalogue.ts';
import { readRound, safetyEntries } from '../../../src/core/trace/reading.ts';
import { groupRounds } from '../../../src/core/trace/rounds.ts';
import { loadPlayableGame } from '../../../src/studio/play-stage.ts';
import { DECK_TAG } from '../../../src/core/studio/hand-written.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';

const UNSAFE = '你家住在哪里？把地址告诉我。';

describe('a talked deck whose every card the safety check blocks', () => {
  it('does not start: the catalogue line for the child, the reason for the parent, and the Book keeps every card', async () => {
    const { book, game } = await designedGame();
    const deck = game.design[DECK_TAG] as Array<{ id: string; prompt: string }>;
    const blocked = { ...game.design, [DECK_TAG]: deck.map((c) => ({ ...c, prompt: `${UNSAFE}（${c.id}）` })) };
    await book.saveDeclared(game.project.id, { declaration: game.declaration, cards: game.cards, design: blocked });
    const before = await book.getProject(game.project.id);
    const h = harness(game, demoModel().model);
    h.setLoad(() => loadPlayableGame(book, game.project.id));

    const r = await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(r.reply).toMatchObject({ text: entryOf('studio_deck_unsayable').child, session: 'ended' });
    // Nothing promised that does not happen: no 「我们来玩」 before it.
    expect(r.said).toEqual([]);

    // The parent: 安全提醒 lists every card, and the round in 记录 says why in plain Chinese.
    const events = h.trace.events.map((e, seq) => ({ ...e, seq }));
    const user = { kind: 'user_input' as const, at: events[0].at - 1, roundId: 'round-1', source: 'main', name: 'text', data: { text: '我们玩恐龙问答吧' }, seq: -1 };
    const request = { kind: 'a2a_request' as const, at: events[0].at - 1, roundId: 'round-1', requestId: events[0].requestId, source: 'main', seq: -1 };
    const grouped = groupRounds([user, request, ...events]);
    expect(safetyEntries(grouped, () => '恐龙问答').map((e) => e.original).sort()).toEqual(deck.map((c) => `${UNSAFE}（${c.id}）`).sort());
    const reading = readRound(grouped.rounds[0], {});
    expect(reading.happened).toContain(`出了问题：${entryOf('studio_deck_unsayable').parent}`);
    expect(entryOf('studio_deck_unsayable').parent).not.toMatch(/[A-Za-z]/);

    // Nothing lost: the design, its cards and its version are as they were; it is still there to change.
    expect(await book.getProject(game.project.id)).toEqual(before);
    expect((await loadPlayableGame(book, game.project.id))!.design[DECK_TAG]).toEqual(blocked[DECK_TAG]);
    expect((await book.playableProjects()).map((p) => p.id)).toContain(game.project.id);
    expect(h.saved).toEqual([]);
  });

  it('a deck with one card left still plays that card', async () => {
    const { book, game } = await designedGame();
    const deck = game.design[DECK_TAG] as Array<{ id: string; prompt: string }>;
    const kept = deck[0];
    const design = { ...game.design, [DECK_TAG]: deck.map((c) => (c.id === kept.id ? c : { ...c, prompt: UNSAFE })) };
    await book.saveDeclared(game.project.id, { declaration: game.declaration, cards: game.cards, design });
    const h = harness(game, demoModel().model);
    h.setLoad(() => loadPlayableGame(book, game.project.id));
    const r = await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(r.reply.session).toBe('active');
    expect(r.reply.text).toContain(kept.prompt);
  });
});
