/**
 * GameSessions: the game service of seed 000 (§游戏 Agent, §出错处理), once for every engine. It is the
 * GameHandler the A2A executor calls; an engine (SkillAgent, the Studio's play runtime) only plays
 * turns. Its rules:
 * - sessions are keyed by the A2A contextId; a session's requests run one at a time in arrival order
 *   (TurnQueue: the only layer that orders them);
 * - `start` while a session is live → that session is closed (its turns cancelled) and a new one
 *   starts with a fresh engine. One robot plays one game at a time, so every live session closes;
 * - `message` / `end` for a session that no longer exists → a reply with `session: ended`;
 * - `end` cancels the session's running and queued turns, then runs; after it the session is over,
 *   whatever happened (also when the `end` turn itself is cancelled);
 * - an engine that fails or says nothing → a fallback sentence (the engine remembers nothing of the
 *   turn); after a failed `start` or `end` the session is over;
 * - every request gets exactly one final reply (1–500 characters); only it may be `ended`;
 * - a turn has a deadline, from the time budget its request carries (or the default T2): the engine
 *   answers by then (src/core/arcade/turn-budget.ts);
 * - fallback sentences take turns among their variants (never the same twice in a row), and say
 *   truly whether the game goes on;
 * - when a session ends by any path (the game's end, `end`, a failed start or end, a failure that
 *   ended it), the answers the child has not heard are told in the last reply (GameEngine.reveal);
 * - when a session ends, the robot is asked for its idle screen (it waits for the last sentence).
 */
import { DEFAULT_TURN_BUDGET, GAME_REPLY_MARGIN_MS } from '../core/arcade/turn-budget.ts';
import { childSentence } from '../core/errors/catalogue.ts';
import { EngineFailure, type EngineFactory, type EngineReply, type GameEngine } from '../core/games/engine.ts';
import { fitReplyText, gameReply, type GameInput, type GameInputKind, type GameReply } from '../core/protocol/game-protocol.ts';
import type { GameHandler, GameTurnContext } from '../core/protocol/handler.ts';
import { LineRotation } from '../core/speech/line-rotation.ts';
import { nullTrace, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { TurnQueue, type TurnQueueOptions } from './turn-queue.ts';

export interface GameSessionsOptions {
  /** Builds the engine of a new session. */
  create: EngineFactory;
  /** The robot, for the idle screen when a session ends (none for a game without a robot). */
  device?: { idle(): Promise<void> };
  trace?: TraceSink;
  /** Trace source, e.g. "game:guess-number". */
  source: string;
  queue?: TurnQueueOptions;
  now?: () => number;
  /** A turn's time budget when its request carries none (default T2 of the default turn budget). */
  answerMs?: number;
}

interface Session {
  readonly contextId: string;
  engine: GameEngine | null;
  readonly turns: TurnQueue;
  over: boolean;
}

export class GameSessions implements GameHandler {
  private readonly sessions = new Map<string, Session>();
  private readonly trace: TraceSink;
  private readonly now: () => number;
  private readonly lines = new LineRotation();

  constructor(private readonly opts: GameSessionsOptions) {
    this.trace = opts.trace ?? nullTrace;
    this.now = opts.now ?? Date.now;
  }

  /** Context ids of the live sessions. */
  get liveSessions(): string[] {
    return [...this.sessions.keys()];
  }

  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    // The turn's deadline runs from the request's arrival (waiting behind another turn counts).
    const budget = ctx.budgetMs ?? this.opts.answerMs ?? DEFAULT_TURN_BUDGET.answerMs;
    ctx = { ...ctx, deadline: this.now() + Math.max(0, budget - GAME_REPLY_MARGIN_MS) };
    if (input.kind === 'start') {
      for (const s of [...this.sessions.values()]) this.replace(s);
      const session: Session = { contextId: ctx.contextId, engine: null, turns: new TurnQueue(this.opts.queue), over: false };
      this.sessions.set(ctx.contextId, session);
      return this.enqueue(session, input, ctx);
    }
    const session = this.sessions.get(ctx.contextId);
    if (!session || session.over) return Promise.resolve(this.sessionEnded(input, ctx));
    if (input.kind === 'end') session.turns.cancelAll('cancelled by end');
    return this.enqueue(session, input, ctx);
  }

  private enqueue(session: Session, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    const run = session.turns.run(ctx.signal, (signal) => this.play(session, input, { ...ctx, signal }));
    if (input.kind !== 'end') return run;
    // `end` always ends the session, also when the end turn itself is cancelled.
    return run.catch(async (e: unknown) => {
      await this.finish(session);
      throw e;
    });
  }

  private async play(session: Session, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    if (session.over) return this.sessionEnded(input, ctx);
    let reply: EngineReply;
    const said: string[] = [];
    const say = (text: string) => {
      said.push(text);
      ctx.say(text);
    };
    try {
      if (!session.engine) {
        if (input.kind !== 'start') {
          // The start was cancelled before its game was made: there is no game to play or to end.
          if (input.kind === 'end') {
            await this.finish(session);
            return gameReply(this.lines.child('game_model_failed_end'), 'ended');
          }
          return this.sessionEnded(input, ctx);
        }
        session.engine = await this.opts.create({ contextId: ctx.contextId, requestId: ctx.requestId, signal: ctx.signal });
        if (session.over) {
          void session.engine.close('replaced');
          return this.sessionEnded(input, ctx);
        }
      }
      reply = await session.engine.turn({ kind: input.kind, text: input.text, requestId: ctx.requestId, contextId: ctx.contextId, signal: ctx.signal, say, deadline: ctx.deadline, colourMs: ctx.colourMs });
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (typeof reply?.text !== 'string' || !reply.text.trim()) throw new EngineFailure('the engine gave an empty reply');
    } catch (e) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      reply = this.fallback(input.kind, e, ctx);
    }
    const ended = reply.ended || input.kind === 'end';
    if (ended) reply = { ...reply, text: this.withReveal(session, ctx, said, reply.text) };
    const final = gameReply(fitReplyText(reply.text), ended ? 'ended' : 'active');
    try {
      await session.engine?.told?.(input.text, [...said, final.text]);
    } catch (e) {
      this.record(ctx, 'told', { error: String(e) });
    }
    if (ended) await this.finish(session);
    return final;
  }

  /** The session ends with this reply: the answers the child has not heard are told at its end. */
  private withReveal(session: Session, ctx: GameTurnContext, said: readonly string[], text: string): string {
    let reveal: string | null = null;
    try {
      reveal = session.engine?.reveal?.([...said, text]) ?? null;
    } catch (e) {
      this.record(ctx, 'reveal', { error: String(e) });
    }
    return reveal ? `${text}${reveal}` : text;
  }

  /** The sentence for a turn the engine could not answer (seed 000 §出错处理 row 2). */
  private fallback(kind: GameInputKind, e: unknown, ctx: GameTurnContext): EngineReply {
    const failure = e instanceof EngineFailure ? e : null;
    this.record(ctx, 'fallback', { kind, reason: failure?.message ?? String((e as Error)?.stack ?? e), code: failure?.detail.code });
    // A game-specific code says more (the design is gone); a model failure is said by the input's
    // kind, in the game's own words (the main agent's lines for model failures are other lines, so
    // the two never say the same fallback twice in a row).
    const detail = failure?.detail.code;
    const code = detail !== undefined && !detail.startsWith('model_') && childSentence(detail) !== undefined ? detail : undefined;
    if (kind === 'start') return { text: this.lines.child(code ?? 'game_model_failed_start'), ended: true };
    if (kind === 'end' || failure?.detail.sessionOver) return { text: this.lines.child(code ?? 'game_model_failed_end'), ended: true };
    return { text: this.lines.child(code ?? 'game_model_failed'), ended: false };
  }

  private sessionEnded(input: GameInput, ctx: GameTurnContext): GameReply {
    this.record(ctx, 'session_ended', { contextId: ctx.contextId, kind: input.kind });
    return gameReply(this.lines.child('game_session_ended'), 'ended');
  }

  /** A new start replaces this session: its turns are cancelled; no idle screen (the new game takes over). */
  private replace(session: Session): void {
    session.over = true;
    this.sessions.delete(session.contextId);
    session.turns.cancelAll('replaced by a new start');
    // Close after its turns have settled, so the engine's record of the session is whole.
    void session.turns.settled().then(async () => {
      try {
        await session.engine?.close('replaced');
      } catch (e) {
        this.record({ contextId: session.contextId }, 'close', { error: String(e) });
      }
    });
  }

  /** The game is over: forget the session, close its engine, send the robot back to its idle screen. */
  private async finish(session: Session): Promise<void> {
    if (session.over && !this.sessions.has(session.contextId)) return;
    session.over = true;
    if (this.sessions.get(session.contextId) === session) this.sessions.delete(session.contextId);
    try {
      await session.engine?.close('ended');
    } catch (e) {
      this.record({ contextId: session.contextId }, 'close', { error: String(e) });
    }
    this.opts.device?.idle().catch((e: unknown) => this.record({ contextId: session.contextId }, 'idle', { error: String(e) }));
  }

  private record(ctx: { contextId: string; requestId?: string }, name: string, data: unknown): void {
    const event: TraceEvent = { kind: 'error', at: this.now(), requestId: ctx.requestId, contextId: ctx.contextId, source: this.opts.source, name, data };
    try {
      this.trace.record(event);
    } catch {
      // Tracing never breaks a game.
    }
  }
}
