/**
 * A game designed in the Studio, served as a game agent (issue 9; seed 000 protocol, seed 004 §8
 * play stage). `StudioGameHandler` is the GameHandler the A2A executor calls; `createStudioGameAgent`
 * builds it inside a game worker (src/game/agent-factory.ts dispatches `studio-*` ids here).
 *
 * Protocol rules (seed 000 §游戏 Agent, §出错处理), as in the built-in games' GameService:
 * - sessions are keyed by the A2A contextId; requests of one session run one at a time, in order;
 * - `start` while a session is live → that session is closed (PlayBook saved) and a fresh one starts;
 * - `message` / `end` for a session that no longer exists → a reply with `session: ended`;
 * - each input is one manager burst; the burst's replies go out as `ctx.say` (all but the last) and
 *   exactly one final reply; only the final one may be `ended`;
 * - model error or no reply → a fallback sentence and the turn leaves nothing behind; after a
 *   failed `start` or `end` the session is over;
 * - `end` cancels the turn in flight (and any queued one), then ends the session — always;
 * - cancellation (ctx.signal) reaches the model step in flight.
 * The robot reacts and shows the card through the DevicePort; each session writes a PlayBook.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { agentCardFor } from '../a2a/card.ts';
import { AgentcadeError, describe } from '../core/errors/catalogue.ts';
import { childText } from '../games/errors.ts';
import { TurnQueue } from '../games/turn-queue.ts';
import { connectModel } from '../llm/model-port.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { gameReply, type GameInput, type GameReply } from '../core/protocol/game-protocol.ts';
import type { GameHandler, GameTurnContext } from '../core/protocol/handler.ts';
import { connectDevice } from '../robot/device-port.ts';
import type { DevicePort } from '../core/robot/types.ts';
import { connectTrace } from '../trace/trace-port.ts';
import { nullTrace, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { Book } from './book.ts';
import './errors.ts';
import { announceBookChange } from './play/book-events.ts';
import { arcadeDeclaration } from './play/declaration.ts';
import { deviceEffects, type DeviceEffect, type TurnChanges } from '../core/studio/device-effects.ts';
import './play/errors.ts';
import { PlayRuntime, type PlayRuntimeOptions } from './play/play-runtime.ts';
import { loadPlayableGame, type PlayableGame } from './play-stage.ts';
import type { PlayBook } from '../core/studio/types.ts';

export interface StudioHandlerDeps {
  /** The designed game, read fresh for every `start` (null when it is gone from the Book). */
  load(): Promise<PlayableGame | null>;
  model: ChatModel;
  device: DevicePort;
  trace?: TraceSink;
  /** Where PlayBook records go (the Book), after every turn and when a session closes. */
  savePlayBook?(pb: PlayBook): Promise<void>;
  /** Trace source, e.g. "game:studio-konglong-wenda-ab12". */
  source?: string;
  runtime?: PlayRuntimeOptions;
}

interface Live {
  readonly contextId: string;
  runtime: PlayRuntime | null;
  /** Its requests, one at a time in arrival order. */
  readonly turns: TurnQueue;
  closed: boolean;
}

export class StudioGameHandler implements GameHandler {
  private readonly sessions = new Map<string, Live>();
  private readonly trace: TraceSink;
  private readonly source: string;

  constructor(private readonly deps: StudioHandlerDeps) {
    this.trace = deps.trace ?? nullTrace;
    this.source = deps.source ?? 'game:studio';
  }

  /** Context ids of the live sessions (tests, trace). */
  get liveSessions(): string[] {
    return [...this.sessions.keys()];
  }

  /** The runtime of a live session (tests: the runtime's truth, e.g. the current card). */
  runtimeOf(contextId: string): PlayRuntime | null {
    return this.sessions.get(contextId)?.runtime ?? null;
  }

  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    if (input.kind === 'start') {
      for (const s of [...this.sessions.values()])
        this.close(s, 'replaced by a new start', false).catch((e: unknown) => this.record({ ...ctx, contextId: s.contextId }, 'error', 'close', { error: String(e) }));
      const live: Live = { contextId: ctx.contextId, runtime: null, turns: new TurnQueue(), closed: false };
      this.sessions.set(ctx.contextId, live);
      return this.enqueue(live, input, ctx);
    }
    const live = this.sessions.get(ctx.contextId);
    if (!live || live.closed) return Promise.resolve(this.sessionEnded(input, ctx));
    if (input.kind === 'end') live.turns.cancelAll('cancelled by end');
    return this.enqueue(live, input, ctx);
  }

  private enqueue(live: Live, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    return live.turns.run(ctx.signal, async (signal) => {
      const turnCtx: GameTurnContext = { ...ctx, signal };
      if (input.kind === 'end') return this.endTurn(live, input, turnCtx);
      if (signal.aborted) throw signal.reason;
      if (live.closed) return this.sessionEnded(input, ctx);
      return input.kind === 'start' ? this.startTurn(live, input, turnCtx) : this.messageTurn(live, input, turnCtx);
    });
  }

  // ── the three kinds of input ──────────────────────────────────────────────────────
  private async startTurn(live: Live, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    let game: PlayableGame | null;
    try {
      game = await this.deps.load();
    } catch (e) {
      this.record(ctx, 'error', 'load', { error: String(e) });
      game = null;
    }
    if (live.closed) return this.sessionEnded(input, ctx);
    if (!game) {
      this.record(ctx, 'error', 'load', { error: 'studio_game_missing' });
      await this.finish(live);
      return gameReply(describe('studio_game_missing').child, 'ended');
    }
    live.runtime = new PlayRuntime(game, this.deps.model, this.deps.runtime);
    this.record(ctx, 'game_tool', 'start_play', { projectId: game.project.id, title: game.declaration.title, cards: game.cards.length, playBook: live.runtime.playBook.id });
    // Said at once, while the manager's first burst (a few model steps) gets the first card ready.
    ctx.say(`好呀，我们来玩${game.declaration.title}！`);
    return this.playTurn(live, live.runtime, input, ctx);
  }

  private async messageTurn(live: Live, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    const rt = live.runtime;
    if (!rt || rt.ended) return this.sessionEnded(input, ctx);
    return this.playTurn(live, rt, input, ctx);
  }

  /** `end`: the turn runs when the child said something, and the session is over afterwards, whatever happened. */
  private async endTurn(live: Live, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    const rt = live.runtime;
    if (live.closed || rt?.ended) {
      await this.finish(live);
      return this.sessionEnded(input, ctx);
    }
    if (!rt) {
      // The start never got as far as a game (cancelled while loading): nothing to wrap up.
      await this.finish(live);
      return gameReply(childText('game_model_failed_end'), 'ended');
    }
    let text = '';
    try {
      if (input.text.trim() && !ctx.signal.aborted) {
        const out = await rt.turn(input.text, ctx.signal);
        if (out.ok) {
          this.traceBurst(ctx, out.changes, out.replies.length);
          await this.applyDevice(ctx, out.changes, out.ended, rt);
          // A burst that wrapped the game up speaks its own goodbye; any other reply is not a goodbye.
          if (out.ended) text = out.replies.at(-1)!.text;
          else this.record(ctx, 'error', 'end', { error: 'the burst did not finish the game; the runtime says goodbye' });
        } else this.record(ctx, 'error', 'model', { kind: 'end', reason: out.reason });
      }
    } catch (e) {
      if (!ctx.signal.aborted) throw e;
      this.record(ctx, 'error', 'end', { error: 'cancelled; the session ends anyway' });
    }
    if (!text) text = this.goodbye(rt);
    rt.noteTurn(input.text, [text]);
    await this.finish(live);
    if (ctx.signal.aborted) throw ctx.signal.reason;
    return gameReply(text, 'ended');
  }

  private async playTurn(live: Live, rt: PlayRuntime, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    const t0 = Date.now();
    const out = await rt.turn(input.text, ctx.signal);
    if (!out.ok) {
      this.record(ctx, 'error', 'model', { kind: input.kind, reason: out.reason });
      if (input.kind === 'start') {
        const text = childText('game_model_failed_start');
        rt.noteTurn(input.text, [text]);
        await this.finish(live);
        return gameReply(text, 'ended');
      }
      const text = childText('game_model_failed');
      rt.noteTurn(input.text, [text]);
      await this.save(rt);
      return gameReply(text, 'active');
    }
    this.traceBurst(ctx, out.changes, out.replies.length, Date.now() - t0);
    await this.applyDevice(ctx, out.changes, out.ended, rt);
    // Every reply of the burst but the last is an intermediate reply; only the last may be `ended`.
    for (const r of out.replies.slice(0, -1)) ctx.say(r.text);
    const last = out.replies.at(-1)!;
    rt.noteTurn(input.text, out.replies.map((r) => r.text));
    if (out.ended) {
      await this.finish(live);
      return gameReply(last.text, 'ended');
    }
    await this.save(rt);
    return gameReply(last.text, 'active');
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────
  private goodbye(rt: PlayRuntime): string {
    const s = rt.score;
    const tally = s.played > 0 ? `你答对了 ${s.correct} 张，得了 ${s.score} 分。` : '';
    return `好的，这局就玩到这里。${tally}${rt.closingWords ?? '下次再来玩吧！'}`;
  }

  /**
   * The turn for the parent's trace. The answer of a new card is recorded under `secret` (hidden in
   * the trace view until revealed). A card that is over is revealed first, and the burst record is
   * stamped 1 ms after that reveal: the trace view shows a secret when a reveal of its scope is at
   * or after it (src/trace/redact.ts#revealChecker), so a shared timestamp would uncover the answer
   * of the card the child is about to guess.
   */
  private traceBurst(ctx: GameTurnContext, ch: TurnChanges, replies: number, durationMs?: number): void {
    let at = Date.now();
    if (ch.verdict && (ch.verdict.result === '对' || ch.verdict.revealed) && ch.judgedCard) {
      this.record(ctx, 'game_tool', 'reveal', { card: ch.judgedCard.cardId, answer: ch.judgedCard.answer }, undefined, true, at);
      at += 1;
    }
    const data: Record<string, unknown> = { replies, score: ch.score };
    if (ch.verdict) data.verdict = ch.verdict.result;
    if (ch.newCard) data.card = { id: ch.newCard.card.cardId, number: ch.newCard.number, secret: { answer: ch.newCard.card.answer } };
    this.record(ctx, 'game_tool', 'burst', data, durationMs, false, at);
  }

  /** Reactions and the card on the robot. A robot failure never breaks the game. */
  private async applyDevice(ctx: GameTurnContext, ch: TurnChanges, ended: boolean, rt: PlayRuntime): Promise<void> {
    for (const e of deviceEffects(ch, ended || rt.ended)) await this.device(ctx, e);
  }

  private async device(ctx: GameTurnContext, e: DeviceEffect): Promise<void> {
    const t0 = Date.now();
    try {
      if (e.op === 'react') await this.deps.device.react(e.expression, e.gesture);
      else if (e.op === 'showText') await this.deps.device.showText(e.card);
      else await this.deps.device.showProgress(e.progress);
      this.record(ctx, 'device', e.op, e, Date.now() - t0);
    } catch (err) {
      this.record(ctx, 'error', e.op, { error: String(err) });
    }
  }

  private async save(rt: PlayRuntime): Promise<void> {
    try {
      await this.deps.savePlayBook?.(rt.playBook);
    } catch (e) {
      this.trace.record({ kind: 'error', at: Date.now(), source: this.source, name: 'play_book', data: String(e) });
    }
  }

  private sessionEnded(input: GameInput, ctx: GameTurnContext): GameReply {
    this.record(ctx, 'error', 'session_ended', { contextId: ctx.contextId, kind: input.kind });
    return gameReply(childText('game_session_ended'), 'ended');
  }

  /** The session is over: forget it, close its PlayBook and send the robot back to its idle screen. */
  private async finish(live: Live): Promise<void> {
    await this.close(live, 'ended', true);
  }

  private async close(live: Live, why: string, idle: boolean): Promise<void> {
    const first = !live.closed;
    live.closed = true;
    if (this.sessions.get(live.contextId) === live) this.sessions.delete(live.contextId);
    if (why !== 'ended') live.turns.cancelAll(why);
    if (!first) return;
    if (idle)
      this.deps.device.idle().catch((e: unknown) => this.trace.record({ kind: 'error', at: Date.now(), source: this.source, name: 'idle', data: String(e) }));
    const rt = live.runtime;
    if (rt) {
      // A replaced session's turn may still be settling: close after it, so the record is whole.
      if (why !== 'ended') await live.turns.settled();
      await rt.close();
      await this.save(rt);
    }
  }

  private record(ctx: GameTurnContext, kind: TraceEvent['kind'], name: string, data: unknown, durationMs?: number, revealsSecret?: boolean, at = Date.now()): void {
    try {
      this.trace.record({ kind, at, requestId: ctx.requestId, contextId: ctx.contextId, source: this.source, name, data, durationMs, ...(revealsSecret ? { revealsSecret } : {}) });
    } catch {
      // Tracing never breaks a game.
    }
  }
}

/**
 * The game agent of a studio game, built inside its worker: the project is found in the Book by
 * its game id; the model, robot and trace are reached over the ports the main thread handed over.
 */
export async function createStudioGameAgent(
  gameId: string,
  ports: Record<string, MessagePort>,
  opts: { openBook?: () => Promise<Book> } = {},
): Promise<{ card: AgentCard; handler: GameHandler }> {
  for (const name of ['model', 'device']) {
    if (!ports[name]) throw new Error(`createStudioGameAgent(${gameId}): missing the "${name}" port`);
  }
  const book = await (opts.openBook ?? (() => Book.open()))();
  const projectId = async () => (await book.playableProjects()).find((p) => p.gameId === gameId)?.id;
  const first = await projectId();
  const game = first ? await loadPlayableGame(book, first) : null;
  if (!game) throw new AgentcadeError('studio_game_missing', `no studio project at the play stage has game id "${gameId}"`);
  const source = `game:${gameId}`;
  const handler = new StudioGameHandler({
    async load() {
      const id = await projectId();
      return id ? loadPlayableGame(book, id) : null;
    },
    model: connectModel(ports.model),
    device: connectDevice(ports.device),
    trace: ports.trace ? connectTrace(ports.trace, { defaults: { source } }) : nullTrace,
    source,
    async savePlayBook(pb) {
      await book.savePlayBook(pb);
      announceBookChange({ type: 'playbook', projectId: pb.projectId });
    },
  });
  return { card: agentCardFor(arcadeDeclaration(game.declaration)), handler };
}
