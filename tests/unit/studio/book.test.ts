import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { Book, BOOK_VERSION } from '../../../src/studio/book.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();
let n = 0;
const dbName = () => `book-test-${++n}`;

describe('the Book', () => {
  it('persists a half-finished design and resumes exactly where it waited, with the same pending question', async () => {
    const name = dbName();
    const book = await Book.open(name);
    await book.createProject(pkg, 'p1', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p1');
    await s.input('我想做一个问答卡牌游戏');
    await s.accept('设计.交互范式');
    await s.accept('设计.run_skill清单');
    expect(s.view.waiting).toMatchObject({ kind: 'helper_question', skill: 'theme' });
    book.close();

    // "Reload": a new Book connection and a new session from the snapshot alone.
    const book2 = await Book.open(name);
    expect(await book2.lastOpen()).toBe('p1');
    const snap = (await book2.loadSnapshot('p1'))!;
    const { model, requests } = demoModel();
    const resumed = StudioSession.restore({ pkg, model, store: book2, now: clock() }, snap);
    expect(resumed.view.waiting).toEqual(s.view.waiting);
    expect(resumed.view.transcript).toEqual(s.view.transcript);
    expect((await book2.listProjects())[0]).toMatchObject({ id: 'p1', stage: 'design', status: '等你回答：想做什么主题的问答呢？随便说一个就行。' });
    // Answering resumes the same helper with its own conversation (no new context assembly).
    await resumed.input('恐龙');
    expect(requests[0].messages.at(-1)!.content).toBe('<tool_response>{"name":"ask_user","result":{"answer":"恐龙"}}</tool_response>');
    expect(resumed.view.board.tags['设计.主题'].value).toMatchObject({ 主题: '恐龙' });
    for (const t of ['设计.主题', '设计.卡牌', '设计.角色']) await resumed.accept(t);
    expect(resumed.view.state.stage).toBe('play');

    const p = (await book2.getProject('p1'))!;
    expect(p).toMatchObject({ stage: 'play', title: '恐龙问答', status: '做好了，在游戏厅里', declaration: { title: '恐龙问答', engine: 'studio' } });
    expect(p.gameId).toBe(p.declaration!.id);
    expect(p.design!['设计.卡牌']).toBeDefined();
    expect((await book2.playableProjects()).map((x) => x.id)).toEqual(['p1']);
    const cards = await book2.cards('p1');
    expect(cards.length).toBeGreaterThanOrEqual(5);
    expect(cards[0]).toMatchObject({ projectId: 'p1', answer: expect.any(String), hints: expect.any(Array) });

    // The design trace holds every burst, tool call, helper run and user decision.
    const trace = await book2.designTrace('p1');
    const kinds = new Set(trace.map((t) => t.kind));
    for (const k of ['user_input', 'burst', 'tool_call', 'helper_run', 'user_decision', 'declared']) expect(kinds.has(k as never)).toBe(true);
    expect(trace.filter((t) => t.kind === 'user_decision').map((t) => t.data.tag)).toEqual(['设计.交互范式', '设计.run_skill清单', '设计.主题', '设计.卡牌', '设计.角色']);
    book2.close();
  });

  it('a reload in the middle of a burst resumes as "interrupted" and continue carries on', async () => {
    const book = await Book.open(dbName());
    await book.createProject(pkg, 'p2', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p2');
    const snap = s.snapshot();
    snap.state = { ...snap.state, phase: 'running', burstNo: 1 };
    const r = StudioSession.restore({ pkg, model: demoModel().model, store: book, now: clock() }, snap);
    expect(r.view.waiting).toEqual({ kind: 'interrupted' });
    await r.continue();
    expect(r.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'interaction-paradigm' });
  });

  it('a draft the parent is shown is already saved: a reload right after it appears finds the same draft', async () => {
    const name = dbName();
    const book = await Book.open(name);
    await book.createProject(pkg, 'p3', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p3');
    await s.input('我想做一个问答卡牌游戏');
    for (const t of ['设计.交互范式', '设计.run_skill清单']) await s.accept(t);
    await s.input('恐龙');
    await s.accept('设计.主题');
    const before = JSON.stringify(s.view.board.tags['设计.卡牌'].value);
    // Each view handed to the screen is compared with what a reload would load at that moment.
    const seen: Array<Promise<[string, string]>> = [];
    s.subscribe((v) => {
      const shown = JSON.stringify(v.board.tags['设计.卡牌']?.value);
      if (shown === before) return;
      seen.push(book.loadSnapshot('p3').then((snap) => [shown, JSON.stringify(snap!.board.tags['设计.卡牌']?.value)]));
    });
    await s.reject('设计.卡牌', '太难了');
    const pairs = await Promise.all(seen);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [shown, saved] of pairs) expect(saved).toBe(shown);
    book.close();
  });

  it('stores play records per project', async () => {
    const book = await Book.open(dbName());
    await book.savePlayBook({ id: 'pb1', projectId: 'p1', startedAt: 1, endedAt: 9, turns: [{ at: 2, input: '霸王龙', replies: ['答对了！'] }], score: 2, correct: 1, cardsPlayed: 1, durationMs: 8 });
    expect(await book.playBooks('p1')).toHaveLength(1);
    await book.deleteProject('p1');
    expect(await book.playBooks('p1')).toHaveLength(0);
  });

  it('migrates a v1 database: projects and snapshots survive, the new stores exist', async () => {
    const name = dbName();
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('projects', { keyPath: 'id' });
        db.createObjectStore('designTrace', { autoIncrement: true }).createIndex('byProject', 'projectId');
        db.createObjectStore('snapshots', { keyPath: 'projectId' });
      },
    });
    await v1.put('projects', { id: 'old', gameId: '', packageId: 'quiz-cards', title: '旧项目', stage: 'design', createdAt: 1, updatedAt: 5 });
    v1.close();
    const book = await Book.open(name);
    expect(BOOK_VERSION).toBeGreaterThan(1);
    const [p] = await book.listProjects();
    expect(p).toMatchObject({ id: 'old', title: '旧项目', aliases: [], capabilities: [] });
    expect(await book.cards('old')).toEqual([]);
    expect(await book.lastOpen()).toBeNull();
  });
});

describe('a Book that fails to save', () => {
  it('the action still counts, the parent is told in the transcript, and the next save catches up', async () => {
    const name = dbName();
    const book = await Book.open(name);
    await book.createProject(pkg, 'p1', 1);
    const save = book.saveSession.bind(book);
    let broken = true;
    book.saveSession = async (snap, trace) => {
      if (broken) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return save(snap, trace);
    };
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'p1');
    const r = await s.input('我想做一个问答卡牌游戏');
    expect(r).toEqual({ ok: true });
    expect(s.view.busy).toBe(false);
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'interaction-paradigm' });
    expect(s.view.transcript.at(-1)).toMatchObject({ who: 'system', text: expect.stringMatching(/^保存失败：The quota has been exceeded。在下次保存成功之前.*不要刷新或关闭页面/) });
    expect(await book.loadSnapshot('p1')).toBeFalsy();

    broken = false;
    expect(await s.accept('设计.交互范式')).toEqual({ ok: true });
    const snap = (await book.loadSnapshot('p1'))!;
    expect(snap.board.tags['设计.交互范式'].status).toBe('accepted');
    // The design trace of the failed save was kept and written with the next one.
    expect((await book.designTrace('p1')).some((e) => e.kind === 'user_input')).toBe(true);
  });
});
