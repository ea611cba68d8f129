/**
 * A Studio session (seed 004 §3, §7, §9 — the seed's phase runtime): owns one session (phase
 * state, blackboard, the manager's conversation), feeds events to the pure phase machine and
 * carries out its effects — calls the model with the tools allowed now, runs helpers, writes the
 * board, persists snapshots and the design trace. No DOM: it runs on the main thread for the Studio
 * and in a Web Worker for play. Its contracts are in ./session-types.ts; the board's part of an
 * event in src/core/studio/board-effects.ts; the play manager's words in ./play-words.ts; a run
 * skill and its follow-ups in ./play-skills.ts.
 */
import { ModelError } from '../core/llm/types.ts';
import * as bb from '../core/studio/blackboard.ts';
import { applyBoardEffects, type BoardNote } from '../core/studio/board-effects.ts';
import { declaredGameOf } from '../core/studio/cards.ts';
import { draftProblems } from '../core/studio/draft-check.ts';
import { withIds } from '../core/studio/tag-schema.ts';
import { skillById, type StudioSkill } from '../core/studio/package-loader.ts';
import { transition, whoActs, type Effect, type PhaseEvent, type WaitingReason } from '../core/studio/phase-machine.ts';
import { missingInstantiateSkills } from '../core/studio/planner.ts';
import { toolResultMessage } from '../core/agent/messages.ts';
import { endSentence } from '../core/text/punctuation.ts';
import { waitLine } from '../core/studio/resting-words.ts';
import { designSnapshot, playSnapshot } from '../core/studio/session-start.ts';
import type { DesignTraceEntry, SessionSnapshot, TranscriptItem } from '../core/studio/types.ts';
import { withUserWords } from '../core/studio/manager-words.ts';
import { PlayWords } from './play-words.ts';
import { runCodeSkill } from './play-skills.ts';
import type { ActResult, DeclaredGame, SessionDeps, SessionIo, SessionView } from './session-types.ts';
import { managerRound } from './manager-round.ts';
import { runHelper } from './run-helper.ts';
import { SessionSaver } from './session-saver.ts';
import type { HelperOutcome } from './helper-executor.ts';

export type { ActResult, CodeExecutor, DeclaredGame, SessionDeps, SessionStore, SessionView } from './session-types.ts';
export { restingWords } from '../core/studio/resting-words.ts';

export class StudioSession {
  private snap: SessionSnapshot;
  private readonly saver: SessionSaver;
  private listeners = new Set<(v: SessionView) => void>();
  private busy = false;
  private persistWanted = false;
  /** In play: where the manager's reply goes sentence by sentence while it is written. */
  private onSentence: ((sentence: string) => void) | null = null;
  private replies: Array<{ text: string; session: 'active' | 'ended' }> = [];
  /** In play: the manager's words of this turn, sentence by sentence, each checked. */
  private readonly playWords: PlayWords;
  /** What the session's parts (the manager's round, a helper's run) use of it. */
  private readonly io: SessionIo;
  /** The manager's model has taken a step in this burst: no more pre-executed steps in it. */
  private modelStepped = false;
  private declared: DeclaredGame | null = null;
  private readonly now: () => number;

  private constructor(
    private readonly deps: SessionDeps,
    snap: SessionSnapshot,
  ) {
    this.snap = snap;
    this.now = deps.now ?? Date.now;
    this.saver = new SessionSaver(deps.store);
    this.playWords = new PlayWords(deps, { say: (sentence) => this.sayNow(sentence), log: (kind, data) => this.log(kind, data) });
    const field = {
      snap: () => this.snap,
      setSnap: (v: SessionSnapshot) => (this.snap = v),
      stepped: () => this.modelStepped,
      setStepped: (v: boolean) => (this.modelStepped = v),
    };
    this.io = {
      deps,
      now: this.now,
      get snap() { return field.snap(); },
      set snap(v) { field.setSnap(v); },
      get modelStepped() { return field.stepped(); },
      set modelStepped(v) { field.setStepped(v); },
      playWords: this.playWords,
      dispatch: (event, work) => this.dispatch(event, work),
      fail: (err) => this.fail(err),
      log: (kind, data) => this.log(kind, data),
      say: (item) => this.say(item),
      addUserMessage: (content) => this.addUserMessage(content),
      skillTitle: (id) => this.skillTitle(id),
      problems: (values, by) => this.problems(values, by),
      identified: (values) => this.identified(values),
      runCodeHelper: (skill) => this.runCodeHelper(skill),
    };
  }

  /** A new design session for a package. */
  static create(deps: SessionDeps, projectId: string): StudioSession {
    return new StudioSession(deps, designSnapshot(deps.pkg, projectId, (deps.now ?? Date.now)()));
  }

  /** Resume a persisted session exactly where it waited (a burst cut by a reload asks to continue). */
  static restore(deps: SessionDeps, snapshot: SessionSnapshot): StudioSession {
    if (snapshot.packageId !== deps.pkg.id) throw new Error(`snapshot is for package ${snapshot.packageId}, not ${deps.pkg.id}`);
    const s = new StudioSession(deps, structuredClone(snapshot));
    const t = transition(s.snap.state, { type: 'restored' });
    s.snap.state = t.state;
    for (const e of t.effects) {
      if (e.type === 'wait') s.announceWait(e.reason);
      if (e.type === 'persist') s.persistWanted = true;
    }
    return s;
  }

  /** The play stage of a declared design, waiting for the player's first input. */
  static startPlay(deps: SessionDeps, projectId: string, design: Record<string, unknown>): StudioSession {
    return new StudioSession(deps, playSnapshot(deps.pkg, projectId, design, (deps.now ?? Date.now)()));
  }

  get view(): SessionView {
    const s = this.snap;
    return { projectId: s.projectId, packageId: s.packageId, state: s.state, who: whoActs(s.state), waiting: s.state.waiting, board: s.board, transcript: s.transcript, busy: this.busy };
  }

  snapshot(): SessionSnapshot {
    return structuredClone({ ...this.snap, savedAt: this.now() });
  }

  subscribe(fn: (v: SessionView) => void): () => void {
    this.listeners.add(fn);
    fn(this.view);
    return () => this.listeners.delete(fn);
  }

  // ── user hard events ────────────────────────────────────────────────────────────
  input(text: string): Promise<ActResult> {
    return this.drive({ type: 'user_input', text });
  }
  accept(tag: string): Promise<ActResult> {
    const problems = this.problems({ [tag]: this.snap.board.tags[tag]?.value }, 'user');
    if (problems.length) return Promise.resolve({ ok: false, message: problems.join('；') });
    return this.drive({ type: 'user_accept', tag });
  }
  reject(tag: string, reason: string): Promise<ActResult> {
    return this.drive({ type: 'user_reject', tag, reason });
  }
  edit(tag: string, value: unknown): Promise<ActResult> {
    const [v] = Object.values(this.identified({ [tag]: value }));
    const problems = this.problems({ [tag]: v }, 'user');
    if (problems.length) return Promise.resolve({ ok: false, message: problems.join('；') });
    return this.drive({ type: 'user_edit', tag, value: v });
  }

  /** Design values with every row's id filled in (cards written by hand have none). */
  private identified(values: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(values).map(([t, v]) => [t, withIds(this.deps.pkg.tagDefs[t]?.schema, v)]));
  }

  /** Takes every draft under review as it is (one tap on 采用). */
  async acceptDraft(): Promise<ActResult> {
    const w = this.snap.state.waiting;
    if (w?.kind !== 'review_drafts') return { ok: false, message: '现在没有等你看的草稿' };
    for (const tag of [...w.tags]) {
      const r = await this.accept(tag);
      if (!r.ok) return r;
    }
    return { ok: true };
  }

  /** The parent's words about the drafts under review (改一改 / 重做): each is redone with them as the reason. */
  revise(text: string): Promise<ActResult> {
    return this.drive({ type: 'user_revise', text });
  }

  /** The parent writes design facts themselves (a hand-written deck), checked like any draft. */
  author(written: Record<string, unknown>): Promise<ActResult> {
    const values = this.identified(written);
    const problems = this.problems(values, 'user');
    if (problems.length) return Promise.resolve({ ok: false, message: problems.join('；') });
    const writer = this.deps.pkg.skills.find((s) => s.stage === 'instantiate' && Object.keys(values).some((t) => s.writes.includes(t)))?.id;
    return this.drive({ type: 'user_author', values, ...(writer ? { writer } : {}) });
  }

  /** A design written by hand is finished by the parent: it goes to the arcade. */
  declareByHand(): Promise<ActResult> {
    return this.drive({ type: 'user_declare' });
  }

  /** What a value would be refused for, as the runtime checks it (the form shows these before sending). */
  problems(values: Record<string, unknown>, by: 'helper' | 'user'): string[] {
    return draftProblems(this.deps.pkg, values, { board: this.snap.board, taken: this.deps.takenNames?.() ?? [], by });
  }
  continue(): Promise<ActResult> {
    return this.drive({ type: 'user_continue' });
  }

  /**
   * Play stage: one player input is one user hard event → one manager burst → run skills →
   * `运行.*` tags → the replies of this burst (the last one may have session `ended`).
   */
  async play(text: string, onSentence?: (sentence: string) => void): Promise<{ ok: boolean; message?: string; replies: Array<{ text: string; session: 'active' | 'ended' }> }> {
    this.replies = [];
    this.onSentence = onSentence ?? null;
    this.playWords.newTurn();
    this.modelStepped = false;
    const r = await this.drive({ type: 'player_input', text }).finally(() => (this.onSentence = null));
    const replies = this.replies;
    this.replies = [];
    return r.ok ? { ok: true, replies } : { ok: false, message: r.message, replies };
  }

  async endPlay(): Promise<ActResult> {
    return this.drive({ type: 'player_end' });
  }

  /** The declared game, once `declare_instance_ready` succeeded in this session. */
  get declaredGame(): DeclaredGame | null {
    return this.declared;
  }

  // ── driver ───────────────────────────────────────────────────────────────────────
  private emit(): void {
    const v = this.view;
    for (const fn of this.listeners) fn(v);
  }

  private log(kind: DesignTraceEntry['kind'], data: Record<string, unknown>): void {
    this.saver.log({ projectId: this.snap.projectId, at: this.now(), kind, burstNo: this.snap.state.burstNo, data });
  }

  private say(item: Omit<TranscriptItem, 'at'>): void {
    this.snap.transcript = [...this.snap.transcript, { ...item, at: this.now() }];
  }

  private async drive(first: PhaseEvent): Promise<ActResult> {
    if (this.busy) return { ok: false, message: '上一步还在处理，请稍等' };
    this.busy = true;
    this.emit();
    try {
      const work: Effect[] = [];
      const r = this.dispatch(first, work);
      if (!r.ok) return r;
      while (work.length) {
        const w = work.shift()!;
        if (w.type === 'call_model') await managerRound(this.io, work);
        else if (w.type === 'run_helper') await runHelper(this.io, w.skill, w.helperId, null, work);
        else if (w.type === 'resume_helper') await runHelper(this.io, w.skill, w.helperId, w.answer, work);
        // What the parent is shown is saved first: a reload right after a new draft appears finds it.
        await this.saveIfWanted();
        this.emit();
      }
      return { ok: true };
    } finally {
      this.busy = false;
      await this.saveIfWanted();
      this.emit();
    }
  }

  /** The machine asks for a save when the session comes to rest (waiting, done, error). */
  private async saveIfWanted(): Promise<void> {
    if (!this.persistWanted) return;
    this.persistWanted = false;
    await this.saver.saveOrTell(this.snap.projectId, () => this.snapshot(), this.declared, (text) => this.say({ who: 'system', text }));
  }

  /**
   * Apply one event: the machine decides, board effects are applied atomically (a refused board
   * write leaves everything as it was), asynchronous work is queued.
   */
  private dispatch(event: PhaseEvent, work: Effect[]): ActResult {
    const prevBurst = this.snap.state.burstNo;
    const t = transition(this.snap.state, event);
    const refused = t.effects.find((e) => e.type === 'refused');
    if (refused && refused.type === 'refused') return { ok: false, message: refused.message };
    let applied;
    try {
      applied = applyBoardEffects(this.deps.pkg, this.snap.board, t.effects, event, this.now());
    } catch (err) {
      if (err instanceof bb.BoardError) return { ok: false, message: err.code === 'not_draft' ? '这一项已经定好了，不能再改' : err.message };
      throw err;
    }
    this.snap.state = t.state;
    this.snap.board = applied.board;
    applied.notes.forEach((n) => this.note(n));
    for (const e of t.effects) {
      switch (e.type) {
        case 'call_model':
        case 'run_helper':
        case 'resume_helper':
          work.push(e);
          break;
        case 'wait':
          // A review announces itself once, when the drafts arrive (not after each tag taken).
          if (e.reason.kind !== 'review_drafts' || event.type === 'helper_submitted') this.announceWait(e.reason);
          break;
        case 'drop_helper':
          if (this.snap.pendingHelper?.helperId === e.helperId) this.snap.pendingHelper = null;
          this.addUserMessage(toolResultMessage('run_helper', `${e.skill} 没有交草稿：家长自己写好了，见黑板`).content);
          break;
        case 'declare_ready':
          this.declare();
          break;
        case 'send_reply':
          this.replies.push({ text: e.text, session: e.session });
          this.say({ who: 'agent', text: e.text });
          break;
        case 'persist':
          this.persistWanted = true;
          break;
        // Applied to the board above, before the state changed, or refused (returned above).
        case 'record_user_words':
        case 'record_player_input':
        case 'accept_tag':
        case 'reject_tag':
        case 'edit_tag':
        case 'author_tags':
        case 'refused':
          break;
      }
    }
    if (t.state.burstNo > prevBurst) this.log('burst', { burstNo: t.state.burstNo, cause: event.type });
    this.refreshReadiness();
    return { ok: true };
  }

  /** A user message of the manager's conversation (joined to an unanswered one: withUserWords). */
  private addUserMessage(content: string): void {
    this.snap.manager = withUserWords(this.snap.manager, content);
  }

  /** A decision or words of the parent (or the player): a plain line in the conversation, the exact one for the manager. */
  private note(n: BoardNote): void {
    if (n.kind === 'words') {
      this.say({ who: 'user', text: n.text });
      this.addUserMessage(n.forManager);
      this.log(n.log, n.data);
      return;
    }
    if (n.shown) this.say({ who: 'user', text: n.shown });
    this.addUserMessage(`[验收] ${n.forManager}`);
    this.log('user_decision', n.data);
  }

  private skillTitle(id: string): string {
    return skillById(this.deps.pkg, id)?.title ?? id;
  }

  /** Keep the machine's `ready` fact in step with the board (it gates declare_instance_ready). */
  private refreshReadiness(): void {
    if (this.snap.state.stage !== 'design') return;
    const ready = missingInstantiateSkills(this.deps.pkg, this.snap.board).ready;
    if (ready !== this.snap.state.ready) this.snap.state = transition(this.snap.state, { type: 'facts_changed', ready }).state;
  }

  /** What the parent is asked, as a line of the conversation (in plain words). */
  private announceWait(reason: WaitingReason): void {
    const line = waitLine(reason, this.deps.pkg, this.snap.board, (skill) => this.skillTitle(skill));
    if (line) this.say(line);
  }

  /** A sentence of the manager's reply, said at once (play). */
  private sayNow(sentence: string): void {
    this.say({ who: 'agent', text: sentence });
    this.onSentence?.(sentence);
  }

  private fail(err: unknown): void {
    const code = err instanceof ModelError ? err.code : 'studio_runtime';
    const message = err instanceof Error ? err.message : String(err);
    this.log('model_error', { code, message });
    // A model error's message is the catalogue's plain Chinese; anything else is a bug's text.
    const plain = err instanceof ModelError ? message : '设计室出了点问题';
    this.say({ who: 'system', text: `${endSentence(plain)}弄好以后点「接着想」再试一次。` });
    this.dispatch({ type: 'failure', code, message }, []);
  }

  private runCodeHelper(skill: StudioSkill): HelperOutcome {
    return runCodeSkill(skill, this.snap.board, this.deps.codeExecutors);
  }

  private declare(): void {
    const { game, wanted, title } = declaredGameOf(this.deps.pkg, this.snap.board, this.snap.projectId, this.deps.takenNames?.() ?? []);
    const { declaration, cards } = game;
    this.declared = game;
    this.log('declared', { gameId: declaration.id, title: declaration.title, cards: cards.length });
    if (title !== wanted) this.say({ who: 'system', text: `「${wanted}」这个名字刚刚被别的游戏用了，改叫「${title}」。` });
    this.say({ who: 'agent', text: `做好了！「${declaration.title}」已经放进游戏厅，孩子说「我们玩${declaration.title}吧」就能开始。` });
  }

  /**
   * What a code skill would write now, without writing it (the play runtime's own goodbye uses the
   * game's wrap-up code, so it speaks in the same words). Undefined when it has no code or fails.
   */
  preview(skillId: string): Record<string, unknown> | undefined {
    const skill = skillById(this.deps.pkg, skillId);
    if (!skill || skill.executor !== 'code') return undefined;
    const out = this.runCodeHelper(skill);
    return out.kind === 'submitted' ? out.values : undefined;
  }
}
