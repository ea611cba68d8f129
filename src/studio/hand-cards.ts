/**
 * The Studio's card form written by hand, with no model (the controller's part for it): the form
 * is kept in the Book as the parent types (an idle lock or a reload brings it back); when done, the
 * cards are checked like a draft and by the safety check (a flagged text waits for the parent's
 * approval), and a design session written by the parent takes the game to the arcade.
 */
import { emptyBoard } from '../core/studio/blackboard.ts';
import { draftProblems, PARADIGM_TAG } from '../core/studio/draft-check.ts';
import { DECK_TAG, handParadigms, handWrittenDesign } from '../core/studio/hand-written.ts';
import type { SkillPackage } from '../core/studio/package-loader.ts';
import type { ProjectRecord } from '../core/studio/types.ts';
import { flaggedTexts, type FlaggedText } from '../core/safety/card-check.ts';
import type { CheckLine } from '../core/safety/classify.ts';
import type { Book, HandDraft } from './book.ts';
import { StudioSession, type SessionDeps } from './studio-session.ts';

export interface HandState {
  hand: HandDraft;
  handProblems: string[];
  /** The cards' texts the safety check flagged and the parent has not approved. */
  handFlags: FlaggedText[];
  /** Texts the parent approved for this game. */
  handApproved: string[];
}

/** What the form needs of the controller that holds it (src/studio/studio-controller.ts). */
export interface HandHost {
  readonly state: HandState & { screen: string; projects: ProjectRecord[] };
  readonly openBook: Book | null;
  set(patch: Partial<HandState> & { screen?: 'hand'; notice?: string; noted?: string }): void;
  loadDrawings(): Promise<void>;
  takenNames(): string[];
  newId(): string;
  sessionDeps(pkg: SkillPackage, projectId: string): SessionDeps;
  attach(session: StudioSession, pkg: SkillPackage): void;
  refreshProjects(): Promise<void>;
}

type Extra = { notice?: string; noted?: string };

const KEPT = '上次没写完的卡片还在，接着写吧。';

/** Rows the parent left empty are not cards; texts are trimmed. */
export function filledRows(list: readonly unknown[]): Array<Record<string, unknown>> {
  return (list as Array<Record<string, unknown>>)
    .map((r) => Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]).filter(([, v]) => v !== '' && v !== undefined && !(Array.isArray(v) && v.length === 0))))
    .filter((r) => Object.keys(r).length > 0);
}

export class HandCards {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly c: HandHost,
    readonly pkg: SkillPackage | null,
  ) {}

  initial(): HandState {
    return { hand: this.blank(), handProblems: [], handFlags: [], handApproved: [] };
  }

  private blank(): HandDraft {
    return { title: '', paradigm: this.pkg ? handParadigms(this.pkg)[0] : '问答', rounds: undefined, cards: [{}, {}, {}] };
  }

  /** The form is kept as the parent types. */
  private keep(draft: HandDraft | null): Promise<void> {
    const book = this.c.openBook;
    if (!book) return this.saving;
    return (this.saving = this.saving.then(() => book.saveHandDraft(draft)).catch((e: unknown) => console.warn('card draft not kept', e)));
  }

  private show(patch: Partial<HandState> & { hand: HandDraft }, extra: Extra = {}): void {
    this.c.set({ ...patch, ...extra, screen: 'hand' });
    void this.keep(structuredClone(patch.hand));
    void this.c.loadDrawings();
  }

  /** Cards being written when the area closed (idle) or the page reloaded: the form comes back as it was. */
  async resume(): Promise<boolean> {
    const book = this.c.openBook;
    const kept = await book?.handDraft().catch(() => null);
    if (!kept || kept.left || !this.pkg || (kept.editing && !this.c.state.projects.some((p) => p.id === kept.editing))) return false;
    this.show({ hand: kept }, { noted: KEPT });
    return true;
  }

  async start(): Promise<void> {
    this.c.set({ notice: '', noted: '' });
    const kept = await this.c.openBook?.handDraft().catch(() => null);
    const again = !!kept && !kept.editing;
    this.show({ hand: again ? { ...kept!, left: false } : this.blank(), handProblems: [] }, again ? { noted: KEPT } : {});
  }

  update(patch: Partial<HandDraft>, extra: Extra = {}): void {
    const hand = { ...this.c.state.hand, ...patch };
    this.c.set({ hand, ...extra });
    if (this.c.state.screen === 'hand') void this.keep(structuredClone(hand));
  }

  /** Back to 我的游戏 on purpose: the form is offered again from 自己写卡片, not reopened by itself. */
  async leave(): Promise<void> {
    await this.keep({ ...structuredClone(this.c.state.hand), left: true }).catch(() => undefined);
  }

  approve(text: string): void {
    const s = this.c.state;
    this.c.set({ handApproved: [...s.handApproved, text], handFlags: s.handFlags.filter((f) => f.text !== text) });
  }

  /** A finished game's cards and name, in the same form: saved as a new version. */
  canEdit(p: ProjectRecord): boolean {
    const pkg = this.pkg;
    const paradigm = (p.design?.[PARADIGM_TAG] as { 范式?: string } | undefined)?.范式;
    return !!pkg && p.stage !== 'design' && p.packageId === pkg.id && Array.isArray(p.design?.[DECK_TAG]) && !!paradigm && handParadigms(pkg).includes(paradigm);
  }

  edit(p: ProjectRecord): void {
    const d = p.design ?? {};
    const shape = (d[PARADIGM_TAG] ?? {}) as { 范式?: string; 轮数?: number };
    const cards = structuredClone(d[DECK_TAG] as unknown[]);
    const hand: HandDraft = { title: p.title, paradigm: shape.范式 ?? '问答', rounds: shape.轮数 === cards.length ? undefined : shape.轮数, cards, editing: p.id };
    this.show({ hand, handProblems: [], handFlags: [], handApproved: [] }, { notice: '', noted: '' });
  }

  async finish(safetyCheck: () => Promise<CheckLine>): Promise<void> {
    const book = this.c.openBook;
    const pkg = this.pkg;
    if (!book || !pkg) return;
    const { hand, handApproved } = this.c.state;
    const cards = filledRows(hand.cards);
    const rounds = hand.rounds ?? cards.length;
    const values = handWrittenDesign(pkg, { title: hand.title, paradigm: hand.paradigm, rounds, cards });
    const handProblems = [
      ...(hand.title.trim() ? [] : ['给游戏起个名字吧（孩子说这个名字就能开始玩）']),
      ...draftProblems(pkg, values, { board: emptyBoard(Object.keys(pkg.tags)), taken: this.c.takenNames(), by: 'user' }),
      ...(rounds > cards.length && cards.length > 0 ? [`只有 ${cards.length} 张卡片，玩 ${rounds} 轮会有重复的题`] : []),
    ];
    this.c.set({ handProblems });
    if (handProblems.length) return;
    // The parent's words, checked as they will be said: a flagged text waits for the parent's approval.
    const handFlags = flaggedTexts(cards, await safetyCheck(), handApproved);
    this.c.set({ handFlags });
    if (handFlags.length) return;
    // A change to a finished game keeps its project (and so its play records); a new one gets its own.
    const editing = hand.editing ? await book.getProject(hand.editing) : undefined;
    const id = editing?.id ?? this.c.newId();
    if (!editing) await book.createProject(pkg, id, Date.now());
    const used = handApproved.filter((t) => cards.some((c) => Object.values(c).some((v) => v === t || (Array.isArray(v) && v.includes(t)))));
    if (used.length) await book.approveTexts(id, used);
    const s = StudioSession.create(this.c.sessionDeps(pkg, id), id);
    const written = await s.author(values);
    const done = written.ok ? await s.declareByHand() : written;
    if (!done.ok) {
      this.c.set({ handProblems: [done.message] });
      if (!editing) await book.deleteProject(id);
      return;
    }
    await this.keep(null);
    this.c.attach(s, pkg);
    await book.setLastOpen(id);
    await this.c.refreshProjects();
  }
}
