/**
 * The phase runtime (seed 004 §3, §7, §9): owns one Session (phase state, blackboard, the manager's
 * conversation), feeds events to the pure phase machine and carries out its effects — calls the
 * model with the tools allowed now, runs workers, writes the board, persists snapshots and the
 * design trace. No DOM: it runs on the main thread for the Studio and in a Web Worker for play.
 */
import { ModelError, type ChatMessage, type ChatModel, type Step, type ToolSpec } from '../core/llm/types.ts';
import './errors.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import * as bb from '../core/studio/blackboard.ts';
import { cardsFromDesign, declarationFor, gameIdFor, type ThemeFact } from '../core/studio/cards.ts';
import { draftProblems, PARADIGM_TAG, PARENT_WORDS_TAG } from '../core/studio/draft-check.ts';
import { freeName, nameTaken } from '../core/studio/names.ts';
import { summarize, withIds } from '../core/studio/tag-schema.ts';
import { skillById, type SkillDef, type SkillPackage } from '../core/studio/package-loader.ts';
import { allowedTools, initialPhaseState, isLoopTool, transition, whoActs, type Effect, type PhaseEvent, type PhaseState, type WaitingReason } from '../core/studio/phase-machine.ts';
import { missingInstantiateSkills, RUN_SKILL_LIST } from '../core/studio/planner.ts';
import { managerSystemPrompt, managerToolSpecs, MANAGER_AGENT, parseManagerStep, runLoopTool } from '../core/studio/manager-tools.ts';
import { errorOf, toolResultMessage } from '../core/agent/messages.ts';
import { endSentence } from '../core/text/punctuation.ts';
import { runToolLoop, ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import { NOTHING_MORE, SentenceStream } from '../core/speech/sentence-stream.ts';
import { checkSentence, truthCorrection, TruthGate, type TruthProblem, type TruthRules } from '../core/games/truth.ts';
import { rebuiltTurn } from '../core/games/blocked-turn.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { unsafeNow, UNSAFE, type UnsafeFinding } from '../games/unsafe-line.ts';
import type { CardAsset, DesignTraceEntry, SessionSnapshot, TranscriptItem } from '../core/studio/types.ts';
import { assembleWorkerContext } from '../core/studio/worker-context.ts';
import { runWorkerLoop, type WorkerOutcome } from './worker-executor.ts';

const PLAYER_INPUT_TAG = '运行.玩家输入';
const REPLY_TAG = '运行.回复';

/** Runtime code for `executor: code` skills: reads (unmasked) in, output tag values out. */
export type CodeExecutor = (reads: Record<string, unknown>) => Record<string, unknown>;

/** Where a session persists itself (the Book implements it; tests may pass nothing). */
export interface SessionStore {
  saveSession(snapshot: SessionSnapshot, trace: DesignTraceEntry[]): Promise<void>;
  saveDeclared(projectId: string, declared: DeclaredGame): Promise<void>;
}

export interface DeclaredGame {
  declaration: GameDeclaration;
  cards: CardAsset[];
  /** Accepted `设计.*` values: everything the play stage reads. */
  design: Record<string, unknown>;
}

export interface SessionDeps {
  pkg: SkillPackage;
  model: ChatModel;
  store?: SessionStore;
  now?: () => number;
  codeExecutors?: Record<string, CodeExecutor>;
  /** In play: a line of the manager the safety check blocked before it was said (for the parent's 安全提醒). */
  blocked?: (original: string, finding: UnsafeFinding | null, said: string) => void;
  /**
   * In play: the truth rules of the turn now (src/core/games/truth.ts). Each sentence of the
   * manager's reply is checked before it is said; a reply that claims what the run skills did not
   * decide is refused back to the manager, and after the retries of a `TruthGate` the rules' own line is said.
   */
  truth?: () => TruthRules | null;
  /** Names (titles, aliases) of the games already in the arcade, this design's own excluded. */
  takenNames?: () => readonly string[];
  /**
   * In play: the package's reader (skills/<pkg>/reader.ts). Before the manager's model is asked in
   * a burst, the run skill the rules call for is performed and written into the manager's
   * conversation exactly as its own step; once the model has taken a step, the model decides.
   */
  reader?: (req: { messages: readonly ChatMessage[]; tools: readonly ToolSpec[] }) => Step | null;
}

export interface SessionView {
  projectId: string;
  packageId: string;
  state: PhaseState;
  who: ReturnType<typeof whoActs>;
  waiting: WaitingReason | null;
  board: bb.Blackboard;
  transcript: TranscriptItem[];
  busy: boolean;
}

export type ActResult = { ok: true } | { ok: false; message: string };

/** A failed step as the parent reads it: the why in brackets (what the worker was told) stays under 技术细节. */
function plainFailure(message: string): string {
  return message.replace(/（[^（）]*）$/, '').trim();
}

/**
 * What the parent reads while the design rests for a reason of its own (no question, no draft to
 * look at), in the conversation and on the screen alike; null for the other reasons.
 */
export function restingWords(reason: WaitingReason, stepTitle: (skill: string) => string): string | null {
  switch (reason.kind) {
    case 'burst_cap':
      return `我想了 ${reason.rounds} 步还没想好，先停下来。你可以再说说要求，或者点「接着想」。`;
    case 'worker_failed':
      return `「${stepTitle(reason.skill)}」这一步没做成：${endSentence(plainFailure(reason.message))}点「接着想」再试一次。`;
    case 'interrupted':
      return '上次还没想完就被打断了，点「接着想」继续。';
    default:
      return null;
  }
}

/** What the Studio says first (the parent has never heard of skills or agents). */
const START_WORDS = '说说你想给孩子做个什么样的游戏吧。比如：「给5岁的孩子做个恐龙问答」「猜谜语，玩3轮」「我想和孩子讲故事」「我说你做」。';

export class StudioSession {
  private snap: SessionSnapshot;
  private trace: DesignTraceEntry[] = [];
  private listeners = new Set<(v: SessionView) => void>();
  private busy = false;
  private persistWanted = false;
  /** In play: where the manager's reply goes sentence by sentence while it is written. */
  private onSentence: ((sentence: string) => void) | null = null;
  private replies: Array<{ text: string; session: 'active' | 'ended' }> = [];
  /** In play: the manager's words of this turn, sentence by sentence, each checked (one stream across the turn's steps). */
  private playStream: SentenceStream<TruthProblem> | null = null;
  /** The truth rules of the manager's current step (play). */
  private stepRules: TruthRules | null = null;
  private truthGate = new TruthGate();
  /** The manager's model has taken a step in this burst: no more pre-executed steps in it. */
  private modelStepped = false;
  private declared: DeclaredGame | null = null;
  private declaredSaved = false;
  private readonly now: () => number;

  private constructor(
    private readonly deps: SessionDeps,
    snap: SessionSnapshot,
  ) {
    this.snap = snap;
    this.now = deps.now ?? Date.now;
  }

  /** A new design session for a package. */
  static create(deps: SessionDeps, projectId: string): StudioSession {
    const at = (deps.now ?? Date.now)();
    return new StudioSession(deps, {
      v: 1,
      projectId,
      packageId: deps.pkg.id,
      state: initialPhaseState(deps.pkg.burstCap),
      board: bb.emptyBoard(Object.keys(deps.pkg.tags)),
      manager: [{ role: 'system', content: managerSystemPrompt(deps.pkg, 'design') }],
      pendingWorker: null,
      transcript: [{ who: 'agent', text: START_WORDS, at }],
      seq: 0,
      savedAt: at,
    });
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

  /**
   * The play stage of a declared design: a fresh board holding the accepted design facts, the
   * manager in play mode, waiting for the player's first input.
   */
  static startPlay(deps: SessionDeps, projectId: string, design: Record<string, unknown>): StudioSession {
    const at = (deps.now ?? Date.now)();
    let board = bb.emptyBoard(Object.keys(deps.pkg.tags));
    for (const [tag, value] of Object.entries(design)) board = bb.recordUserFact(board, tag, value, at);
    const state: PhaseState = { ...initialPhaseState(deps.pkg.burstCap, 'play'), ready: true };
    return new StudioSession(deps, {
      v: 1,
      projectId,
      packageId: deps.pkg.id,
      state,
      board,
      manager: [{ role: 'system', content: managerSystemPrompt(deps.pkg, 'play', Array.isArray(design[RUN_SKILL_LIST]) ? (design[RUN_SKILL_LIST] as string[]) : []) }],
      pendingWorker: null,
      transcript: [],
      seq: 0,
      savedAt: at,
    });
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
  problems(values: Record<string, unknown>, by: 'worker' | 'user'): string[] {
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
    this.playStream = null;
    this.truthGate = new TruthGate();
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
    this.trace.push({ projectId: this.snap.projectId, at: this.now(), kind, burstNo: this.snap.state.burstNo, data });
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
        if (w.type === 'call_model') await this.managerRound(work);
        else if (w.type === 'run_worker') await this.runWorker(w.skill, w.workerId, null, work);
        else if (w.type === 'resume_worker') await this.runWorker(w.skill, w.workerId, w.answer, work);
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
    await this.persistOrSay();
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
    const at = this.now();
    let board = this.snap.board;
    const notes: Array<() => void> = [];
    const title = (tag: string) => this.deps.pkg.tagDefs[tag]?.title ?? tag;
    const plain = (tag: string) => !this.deps.pkg.tagDefs[tag]?.technical;
    // The parent's own words (revise) are already in the conversation: the rejections add no line.
    const worded = event.type === 'user_revise';
    try {
      for (const e of t.effects) {
        if (e.type === 'accept_tag') {
          board = bb.accept(board, e.tag, 'user', at);
          notes.push(() => this.userDecision(plain(e.tag) ? `好，就用这个${title(e.tag)}。` : null, `采用 ${e.tag}`, { decision: 'accept', tag: e.tag }));
        } else if (e.type === 'reject_tag') {
          board = bb.reject(board, e.tag, e.reason, 'user', at);
          notes.push(() => this.userDecision(worded || !plain(e.tag) ? null : `${title(e.tag)}重做：${e.reason}`, `驳回 ${e.tag}，理由：${e.reason}`, { decision: 'reject', tag: e.tag, reason: e.reason }));
        } else if (e.type === 'edit_tag') {
          board = bb.editAndAccept(board, e.tag, e.value, 'user', at);
          notes.push(() => this.userDecision(plain(e.tag) ? `改了一下${title(e.tag)}。` : null, `修改并采用 ${e.tag}`, { decision: 'edit', tag: e.tag, value: e.value }));
        } else if (e.type === 'author_tags') {
          for (const [tag, value] of Object.entries(e.values)) board = bb.recordUserFact(board, tag, value, at);
          const tags = Object.keys(e.values);
          const shown = tags.filter(plain).map(title);
          notes.push(() => this.userDecision(shown.length ? `自己写好了${shown.join('、')}。` : null, `家长自己写了：${tags.join('、')}（已采用）`, { decision: 'author', tags }));
        } else if (e.type === 'record_user_words') {
          const prev = bb.acceptedValue<string[]>(board, PARENT_WORDS_TAG) ?? [];
          board = bb.recordUserFact(board, PARENT_WORDS_TAG, [...prev, e.text], at);
          notes.push(() => {
            this.say({ who: 'user', text: e.text });
            this.addUserMessage(`[家长] ${e.text}`);
            this.log('user_input', { text: e.text });
          });
        } else if (e.type === 'record_player_input') {
          board = bb.recordRuntimeFact(board, PLAYER_INPUT_TAG, e.text, at);
          notes.push(() => {
            this.say({ who: 'user', text: e.text });
            this.addUserMessage(`[孩子] ${e.text}`);
            this.log('play_turn', { input: e.text });
          });
        }
      }
    } catch (err) {
      if (err instanceof bb.BoardError) return { ok: false, message: err.code === 'not_draft' ? '这一项已经定好了，不能再改' : err.message };
      throw err;
    }
    this.snap.state = t.state;
    this.snap.board = board;
    notes.forEach((n) => n());
    for (const e of t.effects) {
      switch (e.type) {
        case 'call_model':
        case 'run_worker':
        case 'resume_worker':
          work.push(e);
          break;
        case 'wait':
          // A review announces itself once, when the drafts arrive (not after each tag taken).
          if (e.reason.kind !== 'review_drafts' || event.type === 'worker_submitted') this.announceWait(e.reason);
          break;
        case 'drop_worker':
          if (this.snap.pendingWorker?.workerId === e.workerId) this.snap.pendingWorker = null;
          this.addUserMessage(toolResultMessage('run_worker', `${e.skill} 没有交草稿：家长自己写好了，见黑板`).content);
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

  /**
   * A user message of the manager's conversation. After a tool result the model has not answered
   * (a burst that ended with a worker), the next words join that same message: the conversation
   * keeps taking turns, so a local engine continues its cached conversation in place.
   */
  private addUserMessage(content: string): void {
    const m = this.snap.manager;
    const last = m.at(-1);
    if (m.length > 1 && last?.role === 'user') this.snap.manager = [...m.slice(0, -1), { role: 'user', content: `${last.content}\n${content}` }];
    else this.snap.manager = [...m, { role: 'user', content }];
  }

  /** A decision of the parent: a plain line in the conversation (none for plumbing), the exact one for the manager. */
  private userDecision(shown: string | null, forManager: string, data: Record<string, unknown>): void {
    if (shown) this.say({ who: 'user', text: shown });
    this.addUserMessage(`[验收] ${forManager}`);
    this.log('user_decision', data);
  }

  private skillTitle(id: string): string {
    return skillById(this.deps.pkg, id)?.title ?? id;
  }

  /** The drafts of a review in the parent's words: 「玩法：…，一共 3 轮」. */
  draftSummary(tags: readonly string[]): string {
    return tags
      .map((t) => {
        const def = this.deps.pkg.tagDefs[t];
        if (!def || def.technical) return '';
        const sum = summarize(def, this.snap.board.tags[t]?.value);
        return sum.text || def.title;
      })
      .filter(Boolean)
      .join('；');
  }

  /** Keep the machine's `ready` fact in step with the board (it gates declare_instance_ready). */
  private refreshReadiness(): void {
    if (this.snap.state.stage !== 'design') return;
    const ready = missingInstantiateSkills(this.deps.pkg, this.snap.board).ready;
    if (ready !== this.snap.state.ready) this.snap.state = transition(this.snap.state, { type: 'facts_changed', ready }).state;
  }

  /** What the parent is asked, as a line of the conversation (in plain words). */
  private announceWait(reason: WaitingReason): void {
    if (reason.kind === 'agent_question') this.say({ who: 'agent', text: reason.question });
    else if (reason.kind === 'worker_question') this.say({ who: 'worker', skill: reason.skill, text: reason.question });
    else if (reason.kind === 'review_drafts' && reason.tags.length) {
      const summary = this.draftSummary(reason.tags);
      this.say({ who: 'worker', skill: reason.skill, text: `${endSentence(`${this.skillTitle(reason.skill)}想好了${summary ? `：${summary}` : ''}`)}行的话点「采用」，也可以直接说想怎么改。` });
    } else {
      const words = restingWords(reason, (skill) => this.skillTitle(skill));
      if (words) this.say({ who: 'system', text: words });
    }
  }

  /**
   * The manager's part of a burst: the agent tool loop over the tools the phase machine allows now,
   * with the burst's remaining rounds as its step budget. Every step is an event for the machine
   * (a loop tool, a refused step); a boundary tool's event is dispatched by the tool itself and
   * ends the loop, and the machine's effects (run a worker, wait, reply) continue the drive.
   */
  private async managerRound(work: Effect[]): Promise<void> {
    const s = this.snap.state;
    const reader = s.stage === 'play' && !this.modelStepped ? this.deps.reader : undefined;
    let outcome;
    try {
      outcome = await runToolLoop({
        agent: MANAGER_AGENT,
        model: this.deps.model,
        messages: this.snap.manager,
        tools: () => this.managerTools(work),
        maxSteps: Math.max(1, s.burstCap - s.burst),
        now: this.now,
        ...(reader ? { pre: (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => reader({ messages, tools }) } : {}),
        onStep: (r) => {
          if (!r.pre) this.modelStepped = true;
          this.log('tool_call', { tool: r.step.action, args: r.step.args, kind: r.refused ? 'invalid' : r.kind });
          // The loop goes on by itself: a step's `call_model` effect is not queued again.
          if (r.refused) this.dispatch({ type: 'agent_tool_error', message: errorOf(r.result) ?? '' }, []);
          else if (r.kind === 'loop') this.dispatch({ type: 'agent_loop_tool', name: r.step.action }, []);
        },
      });
    } catch (err) {
      this.fail(err);
      return;
    }
    this.snap.manager = outcome.messages;
  }

  /** The manager's tool registry now: loop tools read the board; boundary tools become phase events. */
  private managerTools(work: Effect[]): AgentTool[] {
    const s = this.snap.state;
    const allowed = allowedTools(s);
    const runSkills = s.stage === 'play' ? (bb.acceptedValue<string[]>(this.snap.board, RUN_SKILL_LIST) ?? []) : [];
    return managerToolSpecs(this.deps.pkg, s, allowed, runSkills).map((spec): AgentTool => {
      if (isLoopTool(spec.name)) return { ...spec, kind: 'loop', perform: () => runLoopTool(spec.name, this.deps.pkg, this.snap.board) };
      // In play, what the manager says to the child goes out sentence by sentence as it is written, each sentence checked first.
      const speaks = s.stage === 'play' && (spec.name === 'reply' || spec.name === 'finish');
      const stream = speaks ? this.managerStream() : null;
      return {
            ...spec,
            kind: 'boundary',
            ...(stream ? { streamText: (text: string, attempt: number) => stream.update(text, attempt) } : {}),
            perform: (raw) => {
              const args = stream && typeof raw.text === 'string' ? { ...raw, text: stream.finish(this.trueWords(stream, raw.text.trim(), spec.name !== 'finish')) || (stream.sent.length ? NOTHING_MORE : '') } : raw;
              const parsed = parseManagerStep({ action: spec.name, args }, allowed, this.deps.pkg, s.stage, () => `w${++this.snap.seq}`);
              if (parsed.kind === 'invalid') throw new ToolError(parsed.message);
              if (parsed.kind !== 'boundary') throw new ToolError(`「${spec.name}」不是边界工具`);
              const r = this.dispatch(parsed.event, work);
              if (!r.ok) throw new ToolError(r.message);
              if (parsed.event.type === 'agent_run_worker' && s.stage === 'design') this.say({ who: 'agent', text: `我来想想${this.skillTitle(parsed.event.skill)}……` });
              return { ok: true };
            },
          };
    });
  }

  /**
   * The play manager's stream of this turn; a new step starts over (without saying again what was
   * said). The truth rules are built once per step: the board does not change while the manager writes.
   */
  private managerStream(): SentenceStream<TruthProblem> {
    this.stepRules = this.deps.truth?.() ?? null;
    const check = (sentence: string): TruthProblem | null => {
      if (unsafeNow(sentence)) return { sentence, claim: { kind: UNSAFE, words: sentence }, reason: '这句话不适合小朋友' };
      return this.stepRules ? checkSentence(sentence, this.stepRules) : null;
    };
    this.playStream ??= new SentenceStream<TruthProblem>((sentence) => this.sayNow(sentence), true, check);
    this.playStream.restart();
    return this.playStream;
  }

  /**
   * The manager's words if true; refused back (a tool error) while retries last, then the rules' own
   * line. `continues`: the game goes on after these words (`reply`), not `finish`.
   */
  private trueWords(stream: SentenceStream<TruthProblem>, text: string, continues: boolean): string {
    const problem = stream.problemIn(text);
    if (!problem) return text;
    if (problem.problem.claim.kind === UNSAFE) {
      // A blocked line never swallows the turn: the redirect, then what the rules decided this turn.
      this.log('tool_call', { tool: 'safety', kind: 'invalid' });
      stream.restart();
      const line = rebuiltTurn({ redirect: REDIRECT.game, rulesLine: this.stepRules?.fallback() ?? null, continues, said: stream.sent });
      const at = text.indexOf(problem.sentence);
      this.deps.blocked?.(at >= 0 ? text.slice(at) : problem.sentence, unsafeNow(problem.sentence), line);
      return line;
    }
    this.log('tool_call', { tool: 'truth', claim: problem.problem.claim.kind, reason: problem.problem.reason, kind: 'invalid' });
    if (this.truthGate.retry()) {
      stream.restart();
      throw new ToolError(truthCorrection(problem.problem));
    }
    stream.restart();
    return this.stepRules?.fallback() ?? '我们继续玩吧！';
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

  private async runWorker(skillId: string, workerId: string, answer: string | null, work: Effect[]): Promise<void> {
    const pkg = this.deps.pkg;
    const skill = skillById(pkg, skillId) as SkillDef;
    const started = this.now();
    let outcome: WorkerOutcome;
    try {
      if (skill.executor === 'code') outcome = this.runCodeWorker(skill);
      else {
        let messages: ChatMessage[];
        if (answer !== null && this.snap.pendingWorker?.workerId === workerId) messages = [...this.snap.pendingWorker.messages, toolResultMessage('ask_user', { answer })];
        else messages = assembleWorkerContext(pkg, skill, this.snap.board).messages;
        const design = this.snap.state.stage === 'design';
        const contract = {
          schemas: Object.fromEntries(skill.writes.map((t) => [t, pkg.tagDefs[t]?.schema])),
          ...(design ? { check: (values: Record<string, unknown>) => this.problems(values, 'worker') } : {}),
        };
        outcome = await runWorkerLoop({ model: this.deps.model, skill, messages, now: this.now, contract });
      }
    } catch (err) {
      this.fail(err);
      return;
    }
    this.snap.pendingWorker = null;
    this.log('worker_run', { workerId, skill: skillId, outcome: outcome.kind, rounds: outcome.rounds, ms: this.now() - started, ...(outcome.kind === 'submitted' ? { tags: Object.keys(outcome.values) } : {}) });
    if (outcome.kind === 'asked') {
      this.snap.pendingWorker = { workerId, skill: skillId, messages: outcome.messages };
      this.dispatch({ type: 'worker_asked', workerId, question: outcome.question, options: outcome.options }, work);
      return;
    }
    if (outcome.kind === 'failed') {
      this.dispatch({ type: 'worker_failed', workerId, message: outcome.message }, work);
      return;
    }
    const submit = (s: SkillDef, values: Record<string, unknown>) =>
      (this.snap.board = bb.submit(this.snap.board, { workerId, skill: s.id, burst: this.snap.state.burstNo, at: this.now(), declaredWrites: s.writes, values }));
    if (this.snap.state.stage !== 'play') {
      try {
        submit(skill, this.identified(outcome.values));
      } catch (err) {
        this.dispatch({ type: 'worker_failed', workerId, message: (err as Error).message }, work);
        return;
      }
      this.addUserMessage(toolResultMessage('run_worker', `${skillId} 交了草稿：${Object.keys(outcome.values).join('、')}，等家长验收`).content);
      this.dispatch({ type: 'worker_submitted', workerId, tags: Object.keys(outcome.values) }, work);
      return;
    }
    // Play: the skill, then its deterministic code follow-ups (`then`), all inside this one tool
    // call; if any fails, the board is left as it was before the call.
    const board = this.snap.board;
    const ran: Array<{ skill: SkillDef; values: Record<string, unknown> }> = [{ skill, values: outcome.values }];
    try {
      submit(skill, outcome.values);
      for (const next of skill.then) {
        const follow = skillById(pkg, next) as SkillDef;
        const out = this.runCodeWorker(follow);
        if (out.kind !== 'submitted') throw new Error(`${next}: ${out.kind === 'failed' ? out.message : '没有结果'}`);
        submit(follow, out.values);
        ran.push({ skill: follow, values: out.values });
      }
    } catch (err) {
      this.snap.board = board;
      this.dispatch({ type: 'worker_failed', workerId, message: (err as Error).message }, work);
      return;
    }
    const lines = ran.map((r) => `${r.skill.id} 已更新：${this.playResultSummary(Object.keys(r.values))}`);
    this.addUserMessage(toolResultMessage('run_worker', lines.join('\n')).content);
    // A run skill that wrote `运行.回复` has said what the child hears: that is the burst's reply.
    const spoke = ran.filter((r) => REPLY_TAG in r.values);
    const said = spoke.at(-1)?.values[REPLY_TAG];
    const tags = [...new Set(ran.flatMap((r) => Object.keys(r.values)))];
    if (spoke.length && (typeof said !== 'string' || !said.trim())) {
      this.snap.board = board;
      this.dispatch({ type: 'worker_failed', workerId, message: `${spoke.at(-1)!.skill.id} 写的「${REPLY_TAG}」是空的` }, work);
      return;
    }
    const reply = typeof said === 'string' ? { text: said.trim(), session: ran.some((r) => r.skill.ends) ? ('ended' as const) : ('active' as const) } : undefined;
    this.dispatch({ type: 'worker_submitted', workerId, tags, ...(reply ? { reply } : {}) }, work);
  }

  /** What the play manager may see of the new `运行.*` values (never the current card's answer). */
  private playResultSummary(tags: string[]): string {
    return JSON.stringify(Object.fromEntries(tags.filter((t) => t !== '运行.当前卡').map((t) => [t, this.snap.board.tags[t]?.value])));
  }

  private runCodeWorker(skill: SkillDef): WorkerOutcome {
    const exec = this.deps.codeExecutors?.[skill.id];
    if (!exec) return { kind: 'failed', message: `skill「${skill.id}」需要运行时代码，但没有提供`, messages: [], rounds: 0 };
    const reads = Object.fromEntries(skill.reads.map((t) => [t, this.snap.board.tags[t]?.status === 'accepted' ? this.snap.board.tags[t].value : undefined]));
    try {
      return { kind: 'submitted', values: exec(reads), messages: [], rounds: 1 };
    } catch (err) {
      return { kind: 'failed', message: `skill「${skill.id}」的运行时代码出错：${err instanceof Error ? err.message : String(err)}`, messages: [], rounds: 1 };
    }
  }

  private declare(): void {
    const pkg = this.deps.pkg;
    const design: Record<string, unknown> = {};
    for (const e of Object.values(this.snap.board.tags)) if (e.status === 'accepted' && e.name.startsWith('设计.')) design[e.name] = e.value;
    const taken = this.deps.takenNames?.() ?? [];
    const accepted = (design['设计.主题'] ?? {}) as ThemeFact;
    const wanted = (accepted.标题 ?? `${accepted.主题 ?? ''}问答`).trim() || pkg.title;
    // Checked when the name was accepted; another design may have taken it since.
    const title = freeName(wanted, taken);
    const theme: ThemeFact = { ...accepted, 标题: title, 别名: (accepted.别名 ?? []).filter((a) => !nameTaken(a, taken)) };
    const paradigm = (design[PARADIGM_TAG] as { 范式?: string } | undefined)?.范式;
    const declaration = declarationFor({ gameId: gameIdFor(title, this.snap.projectId), theme, description: `${paradigm ?? pkg.title}：${theme.主题 ?? ''}`, capabilities: pkg.capabilities });
    const cards = cardsFromDesign(this.snap.projectId, design['设计.卡牌']);
    this.declared = { declaration, cards, design: { ...design, '设计.主题': theme } };
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
    const out = this.runCodeWorker(skill);
    return out.kind === 'submitted' ? out.values : undefined;
  }

  private async persist(): Promise<void> {
    const store = this.deps.store;
    const trace = this.trace;
    this.trace = [];
    if (!store) return;
    try {
      if (this.declared && !this.declaredSaved) {
        await store.saveDeclared(this.snap.projectId, this.declared);
        this.declaredSaved = true;
      }
      await store.saveSession(this.snapshot(), trace);
    } catch (err) {
      this.trace = [...trace, ...this.trace]; // kept for the next save
      throw err;
    }
  }

  /**
   * The action is already applied when the save runs: a failed save (e.g. IndexedDB full or closed)
   * must not turn into a rejected action; the parent is told instead, and the next action saves again.
   */
  private async persistOrSay(): Promise<void> {
    try {
      await this.persist();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.say({ who: 'system', text: `保存失败：${endSentence(why)}在下次保存成功之前，请不要刷新或关闭页面。` });
    }
  }
}
