import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Book } from '../../../src/studio/book.ts';
import { discoverPackages } from '../../../src/studio/bundled-packages.ts';
import { StudioController, type StudioControllerDeps } from '../../../src/studio/studio-controller.ts';
import { FakeMic, fakeBrain, fakeSpeech, memorySettings, passingCheck } from '../../support/studio.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();
let n = 0;
const open: StudioController[] = [];

/** A controller on the real Book (fake IndexedDB) and the bundled packages, driven by the demo model. */
function controller(over: Partial<StudioControllerDeps> & { db?: string } = {}) {
  const db = over.db ?? `studio-controller-${++n}`;
  const books: Book[] = [];
  let mic: FakeMic | null = null;
  let ids = 0;
  const c = new StudioController({
    model: demoModel().model,
    openBook: async () => {
      const b = await Book.open(db);
      books.push(b);
      return b;
    },
    packages: discoverPackages(),
    games: () => [],
    safetyCheck: passingCheck,
    mic: (onWords) => (mic = new FakeMic(onWords)),
    now: clock(),
    newId: () => `p${++ids}`,
    ...over,
  });
  open.push(c);
  return { c, db, mic: () => mic!, close: () => books.forEach((b) => b.close()) };
}

afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

const lastLine = (c: StudioController) => c.state.view!.transcript.at(-1)!;

describe('the Studio controller', () => {
  it('routes the parent’s words: nothing before a design is open, input to it, 好的 takes the drafts, other words redo them', async () => {
    const { c } = controller();
    await c.start();
    expect(c.state).toMatchObject({ ready: true, screen: 'home', projects: [] });
    expect(await c.said('做一个恐龙问答')).toEqual({ ok: true });
    expect(c.state.session).toBeNull();

    await c.newDesign(pkg);
    expect(c.state.screen).toBe('talk');
    await c.said('给孩子做一个恐龙问答');
    expect(c.state.view!.transcript.some((l) => l.who === 'user' && l.text === '给孩子做一个恐龙问答')).toBe(true);
    expect(c.state.view!.waiting).toMatchObject({ kind: 'review_drafts' });
    const value = () => c.state.view!.board.tags['设计.交互范式'].value;
    expect(value()).toMatchObject({ 轮数: 5 });

    // Under review, words that are not 好的 are how to change the draft.
    await c.said('玩3轮就好');
    expect(value()).toMatchObject({ 范式: '问答', 轮数: 3 });
    expect(c.state.view!.board.tags['设计.交互范式'].status).toBe('draft');
    // 好的 takes it.
    await c.said('好的');
    expect(c.state.view!.board.tags['设计.交互范式'].status).toBe('accepted');
  });

  it('on the card form a card said in one breath is written down, other words are answered with how to say one', async () => {
    const { c } = controller();
    await c.start();
    await c.startHand();
    expect(c.state.screen).toBe('hand');
    await c.said('汪汪汪是谁在叫，答案是小狗');
    expect(c.state.hand.cards[0]).toMatchObject({ prompt: '汪汪汪是谁在叫', answer: '小狗' });
    expect(c.state.noted).toBe('记下了一张：汪汪汪是谁在叫 → 小狗');
    await c.said('今天天气真好');
    expect(c.state.notice).toContain('没听清这张卡');
    expect(c.state.hand.cards.filter((r) => Object.keys(r as object).length > 0)).toHaveLength(1);
  });

  it('saves each design in the Book and, opened again, comes back to it where it waited', async () => {
    const first = controller();
    await first.c.start();
    await first.c.newDesign(pkg);
    await first.c.said('我想做一个问答卡牌游戏');
    await first.c.said('好的');
    const { waiting, transcript } = first.c.state.view!;
    expect(waiting).toMatchObject({ kind: 'helper_question', skill: 'theme' });
    first.c.dispose();
    first.close();

    // The Studio opened again (a reload): the same Book, a new controller.
    const again = controller({ db: first.db });
    await again.c.start();
    expect(again.c.state.projects.map((p) => p.id)).toEqual(['p1']);
    expect(again.c.state.screen).toBe('talk');
    expect(again.c.state.view!.waiting).toEqual(waiting);
    expect(again.c.state.view!.transcript).toEqual(transcript);
    // Back home, the next opening starts on the list of games.
    await again.c.goHome();
    again.c.dispose();
    again.close();
    const third = controller({ db: first.db });
    await third.c.start();
    expect(third.c.state).toMatchObject({ screen: 'home', session: null });
    expect(third.c.state.projects.map((p) => p.id)).toEqual(['p1']);
  });

  it('with no brain chosen a design is not started and the parent is told where to choose one', async () => {
    const brain = fakeBrain('还没有选', undefined);
    const { c } = controller({ brain });
    await c.start();
    expect(c.state).toMatchObject({ brainLabel: '还没有选', hasBrain: false });
    await c.newDesign(pkg);
    expect(c.state.screen).toBe('home');
    expect(c.state.notice).toContain('设计室还没有「大脑」');
    expect(c.state.projects).toEqual([]);
    brain.set('演示', 'demo');
    expect(c.state).toMatchObject({ brainLabel: '演示', hasBrain: true });
    await c.newDesign(pkg);
    expect(c.state).toMatchObject({ screen: 'talk', notice: '' });
  });

  it('the microphone’s words are the parent’s words; its state is shown; the mic button stops the Studio talking first', async () => {
    const speech = fakeSpeech();
    const t = controller({ speech });
    await t.c.start();
    expect(t.c.state.hasMic).toBe(true);
    await t.c.newDesign(pkg);
    await t.mic().hear('给孩子做一个恐龙问答');
    expect(t.c.state.view!.waiting).toMatchObject({ kind: 'review_drafts' });

    t.mic().setStatus('listening');
    t.mic().setState('listening');
    expect(t.c.state).toMatchObject({ micStatus: 'listening', loopState: 'listening' });
    t.c.pressMic();
    expect([t.mic().presses, speech.stops]).toEqual([1, 0]);
    t.mic().setState('speaking');
    t.c.pressMic();
    expect([t.mic().presses, speech.stops]).toEqual([2, 1]);
    t.c.dispose();
    expect(t.mic().disposed).toBe(true);
  });

  it('reads the Studio’s questions aloud only when the parent turned it on, and keeps that choice', async () => {
    const speech = fakeSpeech();
    const settings = memorySettings();
    const { c } = controller({ speech, settings });
    await c.start();
    expect(c.state).toMatchObject({ canReadAloud: true, readAloud: false });
    await c.newDesign(pkg);
    await c.said('给孩子做一个恐龙问答');
    expect(speech.said).toEqual([]);

    c.setReadAloud(true);
    await c.said('玩3轮就好');
    expect(c.state.view!.waiting).toMatchObject({ kind: 'review_drafts' });
    expect(speech.said).toEqual([lastLine(c).text]);

    // The choice is kept: the next Studio starts with it on; off again, nothing more is read.
    const next = controller({ speech: fakeSpeech(), settings });
    expect(next.c.state.readAloud).toBe(true);
    c.setReadAloud(false);
    const asked = c.state.view!.transcript.length;
    await c.said('好的');
    // It asks again (the theme's drafts, with a new line), and that is not read.
    expect(c.state.view!.waiting).toMatchObject({ kind: 'review_drafts', skill: 'theme' });
    expect(c.state.view!.transcript.slice(asked).some((l) => l.who !== 'user')).toBe(true);
    expect(speech.said).toHaveLength(1);
    expect(controller({ settings }).c.state.readAloud).toBe(false);
  });

  it('without speech there is no reading aloud to turn on', () => {
    expect(controller().c.state.canReadAloud).toBe(false);
  });
});
