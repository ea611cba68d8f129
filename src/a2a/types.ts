import type { ErrorCode } from '../core/errors/catalogue.ts';
import type { GameInput, GameReply } from '../core/protocol/game-protocol.ts';

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

export interface GameRequestOptions {
  requestId?: string;
  /**
   * How long the game may take before the child must hear its reply (what is left of the turn's
   * budget); carried in the request's metadata (`agentcade.budgetMs`). A game that knows it answers
   * in time with what its rules decided; one that does not ignores it.
   */
  budgetMs?: number;
  /**
   * The turn budget's colour window (ms): how long a game whose rules spoke first waits for its
   * model's reply (`agentcade.colourMs`); absent: the game's default.
   */
  colourMs?: number;
}

export interface GameClient {
  /**
   * Sends one GameInput in the session `contextId` to the game agent `gameId` (a worker game starts
   * its worker on first use; a remote game is reached over HTTP).
   */
  request(gameId: string, contextId: string, input: GameInput, opts?: GameRequestOptions): GameRequest;
  /** Stops a game's worker (the next request starts a fresh one). */
  stop(gameId: string): void;
  stopAll(): void;
  /**
   * Starts a worker game's worker ahead of its first request (its code, rules and skill load now),
   * when no game worker runs yet; one started ahead and never asked is stopped once another game's
   * worker starts, so at most one worker more runs, and only before the first game. No-op for a
   * remote game.
   */
  warm?(gameId: string): void;
}

export class GameRequestError extends Error {
  override name = 'GameRequestError';
  /**
   * true when the game's state is gone (its worker crashed, hung or was stopped and will be
   * restarted fresh), so the session cannot continue whatever the input kind was.
   */
  readonly sessionLost: boolean;
  constructor(
    /**
     * Error catalogue code (src/core/errors/a2a.ts): 'game_failed' | 'game_crashed' | 'game_timeout' | 'game_timeout_lost' |
     * 'game_cancelled' | 'game_protocol' | 'game_not_found' | 'game_unreachable' (a remote agent).
     */
    readonly code: ErrorCode,
    message: string,
    options?: { sessionLost?: boolean; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.sessionLost = options?.sessionLost ?? false;
  }
}
