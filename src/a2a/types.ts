import type { GameInput, GameReply } from '../protocol/game-protocol.ts';

/**
 * The main thread's view of game agents (implemented in src/a2a/ on the SDK's Client and the
 * MessagePort transport). One request = one A2A task; replies stream back in order.
 */
export interface ReplyEvent {
  reply: GameReply;
  /** true for the one reply carried by the COMPLETED status update. */
  final: boolean;
}

export interface GameRequest {
  /** A2A messageId of this request. */
  readonly requestId: string;
  /**
   * Replies in order. Ends after the final reply. Throws GameRequestError when the task
   * fails, the worker crashes or hangs, or the request is cancelled.
   */
  readonly replies: AsyncIterable<ReplyEvent>;
  /** CancelTask for this request's task (no-op once finished). */
  cancel(): Promise<void>;
}

export interface GameClient {
  /** Sends one GameInput in the session `contextId` to the game agent `gameId` (starting its worker on first use). */
  request(gameId: string, contextId: string, input: GameInput, opts?: { requestId?: string }): GameRequest;
  /** Stops a game's worker (the next request starts a fresh one). */
  stop(gameId: string): void;
  stopAll(): void;
}

export class GameRequestError extends Error {
  override name = 'GameRequestError';
  constructor(
    /** Error catalogue code: 'game_failed' | 'game_crashed' | 'game_timeout' | 'game_cancelled' | 'game_protocol'. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
