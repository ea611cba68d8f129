/**
 * What the main agent is given (./main-agent.ts): the model, the games, the catalogue, the robot's
 * mouth, and the app's hooks (trace rounds, remembered sessions, voice commands, the thinking cue,
 * whether a brain is chosen, the parent's 「只玩游戏」, play time).
 */
import type { GameClient } from '../a2a/types.ts';
import type { VoiceCommand } from '../core/arcade/intents.ts';
import type { ArcadeGame, Speaker } from '../core/arcade/types.ts';
import type { TurnBudget } from '../core/arcade/turn-budget.ts';
import type { ChatModel } from '../core/llm/types.ts';
import type { TraceSink } from '../core/trace/types.ts';
import type { ThinkingCue } from './thinking-cue.ts';

export interface MainAgentDeps {
  /** The current "main" model (a getter: the user may switch models in settings). */
  model: () => ChatModel;
  games: GameClient;
  /** Installed games and whether each can be played now. */
  catalog: () => readonly ArcadeGame[];
  /** The robot's mouth: the speaking queue. The agent builds the one speaking path over it. */
  speaker: Speaker;
  trace?: TraceSink;
  newId?: () => string;
  now?: () => number;
  /** Forward clear in-game utterances without a main-agent model call (default true). */
  fastPath?: boolean;
  /**
   * Who decides the words in a game that are not a clear move (read at every round):
   * - `on-switch` (default): the main agent's rules on an engine that would forget the game's
   *   conversation for a main-agent step (`forgetsOnSwitch`), its model on any other;
   * - `always`: its rules (the brain in use was measured on this device and a turn's wait does not
   *   fit the turn budget: a model step would leave the child waiting and the game's turn behind it);
   * - `never`: its model.
   */
  rulesInGame?: () => RulesInGame;
  /** Model steps per round before giving up (list_games then reply needs 2). */
  maxSteps?: number;
  /** The turn budget (T1 "still thinking", T2 a real answer); read at every round (default 4 s / 20 s). */
  budget?: () => TurnBudget;
  /**
   * How long a game request may take before the main agent gives up on it (default: T2 after the
   * child's words). A remote game the parent allowed longer waits for keeps its own.
   */
  gameWaitMs?: (gameId: string) => number | undefined;
  /**
   * Opens a trace round for the user's words and returns its id (TraceRecorder.startRound); it
   * records the user input itself. Without it the agent records `user_input` with its own id.
   */
  startRound?: (text: string) => string;
  /** Remembers the running session across reloads (src/trace/session-guard.ts). */
  sessions?: { remember(gameId: string, contextId: string): void; forget(): void; endSent?(): void };
  /**
   * Voice commands ("大声点", "小声一点", "说慢一点"): applies one to the speech settings (and
   * persists it) at once; returns false when already at the limit. Without it such words are
   * ordinary words.
   */
  voice?: { adjust(cmd: VoiceCommand): boolean };
  /** See GameRequestsDeps.onSessionCleared. */
  onSessionCleared?: (gameId: string) => void;
  /** The instant cue shown the moment the child's words arrive (before any model call). */
  cue?: ThinkingCue;
  /**
   * Whether a brain is chosen and answers. Without one, a round that needs the model, or a tap on a
   * game that runs on this device, is told 「我还没有选好用哪个大脑…」 and `needs-brain` is emitted.
   */
  brainReady?: () => boolean;
  /** A game that plays by its rules alone when no brain is chosen (a tap on it starts it anyway). */
  playsWithoutBrain?: (game: ArcadeGame) => boolean;
  /** The parent's 「只玩游戏」: the main agent only lists, starts and ends games (read each round). */
  gamesOnly?: () => boolean;
  /** False while play time is over (the locked screen): words and taps start no round. */
  playAllowed?: () => boolean;
}

/** MainAgentDeps.rulesInGame. */
export type RulesInGame = 'on-switch' | 'always' | 'never';
