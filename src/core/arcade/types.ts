/**
 * The main agent's small world (seed 000 §职责, §主 Agent): who said what, what the robot can say,
 * which games exist. Everything with I/O (speech, game workers, the model) is behind these interfaces.
 */
import type { ChatMessage } from '../llm/types.ts';
import type { GameDeclaration } from '../protocol/declaration.ts';

/** History roles: the user, the main agent itself, and a game agent's spoken reply. */
export type HistoryRole = 'user' | 'main' | 'game_agent';

export interface HistoryEntry {
  role: HistoryRole;
  text: string;
  /** For `game_agent` entries: which game said it. */
  gameId?: string;
  at: number;
  /**
   * For a `user` entry the main agent's model decided: the round exactly as it was sent and
   * generated (the input with its state line, every step and tool result, the last step), so the
   * next request repeats it byte for byte and a local engine continues its cache in place.
   */
  sent?: readonly ChatMessage[];
  /** A `main` entry already inside the `sent` round before it (not written again). */
  inSent?: boolean;
}

/** Who a spoken sentence belongs to (subtitles show both sides). */
export type SpeakerRole = 'main' | 'game_agent';

export interface SpokenOutcome {
  /** true when the whole text was spoken (false: interrupted by a tap, or the voice failed). */
  completed: boolean;
  /** Why not completed: 'stopped' (tap to stop), 'no-voice', 'failed', 'watchdog', 'blocked' (the safety check dropped it). */
  reason?: string;
  /** What was actually said when the safety check changed the line: the gentle redirect, or '' (nothing). */
  said?: string;
}

/**
 * The robot's mouth as the main agent sees it: a FIFO queue. `say` resolves once the text has
 * settled (spoken, interrupted, or failed) — it never hangs, so "finished speaking" is always known.
 */
export interface SayOptions {
  /**
   * A waiting line ("嗯，让我想想"): it yields to a real sentence — dropped if it has not started,
   * cut at its next clause if it has — and it does not count as the answer (the thinking face stays).
   */
  yields?: boolean;
}

export interface Speaker {
  say(text: string, role: SpeakerRole, opts?: SayOptions): Promise<SpokenOutcome>;
  /** Stop talking now and drop everything queued (tap anywhere). */
  stop(): void;
}

/** A game the arcade offers, with whether it can be played on the connected device right now. */
export interface ArcadeGame {
  declaration: GameDeclaration;
  available: boolean;
  /** Chinese reason shown/spoken when unavailable, e.g. "「你画我猜」需要机器人会画画，现在连着的机器人还不会。…". */
  reason?: string;
}

/** The current game session: which game, which A2A context. */
export interface Session {
  gameId: string;
  title: string;
  contextId: string;
}

/** What the UI needs to draw: phase of the round and the session. */
export type AgentPhase = 'idle' | 'thinking' | 'speaking';

export interface AgentSnapshot {
  phase: AgentPhase;
  session: Session | null;
  /** The game is still handling the previous input (send_message would be held back). */
  gameBusy: boolean;
}

export type AgentEvent =
  | { type: 'heard'; text: string; roundId: string }
  | { type: 'spoken'; role: SpeakerRole; text: string; gameId?: string; completed: boolean }
  | { type: 'state'; snapshot: AgentSnapshot }
  /** A round needed a brain and none is chosen: a grown-up should choose one (the child was told). */
  | { type: 'needs-brain'; roundId: string };

/** How a round (one user input) was handled; returned when the round is over (mic may listen again). */
export interface RoundResult {
  roundId: string;
  /** 'repeat' | 'stop' | 'wait' | 'fast' | 'tap' | 'voice' | 'care' | 'locked' (no main-agent model call) | 'model'. */
  route: 'repeat' | 'stop' | 'wait' | 'fast' | 'model' | 'tap' | 'voice' | 'care' | 'locked';
  /** Main-agent model calls made in this round. */
  modelCalls: number;
  /** The tool the round ended with: 'reply' | 'start_game' | 'send_message' | 'end_game' | 'error' | ... */
  action: string;
}
