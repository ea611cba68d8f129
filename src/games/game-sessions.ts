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
 * - when a session ends, the robot is asked for its idle screen (it waits for the last sentence).
 */
import { childSentence } from '../core/errors/catalogue.ts';
import { EngineFailure, type EngineFactory, type EngineReply, type GameEngine } from '../core/games/engine.ts';
import { fitReplyText, gameReply, type GameInput, type GameInputKind, type GameReply } from '../core/protocol/game-protocol.ts';
import type { GameHandler, GameTurnContext } from '../core/protocol/handler.ts';
import { nullTrace, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { childText } from './errors.ts';
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

  constructor(private readonly opts: GameSessionsOptions) {
    this.trace = opts.trace ?? nullTrace;
    this.now = opts.now ?? Date.now;
  }

  /** Context ids of the live sessions. */
  get liveSessions(): string[] {
    return [...this.sessions.keys()];
  }

  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
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
            return gameReply(childText('game_model_failed_end'), 'ended');
          }
          return this.sessionEnded(input, ctx);
        }
        session.engine = await this.opts.create({ contextId: ctx.contextId, requestId: ctx.requestId, signal: ctx.signal });
        if (session.over) {
          void session.engine.close('replaced');
          return this.sessionEnded(input, ctx);
        }
      }
      reply = await session.engine.turn({ kind: input.kind, text: input.text, requestId: ctx.requestId, contextId: ctx.contextId, signal: ctx.signal, say });
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (typeof reply?.text !== 'string' || !reply.text.trim()) throw new EngineFailure('the engine gave an empty reply');
    } catch (e) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      reply = this.fallback(input.kind, e, ctx);
    }
    const ended = reply.ended || input.kind === 'end';
    const final = gameReply(fitReplyText(reply.text), ended ? 'ended' : 'active');
    try {
      await session.engine?.told?.(input.text, [...said, final.text]);
    } catch (e) {
      this.record(ctx, 'told', { error: String(e) });
    }
    if (ended) await this.finish(session);
    return final;
  }

  /** The sentence for a turn the engine could not answer (seed 000 §出错处理 row 2). */
  private fallback(kind: GameInputKind, e: unknown, ctx: GameTurnContext): EngineReply {
    const failure = e instanceof EngineFailure ? e : null;
    this.record(ctx, 'fallback', { kind, reason: failure?.message ?? String((e as Error)?.stack ?? e), code: failure?.detail.code });
    const coded = childSentence(failure?.detail.code);
    if (kind === 'start') return { text: coded ?? childText('game_model_failed_start'), ended: true };
    if (kind === 'end' || failure?.detail.sessionOver) return { text: coded ?? childText('game_model_failed_end'), ended: true };
    return { text: coded ?? childText('game_model_failed'), ended: false };
  }

  private sessionEnded(input: GameInput, ctx: GameTurnContext): GameReply {
    this.record(ctx, 'session_ended', { contextId: ctx.contextId, kind: input.kind });
    return gameReply(childText('game_session_ended'), 'ended');
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
