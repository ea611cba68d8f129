/**
 * One play session of a designed game, as the game agent runs it (seed 004 §8): each
 * player input is a user hard event → one manager burst → run skills → `运行.*` tags → replies.
 *
 * On top of the Studio's StudioSession (which owns the board and the phase machine) it adds what a
 * game agent needs:
 * - the turn's AbortSignal reaches every model step (signal-bound model);
 * - a failed or cancelled turn leaves nothing behind (seed 000: 这一轮不写入记忆): the session is
 *   restored to its snapshot from before the turn — board, manager conversation and phase — so a
 *   repeated answer is judged and scored once;
 * - the PlayBook record (turns, score, duration), updated after every turn.
 */
import type { ChatMessage, ChatModel } from '../../core/llm/types.ts';
import type { CodeExecutor } from '../../core/studio/types.ts';
import { StudioSession, type SessionDeps } from '../studio-session.ts';
import { codeExecutorsFor, playReaderFor, playTruthFor, type PlayableGame, type PlayReader, type PlayReply } from '../play-stage.ts';
import type { CardAsset, PlayBook } from '../../core/studio/types.ts';
import { abortReason, signalBoundModel } from './bound-model.ts';
import { prewarmManager } from '../manager-prewarm.ts';
import { lastRounds } from '../../core/agent/memory.ts';
import type { Random } from '../../core/random.ts';
import { currentCardOf, playTruthState, scoreOf, turnChanges, type ScoreNow, type TurnChanges } from '../../core/studio/device-effects.ts';
import type { TruthRules } from '../../core/games/truth.ts';
import { PARADIGM_TAG } from '../../core/studio/draft-check.ts';
import { RUN_SKILL_LIST } from '../../core/studio/planner.ts';

/** A round of the play manager's conversation starts at the child's words (after the last result they may follow). */
const isPlayerMessage = (m: ChatMessage): boolean => m.role === 'user' && /(^|\n)\[孩子\] /.test(m.content);

type TurnOutcome =
  | { ok: true; replies: PlayReply[]; ended: boolean; changes: TurnChanges }
  /** Nothing happened (restored): the model failed, gave no reply, or the runtime refused. */
  | { ok: false; reason: string };

export interface PlayRuntimeOptions {
  now?: () => number;
  /** PlayBook id (default: from the clock and the random source). */
  id?: string;
  random: Random;
  codeExecutors?: Record<string, CodeExecutor>;
  /** A line of the manager the safety check blocked before it was said. */
  blocked?: SessionDeps['blocked'];
  /** The child-safety check of a line the manager is about to say. */
  unsafe?: SessionDeps['unsafe'];
  /** Pre-executed steps (default on): the package's play reader runs before the manager's model is asked. */
  preExecute?: boolean;
}

/** The package's play reader, given the deck's answers (the rules' own knowledge: never in a prompt). */
function readerWithDeck(reader: PlayReader | undefined, game: PlayableGame): SessionDeps['reader'] {
  if (!reader) return undefined;
  const deck = game.cards.map((c) => ({ name: c.answer, aliases: [...c.aliases] }));
  return (req) => reader({ ...req, deck });
}

export class PlayRuntime {
  private session: StudioSession;
  private readonly deps: SessionDeps;
  private signal: AbortSignal | null = null;
  private record: PlayBook;
  private closed = false;
  private readonly now: () => number;
  /** The turn being played: the board before it and the child's words (the truth rules read them). */
  private playing: { before: ReturnType<StudioSession['snapshot']>; heard: string } | null = null;

  constructor(
    readonly game: PlayableGame,
    private readonly model: ChatModel,
    opts: PlayRuntimeOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.deps = {
      pkg: game.pkg,
      model: signalBoundModel(model, () => this.signal),
      now: this.now,
      codeExecutors: opts.codeExecutors ?? codeExecutorsFor(game.pkg.id),
      truth: () => this.truthNow(),
      ...(opts.preExecute === false ? {} : { reader: readerWithDeck(playReaderFor(game.pkg.id), game) }),
      blocked: opts.blocked,
      unsafe: opts.unsafe,
    };
    this.session = StudioSession.startPlay(this.deps, game.project.id, game.design);
    const at = this.now();
    const shape = (game.design[PARADIGM_TAG] as { 范式?: unknown } | undefined)?.范式;
    this.record = {
      id: opts.id ?? `pb-${at.toString(36)}-${Math.floor(opts.random() * 36 ** 4).toString(36).padStart(4, '0')}`,
      projectId: game.project.id,
      startedAt: at,
      turns: [],
      score: 0,
      correct: 0,
      cardsPlayed: 0,
      durationMs: 0,
      ...(typeof shape === 'string' ? { shape } : {}),
    };
  }

  /** The game is over (finished naturally, ended, or closed). */
  get ended(): boolean {
    return this.closed || this.session.view.state.stage === 'done';
  }

  get cards(): readonly CardAsset[] {
    return this.game.cards;
  }

  /** The card being asked now: runtime truth, never put into a prompt before it is revealed. */
  get currentCard(): CardAsset | undefined {
    return currentCardOf(this.session.view.board, this.game.cards);
  }

  get score(): ScoreNow {
    return scoreOf(this.session.view.board);
  }

  /**
   * What the game itself says when it did not end by itself (the child left, a failed last turn):
   * its ending code skill (e.g. 问答's wrap-up), run on the board as it is now, without writing.
   */
  get farewell(): string | undefined {
    const list = this.game.design[RUN_SKILL_LIST];
    const ender = this.game.pkg.skills.find((s) => s.stage === 'run' && s.ends && s.executor === 'code' && (!Array.isArray(list) || list.includes(s.id)));
    const said = ender ? this.session.preview(ender.id)?.['运行.回复'] : undefined;
    return typeof said === 'string' && said.trim() ? said.trim() : undefined;
  }

  /** The design's closing words (设计.角色.结束语), if any. */
  get closingWords(): string | undefined {
    const role = this.game.design['设计.角色'] as { 结束语?: unknown } | undefined;
    return typeof role?.结束语 === 'string' && role.结束语.trim() ? role.结束语.trim() : undefined;
  }

  /**
   * One player input. Resolves with the burst's replies, or `{ok: false}` after restoring the
   * session as it was; rejects with the abort reason when `signal` aborts (also restored).
   */
  async turn(text: string, signal: AbortSignal, onSentence?: (sentence: string) => void): Promise<TurnOutcome> {
    if (signal.aborted) throw abortReason(signal);
    if (this.ended) return { ok: false, reason: '这局游戏已经结束' };
    const before = this.session.snapshot();
    this.signal = signal;
    this.playing = { before, heard: text };
    let r: Awaited<ReturnType<StudioSession['play']>>;
    try {
      r = await this.session.play(text, onSentence);
    } catch (e) {
      this.restore(before);
      if (signal.aborted) throw abortReason(signal);
      return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    } finally {
      this.signal = null;
      this.playing = null;
    }
    if (signal.aborted) {
      this.restore(before);
      throw abortReason(signal);
    }
    const v = this.session.view;
    if (!r.ok || r.replies.length === 0) {
      const reason = !r.ok ? (r.message ?? '运行时拒绝了这一步') : v.state.error ? `${v.state.error.code}: ${v.state.error.message}` : (v.waiting?.kind ?? '没有回复');
      const detail = v.waiting?.kind === 'helper_failed' ? `${v.waiting.skill}: ${v.waiting.message}` : v.waiting?.kind === 'burst_cap' ? `连续 ${v.waiting.rounds} 步没有回复（上限 ${v.waiting.cap}）` : '';
      this.restore(before);
      return { ok: false, reason: detail ? `${reason}（${detail}）` : reason };
    }
    const changes = turnChanges(before.board, v.board, this.game.cards);
    this.forgetOldRounds();
    // The game goes on: the manager's next request starts with the conversation as kept now.
    if (!this.ended) prewarmManager(this.model, this.session);
    return { ok: true, replies: r.replies, ended: this.ended, changes };
  }

  /** The package's truth rules over what this turn changed so far (null outside a turn, or without rules). */
  private truthNow(): TruthRules | null {
    const fn = playTruthFor(this.game.pkg.id);
    if (!fn || !this.playing) return null;
    return fn({ results: [], state: playTruthState(this.playing.before.board, this.session.view.board, this.game.cards), heard: this.playing.heard });
  }

  /** Adds a turn to the PlayBook record (what the child said, what the robot answered). */
  noteTurn(input: string, replies: string[], at = this.now()): void {
    const s = this.score;
    this.record = {
      ...this.record,
      turns: [...this.record.turns, { at, input, replies }],
      score: s.score,
      correct: s.correct,
      cardsPlayed: s.played,
      durationMs: this.now() - this.record.startedAt,
    };
    if (this.ended && this.record.endedAt === undefined) this.record.endedAt = this.now();
  }

  /** The session is over (end, replaced, failed start): no more turns; the record is closed. */
  async close(): Promise<void> {
    if (this.session.view.state.stage === 'play') await this.session.endPlay();
    this.closed = true;
    const at = this.now();
    this.record = { ...this.record, endedAt: this.record.endedAt ?? at, durationMs: (this.record.endedAt ?? at) - this.record.startedAt };
  }

  get playBook(): PlayBook {
    return structuredClone(this.record);
  }

  /** Long games: the manager's conversation keeps only the recent rounds (the board keeps the state). */
  private forgetOldRounds(): void {
    if (this.ended) return;
    const snap = this.session.snapshot();
    const kept = lastRounds(snap.manager, isPlayerMessage);
    if (kept.length !== snap.manager.length) this.restore({ ...snap, manager: kept });
  }

  private restore(snapshot: ReturnType<StudioSession['snapshot']>): void {
    this.session = StudioSession.restore(this.deps, snapshot);
  }
}
