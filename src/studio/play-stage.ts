/**
 * The play stage of a designed game, for the arcade: load a project that reached play
 * from the Book, with its declaration, cards, accepted design and the package's runtime code.
 * The one play runtime is `play/play-runtime.ts#PlayRuntime` (turns, restore, PlayBook). No DOM.
 */
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import type { Book } from './book.ts';
import { type LoadResult, type SkillPackage } from '../core/studio/package-loader.ts';
import { discoverPackages } from './bundled-packages.ts';
import type { CodeExecutor } from './studio-session.ts';
import type { CardAsset, ProjectRecord } from '../core/studio/types.ts';
import type { TruthFn } from '../core/games/truth.ts';
import type { ChatMessage, Step, ToolSpec } from '../core/llm/types.ts';
import type { JevTarget } from '../core/jev/index.ts';
import type { PlayTruthState } from '../core/studio/device-effects.ts';

/** Each package's runtime code (`skills/<pkg>/runtime.ts` exporting `createCodeExecutors()` and, if it has them, its truth rules `truth`). */
const runtimes = import.meta.glob<{ createCodeExecutors?: () => Record<string, CodeExecutor>; truth?: TruthFn<PlayTruthState>; reader?: PlayReader }>('/skills/*/runtime.ts', { eager: true });

export function codeExecutorsFor(packageId: string): Record<string, CodeExecutor> {
  return runtimes[`/skills/${packageId}/runtime.ts`]?.createCodeExecutors?.() ?? {};
}

/** A package's truth rules for the play manager's own words (none: every sentence may be said). */
export function playTruthFor(packageId: string): TruthFn<PlayTruthState> | undefined {
  return runtimes[`/skills/${packageId}/runtime.ts`]?.truth;
}

/** A package's play reader (its `reader` export): the run skill the rules call for now, or null. */
export type PlayReader = (req: { messages: readonly ChatMessage[]; tools: readonly ToolSpec[]; deck?: readonly JevTarget[] }) => Step | null;

export function playReaderFor(packageId: string): PlayReader | undefined {
  return runtimes[`/skills/${packageId}/runtime.ts`]?.reader;
}

export interface PlayableGame {
  project: ProjectRecord;
  pkg: SkillPackage;
  declaration: GameDeclaration;
  cards: CardAsset[];
  design: Record<string, unknown>;
}

/** A project that reached play, with its declaration and cards; null if it has not (or is unknown). */
export async function loadPlayableGame(book: Book, projectId: string, packages: LoadResult[] = discoverPackages()): Promise<PlayableGame | null> {
  const project = await book.getProject(projectId);
  if (!project?.declaration || !project.design) return null;
  const loaded = packages.find((p) => p.ok && p.pkg.id === project.packageId);
  if (!loaded || !loaded.ok) return null;
  return { project, pkg: loaded.pkg, declaration: project.declaration, cards: await book.cards(projectId), design: project.design };
}

export type PlayReply = { text: string; session: 'active' | 'ended' };
