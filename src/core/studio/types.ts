/** Records shared by the Studio runtime and the Book (seed 004 §8: process / assets / play). */
import type { ChatMessage } from '../llm/types.ts';
import type { GameDeclaration } from '../protocol/declaration.ts';
import type { Blackboard } from './blackboard.ts';
import type { PhaseState } from './phase-machine.ts';

/** Runtime code for `executor: code` skills: reads (unmasked) in, output tag values out (a package's runtime.ts makes them). */
export type CodeExecutor = (reads: Record<string, unknown>) => Record<string, unknown>;

/** One line of the conversation shown on the Studio screen. */
export interface TranscriptItem {
  who: 'user' | 'agent' | 'helper' | 'system';
  text: string;
  at: number;
  skill?: string;
}

/** Everything needed to resume a session exactly where it waited (one JSON-safe record). */
export interface SessionSnapshot {
  v: 1;
  projectId: string;
  packageId: string;
  state: PhaseState;
  board: Blackboard;
  /** The manager's conversation (system prompt first). */
  manager: ChatMessage[];
  /** The helper waiting for the user's answer (its own conversation), if any. */
  pendingHelper: { helperId: string; skill: string; messages: ChatMessage[] } | null;
  transcript: TranscriptItem[];
  seq: number;
  savedAt: number;
}

type DesignTraceKind = 'user_input' | 'user_decision' | 'burst' | 'tool_call' | 'helper_run' | 'model_error' | 'declared' | 'play_turn';

export interface DesignTraceEntry {
  projectId: string;
  at: number;
  kind: DesignTraceKind;
  burstNo: number;
  data: Record<string, unknown>;
}

/** A card of a designed quiz (`设计.卡牌` item), stored once the design is declared ready. */
export interface CardAsset {
  projectId: string;
  cardId: string;
  kind: 'question' | 'picture';
  prompt: string;
  /** A picture card's description, shown as text (designs made before cards had drawings). */
  picture?: string;
  /** A picture card's drawing: the id of one of the robot's drawings, drawn while the card is asked. */
  drawing?: string;
  answer: string;
  aliases: string[];
  hints: string[];
  difficulty: 1 | 2 | 3;
}

export interface ProjectRecord {
  id: string;
  /** A2A skill id of the designed game (a-z0-9-). */
  gameId: string;
  packageId: string;
  title: string;
  aliases: string[];
  capabilities: GameDeclaration['capabilities'];
  stage: PhaseState['stage'];
  /** Short Chinese line for the list: what it waits for. */
  status: string;
  createdAt: number;
  updatedAt: number;
  /** Set when the design reached play. */
  declaration?: GameDeclaration;
  /** The accepted design facts (`设计.*` values) at declaration: the play stage's input. */
  design?: Record<string, unknown>;
  /** Texts of the game's cards (the parent's own or the Studio's model's) that the safety check flagged and the parent approved for this game (they pass in play). */
  approved?: string[];
  /** How many times the game was put in the arcade (1 at first; an edit of a finished game adds one). */
  version?: number;
}

interface PlayTurn {
  at: number;
  input: string;
  replies: string[];
}

export interface PlayBook {
  id: string;
  projectId: string;
  startedAt: number;
  endedAt?: number;
  turns: PlayTurn[];
  score: number;
  correct: number;
  /** Cards (问答, 猜谜语) or actions (我说你做) played; 0 in 故事接龙. */
  cardsPlayed: number;
  durationMs: number;
  /** The shape of play (设计.交互范式.范式), so the record reads right: 张 of cards, 个 of actions, rounds of a story. */
  shape?: string;
}
