/**
 * The game service (seed 000 §游戏 Agent, §出错处理): a GameHandler over sessions keyed by the A2A
 * contextId, one SkillAgent per session.
 *
 * - `start` while a session is live → that session is closed (its turns cancelled) and a fresh one starts.
 *   One robot plays one game at a time, so every live session of this game agent is closed.
 * - `message` / `end` for a session that no longer exists → a reply with `session: ended` (in Chinese).
 * - Requests of one session are handled one at a time in arrival order.
 * - `end` cancels the in-flight turn (and any queued one) first, then runs the ending turn;
 *   after it the session is always over.
 * - When a session ends, the robot is asked to go back to its idle screen.
 */
import { gameReply, type GameInput, type GameReply } from '../core/protocol/game-protocol.ts';
import type { GameHandler, GameTurnContext } from '../core/protocol/handler.ts';
import type { DevicePort } from '../core/robot/types.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';
import { childText } from './errors.ts';
import type { SkillAgent } from './skill-agent.ts';
import { TurnQueue } from './turn-queue.ts';

export { TurnCancelled } from './turn-queue.ts';

interface Session {
  readonly contextId: string;
  readonly agent: SkillAgent;
  /** Its requests, one at a time in arrival order. */
  readonly turns: TurnQueue;
  closed: boolean;
}

export interface GameServiceOptions {
  device: DevicePort;
  trace?: TraceSink;
  /** Trace source, e.g. "game:guess-number". */
  source?: string;
}

export class GameService implements GameHandler {
  private readonly sessions = new Map<string, Session>();
  private readonly device: DevicePort;
  private readonly trace: TraceSink;
  private readonly source: string;

  constructor(
    /** Builds the agent of a new session (fresh state and memory). */
    private readonly createAgent: () => SkillAgent,
    opts: GameServiceOptions,
  ) {
    this.device = opts.device;
    this.trace = opts.trace ?? nullTrace;
    this.source = opts.source ?? 'game';
  }

  /** Context ids of the live sessions (for tests and the trace). */
  get liveSessions(): string[] {
    return [...this.sessions.keys()];
  }

  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    if (input.kind === 'start') {
      for (const s of [...this.sessions.values()]) this.close(s, 'replaced by a new start');
      const session: Session = { contextId: ctx.contextId, agent: this.createAgent(), turns: new TurnQueue(), closed: false };
      this.sessions.set(ctx.contextId, session);
      return this.enqueue(session, input, ctx);
    }
    const session = this.sessions.get(ctx.contextId);
    if (!session || session.closed || session.agent.sessionOver) return Promise.resolve(this.sessionEnded(input, ctx));
    if (input.kind === 'end') {
      session.turns.cancelAll('cancelled by end');
    }
    return this.enqueue(session, input, ctx);
  }

  private enqueue(session: Session, input: GameInput, ctx: GameTurnContext): Promise<GameReply> {
    return session.turns.run(ctx.signal, async (signal) => {
      if (signal.aborted) throw signal.reason;
      if (input.kind !== 'start' && (session.closed || session.agent.sessionOver)) return this.sessionEnded(input, ctx);
      const reply = await session.agent.handle(input, { ...ctx, signal });
      if (reply.session === 'ended') this.finishSession(session);
      return reply;
    });
  }

  private sessionEnded(input: GameInput, ctx: GameTurnContext): GameReply {
    this.trace.record({
      kind: 'error',
      at: Date.now(),
      requestId: ctx.requestId,
      source: this.source,
      name: 'session_ended',
      data: { contextId: ctx.contextId, kind: input.kind },
    });
    return gameReply(childText('game_session_ended'), 'ended');
  }

  /** Closes a session replaced by a new start: cancels its turns; no idle screen (the new game takes over). */
  private close(session: Session, why: string): void {
    session.closed = true;
    session.agent.close();
    session.turns.cancelAll(why);
    this.sessions.delete(session.contextId);
  }

  /** The game is over: forget the session and send the robot back to its idle screen. */
  private finishSession(session: Session): void {
    session.closed = true;
    if (this.sessions.get(session.contextId) === session) this.sessions.delete(session.contextId);
    this.device.idle().catch((e: unknown) => {
      this.trace.record({ kind: 'error', at: Date.now(), source: this.source, name: 'idle', data: String(e) });
    });
  }
}
