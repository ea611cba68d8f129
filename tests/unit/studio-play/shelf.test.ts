/** The arcade's list of studio games (main thread): read from the Book, kept current by announcements. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Book } from '../../../src/studio/book.ts';
import { announceBookChange, onBookChange, type BookChange } from '../../../src/studio/play/book-events.ts';
import { StudioShelf } from '../../../src/studio/play/arcade-shelf.ts';
import { quizPackage } from '../studio/helpers.ts';
import { approvedLinesOf } from '../../../src/games/approved-lines.ts';
import { designedGame } from './helpers.ts';

describe('StudioShelf', () => {
  it('lists the projects that reached play, and re-reads the Book when the Studio announces a change', async () => {
    const { bookName, book, game } = await designedGame();
    await book.createProject(quizPackage(), 'p2', 5); // still being designed: not a game yet
    const shelf = new StudioShelf(() => Book.open(bookName)).listen();
    await shelf.refresh();
    expect(shelf.list()).toEqual([{ ...game.declaration, engine: 'studio', description: '恐龙问答：大人在设计室做的新游戏（问答：恐龙）。' }]);
    expect(shelf.list()[0]).toMatchObject({ id: expect.stringMatching(/^studio-/), title: '恐龙问答', aliases: ['恐龙问答', '恐龙游戏', '猜恐龙', '恐龙卡牌'] });

    let changed = 0;
    shelf.onChange(() => changed++);
    await book.deleteProject('p1');
    announceBookChange({ type: 'projects' });
    await expect.poll(() => changed).toBe(1);
    expect(shelf.list()).toEqual([]);
    // Nothing changed → no notification.
    await shelf.refresh();
    expect(changed).toBe(1);
    shelf.dispose();
  });

  it("keeps the texts a parent approved with the project and hands them to the safety screen for that game", async () => {
    const { bookName, book } = await designedGame();
    await book.approveTexts('p1', ['你的幼儿园叫什么', '你的幼儿园叫什么']);
    expect((await book.getProject('p1'))?.approved).toEqual(['你的幼儿园叫什么']);
    const shelf = new StudioShelf(() => Book.open(bookName));
    await shelf.refresh();
    const id = shelf.list()[0].id;
    expect(approvedLinesOf(id)).toEqual(['你的幼儿园叫什么']);
    expect(approvedLinesOf('guess-number')).toEqual([]);
    await book.approveTexts('p1', []);
    await shelf.refresh();
    expect(approvedLinesOf(id)).toEqual([]);
  });

  it('a Book that cannot be opened lists no studio games (and does not throw)', async () => {
    const shelf = new StudioShelf(() => Promise.reject(new Error('IndexedDB blocked')));
    await shelf.refresh();
    expect(shelf.list()).toEqual([]);
  });

  it('book events reach other listeners (a game worker\'s PlayBook → the Studio screen)', async () => {
    const got: BookChange[] = [];
    const stop = onBookChange((c) => got.push(c));
    announceBookChange({ type: 'playbook', projectId: 'p1' });
    await expect.poll(() => got).toEqual([{ type: 'playbook', projectId: 'p1' }]);
    stop();
  });
});
