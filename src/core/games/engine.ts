/**
 * A game engine plays the turns of one game session; the session rules around it (seed 000
 * §游戏 Agent, §出错处理) belong to GameSessions (src/games/game-sessions.ts), once for every
 * engine. Engines: the SkillAgent (a `skills/<id>/SKILL.md` game) and the Studio's play runtime
 * (a design from the Book). Each kind's host (engine-host.ts) is registered by the composition root
 * that serves games (workers/game-engines.ts).
 */
import type { GameInputKind } from '../protocol/game-protocol.ts';

/** The kinds of engine a game worker can host; a game's declaration names its kind. */
export type EngineKind = 'skill' | 'studio';

/** One input as an engine plays it. */
export interface EngineTurn {
  readonly kind: GameInputKind;
  /** The child's original words, unchanged (empty only for the `end` sent when the app exits). */
  readonly text: string;
  /** A2A message id of the request: trace records of the turn carry it. */
  readonly requestId: string;
  /** A2A context id: the session. */
  readonly contextId: string;
  /** Aborted when the turn is cancelled (CancelTask, an `end` arriving, a new `start`). */
  readonly signal: AbortSignal;
  /** Sends a sentence at once as an intermediate reply (A2A WORKING, always `session: active`). */
  say(text: string): void;
  /**
   * When the turn must have its reply (ms since the epoch): the turn's time budget. By then the
   * engine answers with what its rules decided so far, or fails (GameSessions then says a fallback).
   */
  readonly deadline?: number;
  /** The colour window of this turn (ms, the turn budget's `colourMs`); absent: the engine's own. */
  readonly colourMs?: number;
}

/** The last reply of a turn. */
export interface EngineReply {
  text: string;
  /** The game is over after this turn (it ended naturally). */
  ended: boolean;
}

/**
 * The engine has no reply for this turn: its model failed or gave none, or the game cannot be
 * played. Nothing of the turn is remembered. GameSessions answers with a fallback sentence.
 */
export class EngineFailure extends Error {
  override name = 'EngineFailure';
  constructor(
    message: string,
    readonly detail: {
      /** The game is over whatever the kind of input (e.g. a tool ended it before the model failed). */
      sessionOver?: boolean;
      /** An error catalogue code whose child sentence fits better than the generic fallback. */
      code?: string;
    } = {},
  ) {
    super(message);
  }
}

export interface GameEngine {
  /** Plays one turn. Rejects with EngineFailure (fallback) or with the signal's reason (cancelled). */
  turn(turn: EngineTurn): Promise<EngineReply>;
  /**
   * After a turn, what the child was told in it (the intermediate replies and the final one, a
   * fallback sentence included), for the engine's own record of the session.
   */
  told?(input: string, replies: string[]): void | Promise<void>;
  /**
   * The session ends now (after this turn's `said` sentences, its final reply included): what the
   * child still has to hear about its answers — the secret number, the animal of the open question —
   * or null when every answer of the session was told. GameSessions appends it to the last reply,
   * whatever ended the session (the game's end, `end`, a failure).
   */
  reveal?(said: readonly string[]): string | null;
  /** The session is over (`ended`) or was replaced by a new start (`replaced`): release what it holds. */
  close(why: 'ended' | 'replaced'): Promise<void> | void;
}

/** Makes the engine of a new session (fresh state and memory). May reject with EngineFailure. */
export type EngineFactory = (session: { contextId: string; requestId: string; signal: AbortSignal }) => Promise<GameEngine> | GameEngine;
