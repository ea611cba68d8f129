/**
 * What the Studio's controller (./studio-controller.ts) runs with and what it shows: its parts
 * (the model, the Book, the packages, the arcade's games, the safety check, speech and mic) and
 * the state the Studio's screen renders.
 */
import type { ChatModel } from '../core/llm/types.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import type { FlaggedText } from '../core/safety/card-check.ts';
import type { CheckLine } from '../core/safety/classify.ts';
import type { LoadResult, SkillPackage } from '../core/studio/package-loader.ts';
import type { PlayBook, ProjectRecord } from '../core/studio/types.ts';
import type { MicStatus } from '../speech/recognizer.ts';
import type { LoopState } from '../speech/voice-loop.ts';
import type { Book } from './book.ts';
import type { HandState } from './hand-cards.ts';
import type { RobotDrawing } from '../core/drawings/robot-drawings.ts';
import type { SessionView, StudioSession } from './studio-session.ts';

/** The parent's push-to-talk microphone in the Studio (the arcade's recognizer under its own loop). */
export interface StudioMic {
  pushToTalk(): void;
  onState(fn: (s: LoopState) => void): () => void;
  onStatus(fn: (s: MicStatus) => void): () => void;
  dispose(): void;
}

export interface StudioControllerDeps {
  /** The app's model (the hub's): each design's steps are filed under that design. */
  model: ChatModel;
  /** The brain's name and whether one is chosen, as it changes. */
  brain?: { subscribe(fn: (s: { label: string; kind?: unknown }) => void): () => void };
  openBook: () => Promise<Book>;
  packages: LoadResult[];
  /** The arcade's games now (a new game may not take one of their names). */
  games: () => GameDeclaration[];
  /** The safety check a parent's own cards are checked with before they go to the arcade. */
  safetyCheck: () => Promise<CheckLine>;
  /** Reading the Studio's questions aloud, through the one speaking path. */
  speech?: { say(text: string): void; stopTalking(): void };
  /** The microphone, made when the Studio opens, its words going to `said`. */
  mic?: (onWords: (text: string) => Promise<unknown>) => StudioMic;
  /** Where the read-aloud choice is kept. */
  settings?: Pick<Storage, 'getItem' | 'setItem'> | null;
  now?: () => number;
  newId?: () => string;
}

export type StudioScreenName = 'home' | 'talk' | 'hand';

export interface StudioState extends HandState {
  screen: StudioScreenName;
  /** The Book is open (or could not be: `loadError`). */
  ready: boolean;
  loadError: string;
  projects: ProjectRecord[];
  /** Play records per playable project, newest first. */
  playBooks: Record<string, PlayBook[]>;
  session: StudioSession | null;
  pkg: SkillPackage | null;
  view: SessionView | null;
  /** A problem to show. */
  notice: string;
  /** Good news (a card heard and written down), shown apart from problems. */
  noted: string;
  /** Texts of the drafts under review the safety check flags (the model wrote them), not approved yet: 采用 waits. */
  draftFlags: FlaggedText[];
  /** Rows the open design asks the parent to write (「你来写几张吧？」), as the form has them. */
  rows: unknown[];
  drawings: readonly RobotDrawing[];
  brainLabel: string;
  /** A brain is chosen: talking to the Studio needs one (writing cards by hand does not). */
  hasBrain: boolean;
  canReadAloud: boolean;
  readAloud: boolean;
  hasMic: boolean;
  loopState: LoopState;
  micStatus: MicStatus;
}
