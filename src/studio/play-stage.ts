/**
 * The play stage of a designed game, for the arcade (issue 9): load a project that reached play
 * from the Book, start a play session on its accepted design, and run one burst per player input
 * while keeping the PlayBook record (turns, score, duration). No DOM: runs in a game Web Worker.
 */
import type { ChatModel } from '../llm/types.ts';
import type { GameDeclaration } from '../protocol/declaration.ts';
import type { Book } from './book.ts';
import { discoverPackages, type LoadResult, type SkillPackage } from './package-loader.ts';
import { StudioSession, type CodeExecutor } from './phase-runtime.ts';
import type { CardAsset, PlayBook, ProjectRecord } from './types.ts';

/** Each package's runtime code (`skills/<pkg>/runtime.ts` exporting `createCodeExecutors()`). */
const runtimes = import.meta.glob<{ createCodeExecutors?: () => Record<string, CodeExecutor> }>('/skills/*/runtime.ts', { eager: true });

export function codeExecutorsFor(packageId: string): Record<string, CodeExecutor> {
  return runtimes[`/skills/${packageId}/runtime.ts`]?.createCodeExecutors?.() ?? {};
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

/** One play session of a designed game: `turn(text)` is one user hard event → one manager burst. */
export class PlaySession {
  readonly session: StudioSession;
  private record: PlayBook;

  constructor(
    readonly game: PlayableGame,
    model: ChatModel,
    private readonly opts: { book?: Book; now?: () => number; id?: string; codeExecutors?: Record<string, CodeExecutor> } = {},
  ) {
    const now = opts.now ?? Date.now;
    this.session = StudioSession.startPlay({ pkg: game.pkg, model, now, codeExecutors: opts.codeExecutors ?? codeExecutorsFor(game.pkg.id) }, game.project.id, game.design);
    const at = now();
    this.record = { id: opts.id ?? `pb-${at.toString(36)}-${Math.random().toString(36).slice(2, 6)}`, projectId: game.project.id, startedAt: at, turns: [], score: 0, correct: 0, cardsPlayed: 0, durationMs: 0 };
  }

  get ended(): boolean {
    return this.session.view.state.stage === 'done';
  }

  /** The card being asked now (runtime truth; never put its answer in a prompt before it is revealed). */
  get currentCard(): CardAsset | undefined {
    const id = (this.session.view.board.tags['运行.当前卡']?.value as { id?: string } | undefined)?.id;
    return this.game.cards.find((c) => c.cardId === id);
  }

  async turn(text: string): Promise<{ ok: boolean; message?: string; replies: PlayReply[] }> {
    const now = this.opts.now ?? Date.now;
    const at = now();
    const r = await this.session.play(text);
    this.record.turns.push({ at, input: text, replies: r.replies.map((x) => x.text) });
    const score = this.session.view.board.tags['运行.得分']?.value as { 得分?: number; 答对?: number } | undefined;
    const progress = this.session.view.board.tags['运行.进度']?.value as { 已用?: string[] } | undefined;
    this.record = { ...this.record, score: score?.得分 ?? 0, correct: score?.答对 ?? 0, cardsPlayed: progress?.已用?.length ?? 0, durationMs: now() - this.record.startedAt };
    if (this.ended) this.record.endedAt = now();
    await this.opts.book?.savePlayBook(this.record);
    return r;
  }

  /** The player left (GameInput `end`): the session is over and the record closed. */
  async end(): Promise<void> {
    if (!this.ended) await this.session.endPlay();
    const now = this.opts.now ?? Date.now;
    this.record = { ...this.record, endedAt: now(), durationMs: now() - this.record.startedAt };
    await this.opts.book?.savePlayBook(this.record);
  }

  get playBook(): PlayBook {
    return structuredClone(this.record);
  }
}
