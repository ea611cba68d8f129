/**
 * The engine of a game designed in the Studio (seed 004 §8 play stage), played in the arcade behind
 * the same GameSessions and `desktop-game/5` protocol as the built-in games. Each input is one
 * manager burst of the play runtime → run skills → `运行.*` tags → the burst's replies: all but the
 * last go out at once as intermediate replies, the last is the turn's reply.
 *
 * - `start`: the design is read fresh from the Book (gone → the session cannot start); the robot
 *   says the game's name at once while the first burst gets the first card ready;
 * - `end`: when the child said something, the burst runs and may wrap the game up itself; otherwise
 *   (or when it did not finish the game) the runtime says goodbye with the score;
 * - a failed burst leaves nothing behind (the play runtime restores its snapshot) → EngineFailure;
 * - the robot reacts and shows the card from `运行.*` (device-effects); the PlayBook records every
 *   turn as the child heard it and is saved after every turn and when the session closes;
 * - the manager's own words are checked against the package's truth rules (play-runtime.ts);
 * - when the session ends, the answer of the card on the table is told if the child has not heard it
 *   (GameEngine.reveal);
 * - a card with a text the safety check blocks (and the parent did not approve) is left out of the
 *   deck when the session starts, so the game never asks what it cannot say (recorded for 安全提醒);
 *   when that leaves no card at all, the session does not start (`studio_deck_unsayable`): the
 *   design in the Book keeps every card, for the parent to change.
 */
import { describe } from '../../core/errors/catalogue.ts';
import { EngineFailure, type EngineFactory, type EngineReply, type EngineTurn, type GameEngine } from '../../core/games/engine.ts';
import type { ChatModel } from '../../core/llm/types.ts';
import type { Random } from '../../core/random.ts';
import { cardReadAloud, deviceEffects, namesAnswer, type DeviceEffect, type TurnChanges } from '../../core/studio/device-effects.ts';
import type { PlayBook } from '../../core/studio/types.ts';
import type { DevicePort, DeviceResult } from '../../core/robot/types.ts';
import { nullTrace, type TraceEvent, type TraceSink } from '../../core/trace/types.ts';
import type { PlayableGame } from '../play-stage.ts';
import { PlayRuntime, type PlayRuntimeOptions } from './play-runtime.ts';
import { blockedRecord, FINDS_NOTHING, loadUnsafe, type UnsafeCheck } from '../../games/unsafe-line.ts';
import type { SafetyCheckLoader } from '../../core/games/engine-host.ts';
import { playableDeck } from '../../core/safety/card-check.ts';
import { DECK_TAG } from '../../core/studio/hand-written.ts';

export interface StudioEngineDeps {
  model: ChatModel;
  device: DevicePort;
  trace?: TraceSink;
  /** Trace source, e.g. "game:studio-konglong-wenda-ab12". */
  source: string;
  random: Random;
  /** Where PlayBook records go (the Book), after every turn and when a session closes. */
  savePlayBook?(pb: PlayBook): Promise<void>;
  runtime?: Omit<PlayRuntimeOptions, 'random'>;
  now?: () => number;
  /** The child-safety check the manager's lines and the deck's cards are checked with (the worker's, EngineContext.safety); absent: the speaking path's check alone. */
  safety?: SafetyCheckLoader;
}

export class StudioEngine implements GameEngine {
  readonly runtime: PlayRuntime;
  private readonly trace: TraceSink;
  /** The turn being played (a blocked line is recorded under its request). */
  private turnNow: Pick<EngineTurn, 'requestId' | 'contextId'> | null = null;
  private readonly now: () => number;
  /** Cards whose answer the child knows (heard it, or answered right). */
  private readonly answered = new Set<string>();
  /** The safety check (loaded before the first turn plays). */
  private unsafe: UnsafeCheck = FINDS_NOTHING;

  constructor(
    readonly game: PlayableGame,
    private readonly deps: StudioEngineDeps,
  ) {
    this.trace = deps.trace ?? nullTrace;
    this.now = deps.now ?? Date.now;
    this.runtime = new PlayRuntime(game, deps.model, {
      ...deps.runtime,
      random: deps.random,
      now: deps.runtime?.now ?? this.now,
      unsafe: (text) => this.unsafe(text),
      blocked: (original, finding, said) => this.record(this.turnNow ?? { requestId: '', contextId: '' }, 'safety', 'blocked', blockedRecord(finding, { original, said, gameId: this.game.declaration.id })),
    });
  }

  async turn(t: EngineTurn): Promise<EngineReply> {
    this.turnNow = t;
    // The manager's lines are checked for the child's safety before they are said.
    this.unsafe = await loadUnsafe(this.deps.safety);
    if (t.kind === 'end') return this.end(t);
    if (this.runtime.ended) throw new EngineFailure('the game is already over', { sessionOver: true });
    if (t.kind === 'start') {
      this.record(t, 'game_tool', 'start_play', { projectId: this.game.project.id, title: this.game.declaration.title, cards: this.game.cards.length, playBook: this.runtime.playBook.id });
      // Said at once, while the manager's first burst (a few model steps) gets the first card ready.
      t.say(`好呀，我们来玩${this.game.declaration.title}！`);
    }
    const t0 = this.now();
    // The manager's own reply is said sentence by sentence while it is written.
    const out = await this.runtime.turn(t.text, t.signal, (sentence) => t.say(sentence));
    if (!out.ok) {
      this.record(t, 'error', 'model', { kind: t.kind, reason: out.reason });
      throw new EngineFailure(out.reason);
    }
    this.traceBurst(t, out.changes, out.replies.length, this.now() - t0);
    if (out.changes.verdict?.result === '对' && out.changes.judgedCard) this.answered.add(out.changes.judgedCard.cardId);
    await this.applyDevice(t, out.changes, out.ended);
    // Every reply of the burst but the last is an intermediate reply; only the last may end the game.
    for (const r of out.replies.slice(0, -1)) t.say(r.text);
    return { text: out.replies.at(-1)!.text, ended: out.ended };
  }

  /** `end`: the game ends, whatever happens; a burst that wraps the game up speaks its own goodbye. */
  private async end(t: EngineTurn): Promise<EngineReply> {
    const rt = this.runtime;
    let text = '';
    if (t.text.trim() && !rt.ended) {
      const out = await rt.turn(t.text, t.signal);
      if (out.ok) {
        this.traceBurst(t, out.changes, out.replies.length);
        await this.applyDevice(t, out.changes, true);
        if (out.ended) text = out.replies.at(-1)!.text;
        else this.record(t, 'error', 'end', { error: 'the burst did not finish the game; the runtime says goodbye' });
      } else this.record(t, 'error', 'model', { kind: 'end', reason: out.reason });
    }
    return { text: text || this.goodbye(), ended: true };
  }

  /** What the child heard in a turn, into the PlayBook (saved now unless the session is closing). */
  async told(input: string, replies: string[]): Promise<void> {
    for (const c of this.runtime.cards) if (replies.some((r) => namesAnswer(r, c))) this.answered.add(c.cardId);
    this.runtime.noteTurn(input, replies);
    if (!this.runtime.ended) await this.save();
  }

  /** The session ends now: the answer of the card on the table, unless the child knows it (or hears it in `said`). */
  reveal(said: readonly string[]): string | null {
    const card = this.runtime.currentCard;
    if (!card || this.answered.has(card.cardId) || said.some((s) => namesAnswer(s, card))) return null;
    this.record({ requestId: '', contextId: '' }, 'game_tool', 'reveal', { card: card.cardId, answer: card.answer }, undefined, true);
    return `这张卡的答案是「${card.answer}」。`;
  }

  async close(): Promise<void> {
    await this.runtime.close();
    await this.save();
  }

  /** The runtime's own goodbye: the game's own closing words (its wrap-up code on the board now). */
  private goodbye(): string {
    return this.runtime.farewell ?? `好的，这局就玩到这里。${this.runtime.closingWords ?? '下次再来玩吧！'}`;
  }

  /**
   * The turn for the parent's trace. The answer of a new card is recorded under `secret` (hidden in
   * the trace view until revealed). A card that is over is revealed first, and the burst record is
   * stamped 1 ms after that reveal: the trace view shows a secret when a reveal of its scope is at
   * or after it (src/core/trace/redact.ts), so a shared timestamp would uncover the answer of the
   * card the child is about to guess.
   */
  private traceBurst(t: EngineTurn, ch: TurnChanges, replies: number, durationMs?: number): void {
    let at = this.now();
    if (ch.verdict && (ch.verdict.result === '对' || ch.verdict.revealed) && ch.judgedCard) {
      this.record(t, 'game_tool', 'reveal', { card: ch.judgedCard.cardId, answer: ch.judgedCard.answer }, undefined, true, at);
      at += 1;
    }
    const data: Record<string, unknown> = { replies, score: ch.score };
    if (ch.verdict) data.verdict = ch.verdict.result;
    if (ch.newCard) data.card = { id: ch.newCard.card.cardId, number: ch.newCard.number, secret: { answer: ch.newCard.card.answer } };
    this.record(t, 'game_tool', 'burst', data, durationMs, false, at);
  }

  /** Reactions and the card on the robot. A robot failure never breaks the game. */
  private async applyDevice(t: EngineTurn, ch: TurnChanges, ended: boolean): Promise<void> {
    for (const e of deviceEffects(ch, ended || this.runtime.ended)) await this.device(t, e);
  }

  private async device(t: EngineTurn, e: DeviceEffect): Promise<void> {
    const t0 = this.now();
    try {
      let result: DeviceResult | undefined;
      if (e.op === 'react') await this.deps.device.react(e.expression, e.gesture);
      else if (e.op === 'showProgress') result = await this.deps.device.showProgress(e.progress);
      else {
        // A picture card is drawn (the drawings are large: loaded on the first picture card); else its text is shown.
        const drawing = e.op === 'showDrawing' ? (await import('../../core/drawings/robot-drawings.ts')).robotDrawing(e.drawingId) : undefined;
        const card = e.op === 'showDrawing' ? e.fallback : e.card;
        result = drawing ? await this.deps.device.showDrawing(drawing) : await this.deps.device.showText(card);
        // Not on the robot: the child hears the card instead of being told to look at the screen.
        if (!result.device_completed) t.say(cardReadAloud(card));
      }
      this.record(t, 'device', e.op, result ? { ...e, result } : e, this.now() - t0);
    } catch (err) {
      this.record(t, 'error', e.op, { error: String(err) });
    }
  }

  private async save(): Promise<void> {
    try {
      await this.deps.savePlayBook?.(this.runtime.playBook);
    } catch (e) {
      this.trace.record({ kind: 'error', at: this.now(), source: this.deps.source, name: 'play_book', data: String(e) });
    }
  }

  private record(t: Pick<EngineTurn, 'requestId' | 'contextId'>, kind: TraceEvent['kind'], name: string, data: unknown, durationMs?: number, revealsSecret?: boolean, at = this.now()): void {
    try {
      this.trace.record({ kind, at, requestId: t.requestId, contextId: t.contextId, source: this.deps.source, name, data, durationMs, ...(revealsSecret ? { revealsSecret } : {}) });
    } catch {
      // Tracing never breaks a game.
    }
  }
}

/**
 * The game with the cards it cannot say left out of its deck (src/core/safety/card-check.ts#playableDeck),
 * each one recorded for the parent's 安全提醒 under the session's start.
 */
async function withoutUnsayableCards(game: PlayableGame, deps: StudioEngineDeps, session: { requestId: string; contextId: string }): Promise<PlayableGame> {
  const deck = game.design[DECK_TAG];
  if (!Array.isArray(deck)) return game;
  const check = await loadUnsafe(deps.safety);
  const { kept, left } = playableDeck(deck, (t) => check(t) !== null, game.project.approved ?? []);
  if (!left.length) return game;
  const at = (deps.now ?? Date.now)();
  const record = (e: Omit<TraceEvent, 'at' | 'requestId' | 'contextId' | 'source'>) => {
    try {
      deps.trace?.record({ ...e, at, requestId: session.requestId, contextId: session.contextId, source: deps.source });
    } catch {
      // Tracing never breaks a game.
    }
  };
  for (const l of left) record({ kind: 'safety', name: 'blocked', data: blockedRecord(check(l.text), { original: l.text, said: '', gameId: game.declaration.id }) });
  if (!kept.length) {
    // Nothing left to ask: the game cannot start (the parent reads why in 记录; the Book still has every card).
    record({ kind: 'error', name: 'studio_deck_unsayable', data: { cards: deck.length, left: left.length } });
    throw new EngineFailure(describe('studio_deck_unsayable').parent, { code: 'studio_deck_unsayable', sessionOver: true });
  }
  // The run skills and the cards know a card by its id.
  const gone = new Set(left.map((l) => (l.card as { id?: unknown } | null)?.id));
  return { ...game, design: { ...game.design, [DECK_TAG]: kept }, cards: game.cards.filter((c) => !gone.has(c.cardId)) };
}

/** New sessions of a designed game: the design is read fresh from the Book for every start. */
export function studioEngineFactory(load: () => Promise<PlayableGame | null>, deps: StudioEngineDeps): EngineFactory {
  return async (session) => {
    let game: PlayableGame | null;
    try {
      game = await load();
    } catch (e) {
      deps.trace?.record({ kind: 'error', at: (deps.now ?? Date.now)(), requestId: session.requestId, contextId: session.contextId, source: deps.source, name: 'load', data: { error: String(e) } });
      game = null;
    }
    if (!game) throw new EngineFailure(describe('studio_game_missing').parent, { code: 'studio_game_missing', sessionOver: true });
    return new StudioEngine(await withoutUnsayableCards(game, deps, session), deps);
  };
}
