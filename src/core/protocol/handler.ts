import type { GameInput, GameReply } from './game-protocol.ts';

/**
 * What a game agent runtime (SkillAgent's GameService, or the Studio play runtime) offers to
 * the A2A executor. The executor owns the protocol mapping, per-session ordering and
 * cancellation; the handler owns sessions and game logic.
 */
export interface GameTurnContext {
  /** A2A contextId: one game session. */
  contextId: string;
  /** A2A messageId: the request id, used to file trace records under the right round. */
  requestId: string;
  /** Aborted when the turn is cancelled (CancelTask, or an `end` arriving mid-turn). */
  signal: AbortSignal;
  /** Send an intermediate reply at once (A2A status WORKING). Always `session: active`. */
  say(text: string): void;
}

export interface GameHandler {
  /** Handles one input and returns the final reply of the request (exactly one). */
  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply>;
}
