/**
 * The Studio's controller: everything the Studio's screen does besides drawing. It owns the Book
 * (the parent's designs and their play records), the design session that is open, the card form
 * written by hand, the parent's microphone and reading aloud; the screen renders `state` and calls
 * the methods below. What the parent's words mean is decided by the pure router
 * (src/core/studio/parent-router.ts); the design itself runs in the session (./studio-session.ts).
 */
import { prewarmManager } from './manager-prewarm.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { handParadigms } from '../core/studio/hand-written.ts';
import type { LoadResult, SkillPackage } from '../core/studio/package-loader.ts';
import { routeParentWords, rowsFormTag } from '../core/studio/parent-router.ts';
import type { SpokenCard } from '../core/studio/parent-words.ts';
import type { PlayBook, ProjectRecord } from '../core/studio/types.ts';
import { designContext } from '../core/trace/designs.ts';
import type { Book } from './book.ts';
import { DraftFlags, FLAGGED_DRAFT } from './draft-flags.ts';
import { ReadAloud } from './read-aloud.ts';
import { HandCards, filledRows, type HandState } from './hand-cards.ts';
import { announceBookChange, onBookChange } from './play/book-events.ts';
import { StudioSession, type ActResult, type SessionStore, type SessionView } from './studio-session.ts';
import type { StudioControllerDeps, StudioMic, StudioState } from './studio-state.ts';

export type { StudioControllerDeps, StudioMic, StudioScreenName, StudioState } from './studio-state.ts';

const NO_BRAIN = '设计室还没有「大脑」：先到「设置」里选一个模型（也可以选「演示」）。不用大脑也能做：点「自己写卡片」。';
const CARD_UNHEARD = '没听清这张卡。可以这样说：「汪汪汪是谁在叫，答案是小狗」。';

export class StudioController {
  private s: StudioState;
  private readonly listeners = new Set<(s: StudioState) => void>();
  private book: Book | null = null;
  private announced = '';
  private readonly reader: ReadAloud;
  private unsubscribe: (() => void) | null = null;
  private readonly offs: Array<() => void> = [];
  private mic: StudioMic | null = null;
  /** The drafts under review that the safety check flags. */
  private readonly flags: DraftFlags;
  private readonly hand: HandCards;
  private readonly now: () => number;
  readonly newId: () => string;

  constructor(private readonly deps: StudioControllerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => `p-${this.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`);
    const okPackages = deps.packages.filter((p): p is Extract<LoadResult, { ok: true }> => p.ok).map((p) => p.pkg);
    const handPkg = okPackages.find((p) => handParadigms(p).length > 0) ?? null;
    this.hand = new HandCards(this, handPkg);
    this.flags = new DraftFlags(this, deps.safetyCheck);
    this.reader = new ReadAloud(deps.speech && ((text) => deps.speech!.say(text)), deps.settings);
    this.s = {
      screen: 'home',
      ready: false,
      loadError: '',
      projects: [],
      playBooks: {},
      session: null,
      pkg: null,
      view: null,
      notice: '',
      noted: '',
      draftFlags: [],
      rows: [],
      drawings: [],
      brainLabel: deps.model.label,
      hasBrain: true,
      canReadAloud: !!deps.speech,
      readAloud: this.reader.kept,
      hasMic: false,
      loopState: 'idle',
      micStatus: 'off',
      ...this.hand.initial(),
    };
  }

  get state(): StudioState {
    return this.s;
  }
  get packages(): SkillPackage[] {
    return this.deps.packages.filter((p): p is Extract<LoadResult, { ok: true }> => p.ok).map((p) => p.pkg);
  }
  get brokenPackages(): Array<Extract<LoadResult, { ok: false }>> {
    return this.deps.packages.filter((p): p is Extract<LoadResult, { ok: false }> => !p.ok);
  }
  get handPackage(): SkillPackage | null {
    return this.hand.pkg;
  }

  subscribe(fn: (s: StudioState) => void): () => void {
    this.listeners.add(fn);
    fn(this.s);
    return () => this.listeners.delete(fn);
  }

  /** @internal for the hand-written form: change the state and show it. */
  set(patch: Partial<StudioState>): void {
    this.s = { ...this.s, ...patch };
    for (const fn of this.listeners) fn(this.s);
  }

  /** @internal the open Book (null until it opened). */
  get openBook(): Book | null {
    return this.book;
  }

  /** Opens the Book and comes back to where the parent was (the card form, or the design last open). */
  async start(): Promise<void> {
    if (this.deps.brain) this.offs.push(this.deps.brain.subscribe((b) => this.set({ brainLabel: b.label, hasBrain: b.kind !== undefined })));
    // A game worker wrote a play record: show it.
    this.offs.push(onBookChange((c) => void (c.type === 'playbook' && this.refreshProjects())));
    if (this.deps.mic) {
      const mic = (this.mic = this.deps.mic((t) => this.said(t)));
      this.offs.push(
        mic.onState((loopState) => this.set({ loopState })),
        mic.onStatus((micStatus) => this.set({ micStatus })),
      );
      this.set({ hasMic: true });
    }
    try {
      this.book = await this.deps.openBook();
      await this.refreshProjects();
      const last = await this.book.lastOpen();
      if (!(await this.hand.resume()) && last && this.s.projects.some((p) => p.id === last)) await this.openProject(last);
    } catch (err) {
      this.set({ loadError: `我的游戏（本机存储）打不开：${(err as Error).message}` });
    }
    this.set({ ready: true });
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.offs.splice(0).forEach((off) => off());
    this.mic?.dispose();
    this.mic = null;
  }

  // ── names already in the arcade (a new game may not take one) ──
  takenNames = (): string[] => {
    const own = this.s.view?.projectId ?? (this.s.screen === 'hand' ? this.s.hand.editing : undefined);
    const games = this.deps.games();
    const ownGame = this.s.projects.find((p) => p.id === own)?.gameId;
    const fromBook = this.s.projects.filter((p) => p.declaration && p.id !== own).map((p) => p.declaration!);
    const all = [...games.filter((g) => g.id !== ownGame), ...fromBook.filter((d) => !games.some((g) => g.id === d.id))];
    return all.flatMap((g) => [g.title, ...g.aliases]);
  };

  /** @internal the robot's drawings, for the card forms (loaded once, on first use). */
  async loadDrawings(): Promise<void> {
    if (this.s.drawings.length) return;
    try {
      this.set({ drawings: (await import('../core/drawings/robot-drawings.ts')).ROBOT_DRAWINGS });
    } catch {
      this.set({ drawings: [] });
    }
  }

  async refreshProjects(): Promise<void> {
    const book = this.book;
    if (!book) return;
    const projects = await book.listProjects();
    const playable = projects.filter((p) => p.stage !== 'design');
    const playBooks: Record<string, PlayBook[]> = {};
    for (const p of playable) playBooks[p.id] = (await book.playBooks(p.id)).sort((a, b) => b.startedAt - a.startedAt);
    this.set({ projects, playBooks });
    // The arcade lists playable designs: tell it when that list may have changed.
    const signature = JSON.stringify(playable.map((p) => [p.id, p.gameId, p.title, p.stage, p.aliases]));
    if (signature !== this.announced) {
      this.announced = signature;
      announceBookChange({ type: 'projects' });
    }
  }

  /** @internal shows a session (new, reopened, or just finished by hand). */
  attach(session: StudioSession, pkg: SkillPackage, fresh = false): void {
    this.unsubscribe?.();
    this.set({ session, pkg, screen: 'talk', rows: [] });
    // Lines already there when a design is opened are not read again.
    this.reader.opened(session.view, fresh);
    this.unsubscribe = session.subscribe((view) => {
      this.set({ view, rows: this.rowsFor(pkg, view, this.s.rows) });
      void this.flags.check();
      this.reader.changed(view, this.s.readAloud);
      if (!view.busy) void this.refreshProjects();
    });
    void this.loadDrawings();
    prewarmManager(this.deps.model, session);
  }

  /** The Book as the session's store; a design that reached play is announced to the arcade at once (even if the screen closed meanwhile). */
  private store(b: Book): SessionStore {
    return {
      saveSession: (snap, trace) => b.saveSession(snap, trace),
      async saveDeclared(id, g) {
        await b.saveDeclared(id, g);
        announceBookChange({ type: 'projects' });
      },
    };
  }
  /** The model for one design: its steps are filed under that design in 记录. */
  private designModel(projectId: string): ChatModel {
    const model = this.deps.model;
    return {
      get label() {
        return model.label;
      },
      step: (req) => model.step({ ...req, session: designContext(projectId) }),
    };
  }
  /** @internal what a session of this project runs with. */
  sessionDeps(pkg: SkillPackage, projectId: string) {
    return { pkg, model: this.designModel(projectId), store: this.store(this.book!), takenNames: this.takenNames };
  }

  async newDesign(pkg: SkillPackage): Promise<void> {
    const book = this.book;
    if (!book) return;
    if (!this.s.hasBrain) return this.set({ notice: NO_BRAIN });
    this.set({ notice: '' });
    const id = this.newId();
    await book.createProject(pkg, id, this.now());
    const session = StudioSession.create(this.sessionDeps(pkg, id), id);
    await book.saveSession(session.snapshot(), []);
    this.attach(session, pkg, true);
    await this.refreshProjects();
  }

  async openProject(id: string): Promise<void> {
    const book = this.book;
    if (!book) return;
    const snap = await book.loadSnapshot(id);
    const pkg = this.packages.find((x) => x.id === snap?.packageId);
    if (!snap || !pkg) return this.set({ notice: snap ? '这个设计用的游戏包不在了，打不开。可以删掉它。' : '这个设计没有可以接着做的记录，可以删掉它。' });
    this.set({ notice: '' });
    this.attach(StudioSession.restore(this.sessionDeps(pkg, id), snap), pkg);
    await book.setLastOpen(id);
  }

  async goHome(): Promise<void> {
    if (this.s.screen === 'hand') await this.hand.leave();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.set({ session: null, view: null, pkg: null, screen: 'home', notice: '', noted: '' });
    await this.book?.setLastOpen(null);
    await this.refreshProjects();
  }

  async deleteProject(id: string): Promise<void> {
    const book = this.book;
    if (!book) return;
    await book.deleteProject(id);
    if ((await book.lastOpen()) === id) await book.setLastOpen(null);
    await this.refreshProjects();
  }

  /** @internal one action on the open session; a refusal is shown. */
  async act(run: () => Promise<ActResult>): Promise<ActResult> {
    this.set({ notice: '', noted: '' });
    const r = await run();
    if (!r.ok) this.set({ notice: r.message });
    return r;
  }

  /** The parent's words, heard or typed: what they mean depends on what the Studio waits for. */
  said(words: string): Promise<ActResult> {
    const { session, view, pkg, screen } = this.s;
    const route = routeParentWords(words, {
      place: screen,
      waiting: view?.waiting ?? null,
      open: !!session && !!view,
      writingRows: !!pkg && !!rowsFormTag(pkg, view?.waiting ?? null),
      draftsFlagged: this.s.draftFlags.length > 0,
    });
    switch (route.kind) {
      case 'nothing':
        return Promise.resolve({ ok: true });
      case 'card_unheard':
        this.set({ notice: CARD_UNHEARD });
        return Promise.resolve({ ok: true });
      case 'add_card':
        this.addCard(route.card, route.to);
        return Promise.resolve({ ok: true });
      case 'accept':
        return this.act(() => session!.acceptDraft());
      case 'accept_flagged':
        return Promise.resolve(FLAGGED_DRAFT);
      case 'revise':
        return this.act(() => session!.revise(route.text));
      case 'input':
        return this.act(() => session!.input(route.text));
    }
  }

  /** A card said in one breath becomes a row of the form being written. */
  private addCard(c: SpokenCard, to: 'hand' | 'rows'): void {
    const row = { prompt: c.prompt, answer: c.answer, aliases: c.aliases, hints: c.hints };
    const put = (list: unknown[]) => {
      const i = list.findIndex((r) => filledRows([r]).length === 0);
      return i < 0 ? [...list, row] : list.map((r, j) => (j === i ? row : r));
    };
    const noted = `记下了一张：${c.prompt} → ${c.answer}`;
    if (to === 'hand') this.hand.update({ cards: put(this.s.hand.cards) }, { notice: '', noted });
    else this.set({ rows: put(this.s.rows), notice: '', noted });
  }

  // ── the open design ──
  acceptDraft(): Promise<ActResult> {
    if (this.s.draftFlags.length) return Promise.resolve(FLAGGED_DRAFT);
    return this.act(() => this.s.session!.acceptDraft());
  }

  /** The parent read a flagged text of a draft and approves it for this game. */
  approveDraftText(text: string): Promise<void> {
    return this.flags.approve(text);
  }

  revise(reason: string): Promise<ActResult> {
    return this.act(() => this.s.session!.revise(reason));
  }
  continueDesign(): Promise<ActResult> {
    return this.act(() => this.s.session!.continue());
  }
  /** What the runtime would refuse in edited values (the form shows it before saving). */
  problems(values: Record<string, unknown>): string[] {
    return this.s.session?.problems(values, 'user') ?? [];
  }

  /** The parent's edits of the drafts under review: saved, then the whole draft is taken. */
  async saveEdits(values: Record<string, unknown>): Promise<ActResult> {
    for (const [tag, value] of Object.entries(values)) {
      const r = await this.act(() => this.s.session!.edit(tag, value));
      if (!r.ok) return r;
    }
    // Edited cards the safety check flags are shown first (the review stays open).
    if (await this.flags.flaggedIn(values)) return { ok: true };
    // The plumbing tags of the same draft (e.g. the run skill list) are taken with it.
    return this.s.view?.waiting?.kind === 'review_drafts' ? this.act(() => this.s.session!.acceptDraft()) : { ok: true };
  }

  setRows(rows: unknown[]): void {
    this.set({ rows: this.rowsFor(this.s.pkg, this.s.view, rows) });
  }

  /** The rows form starts with three empty rows whenever it is shown empty. */
  private rowsFor(pkg: SkillPackage | null, view: SessionView | null, rows: unknown[]): unknown[] {
    return pkg && rowsFormTag(pkg, view?.waiting ?? null) && rows.length === 0 ? [{}, {}, {}] : rows;
  }

  /** The rows the parent wrote for the step that asked for them. */
  async writeRows(): Promise<void> {
    const { session, pkg, view } = this.s;
    const tag = pkg && rowsFormTag(pkg, view?.waiting ?? null);
    if (!session || !tag) return;
    const r = await this.act(() => session.author({ [tag]: filledRows(this.s.rows) }));
    if (r.ok) this.set({ rows: this.rowsFor(this.s.pkg, this.s.view, []) });
  }

  // ── the card form written by hand (./hand-cards.ts) ──
  startHand(): Promise<void> {
    return this.hand.start();
  }
  updateHand(patch: Partial<HandState['hand']>): void {
    this.hand.update(patch);
  }
  approveText(text: string): void {
    this.hand.approve(text);
  }
  canEditCards(p: ProjectRecord): boolean {
    return this.hand.canEdit(p);
  }
  editCards(p: ProjectRecord): void {
    this.hand.edit(p);
  }
  finishHand(): Promise<void> {
    return this.hand.finish(this.deps.safetyCheck);
  }

  // ── the mic and reading aloud ──
  pressMic(): void {
    if (!this.mic) return;
    if (this.s.loopState === 'speaking') this.deps.speech?.stopTalking();
    this.mic.pushToTalk();
  }

  setReadAloud(on: boolean): void {
    this.set({ readAloud: on });
    this.reader.keep(on);
  }
}
