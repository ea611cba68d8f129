import type { GameInput, GameReply } from './game-protocol.ts';

/**
 * What a game agent offers to the A2A executor (src/a2a/game-executor.ts): GameSessions
 * (src/games/game-sessions.ts) over an engine. The executor owns the protocol mapping and
 * cancellation; the handler owns the sessions, the order of their turns and the game logic.
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
  /**
   * How long the turn may take, from its arrival, before the child must hear its reply (the main
   * agent's turn budget left for this request); absent: the game's default.
   */
  budgetMs?: number;
  /** The turn's colour window (ms, the turn budget's `colourMs`); absent: the game's default. */
  colourMs?: number;
  /** When the turn must have its reply (ms since the epoch; set by GameSessions from `budgetMs`). */
  deadline?: number;
}

export interface GameHandler {
  /** Handles one input and returns the final reply of the request (exactly one). */
  handle(input: GameInput, ctx: GameTurnContext): Promise<GameReply>;
}
