/**
 * The contracts of a Studio session (./studio-session.ts): what it runs with, where it saves
 * itself, what it shows and what an action returns.
 */
import type { ChatMessage, ChatModel, Step, ToolSpec } from '../core/llm/types.ts';
import type { DeclaredGame } from '../core/studio/cards.ts';
import type { Blackboard } from '../core/studio/blackboard.ts';
import type { TruthRules } from '../core/games/truth.ts';
import type { SkillPackage, StudioSkill } from '../core/studio/package-loader.ts';
import type { Effect, PhaseEvent, PhaseState, WaitingReason, whoActs } from '../core/studio/phase-machine.ts';
import type { CodeExecutor, DesignTraceEntry, SessionSnapshot, TranscriptItem } from '../core/studio/types.ts';
import type { UnsafeCheck, UnsafeFinding } from '../games/unsafe-line.ts';
import type { HelperOutcome } from './helper-executor.ts';
import type { PlayWords } from './play-words.ts';

export type { CodeExecutor };

/** Where a session persists itself (the Book implements it; tests may pass nothing). */
export interface SessionStore {
  saveSession(snapshot: SessionSnapshot, trace: DesignTraceEntry[]): Promise<void>;
  saveDeclared(projectId: string, declared: DeclaredGame): Promise<void>;
}

export interface SessionDeps {
  pkg: SkillPackage;
  model: ChatModel;
  store?: SessionStore;
  now?: () => number;
  codeExecutors?: Record<string, CodeExecutor>;
  /** In play: a line of the manager the safety check blocked before it was said (for the parent's 安全提醒). */
  blocked?: (original: string, finding: UnsafeFinding | null, said: string) => void;
  /**
   * In play: the child-safety check (rules + learned classifier) of a line the manager is about to
   * say; a line it blocks is never said (the redirect and what the rules decided instead). Absent:
   * the speaking path's check alone.
   */
  unsafe?: UnsafeCheck;
  /**
   * In play: the truth rules of the turn now (src/core/games/truth.ts). Each sentence of the
   * manager's reply is checked before it is said; a reply that claims what the run skills did not
   * decide is refused back to the manager, and after the retries of a `TruthGate` the rules' own line is said.
   */
  truth?: () => TruthRules | null;
  /** Names (titles, aliases) of the games already in the arcade, this design's own excluded. */
  takenNames?: () => readonly string[];
  /**
   * In play: the package's reader (skills/<pkg>/reader.ts). Before the manager's model is asked in
   * a burst, the run skill the rules call for is performed and written into the manager's
   * conversation exactly as its own step; once the model has taken a step, the model decides.
   */
  reader?: (req: { messages: readonly ChatMessage[]; tools: readonly ToolSpec[] }) => Step | null;
}

export interface SessionView {
  projectId: string;
  packageId: string;
  state: PhaseState;
  who: ReturnType<typeof whoActs>;
  waiting: WaitingReason | null;
  board: Blackboard;
  transcript: TranscriptItem[];
  busy: boolean;
}

export type ActResult = { ok: true } | { ok: false; message: string };


export type { DeclaredGame };

/**
 * What a session's parts (./manager-round.ts, ./run-helper.ts) may use of the session they run
 * in: its snapshot (they write the board, the manager's conversation and the pending helper), and
 * the session's own steps.
 */
export interface SessionIo {
  readonly deps: SessionDeps;
  readonly now: () => number;
  snap: SessionSnapshot;
  /** The manager's model has taken a step in this burst: no more pre-executed steps in it. */
  modelStepped: boolean;
  readonly playWords: PlayWords;
  dispatch(event: PhaseEvent, work: Effect[]): ActResult;
  fail(err: unknown): void;
  log(kind: DesignTraceEntry['kind'], data: Record<string, unknown>): void;
  say(item: Omit<TranscriptItem, 'at'>): void;
  addUserMessage(content: string): void;
  skillTitle(id: string): string;
  problems(values: Record<string, unknown>, by: 'helper' | 'user'): string[];
  /** Design values with every row's id filled in. */
  identified(values: Record<string, unknown>): Record<string, unknown>;
  runCodeHelper(skill: StudioSkill): HelperOutcome;
}
