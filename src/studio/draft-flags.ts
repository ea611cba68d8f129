/**
 * The cards of the drafts under review that the safety check flags (the Studio's model wrote
 * them), for the Studio's controller (./studio-controller.ts): shown with their category; 采用 waits
 * until the parent approved (kept with the design) or changed each.
 */
import { flaggedInDrafts, type FlaggedText } from '../core/safety/card-check.ts';
import type { CheckLine } from '../core/safety/classify.ts';
import type { SkillPackage } from '../core/studio/package-loader.ts';
import type { ProjectRecord } from '../core/studio/types.ts';
import type { Book } from './book.ts';
import type { ActResult, SessionView } from './session-types.ts';

/** What 采用 (or 「好的」) gets while a flagged text waits. */
export const FLAGGED_DRAFT: ActResult = { ok: false, message: '安全检查标出了几句话：改一改，或者批准它们，再采用' };

export interface DraftFlagsHost {
  readonly state: { view: SessionView | null; pkg: SkillPackage | null; projects: ProjectRecord[]; draftFlags: FlaggedText[] };
  readonly openBook: Book | null;
  set(patch: { draftFlags: FlaggedText[] }): void;
  refreshProjects(): Promise<void>;
}

export class DraftFlags {
  /** The latest check (an older one's answer is dropped). */
  private asked = 0;

  constructor(
    private readonly host: DraftFlagsHost,
    private readonly safetyCheck: () => Promise<CheckLine>,
  ) {}

  /** Texts the parent approved for this game (kept with the design). */
  approved(): readonly string[] {
    const s = this.host.state;
    return s.projects.find((p) => p.id === s.view?.projectId)?.approved ?? [];
  }

  /** The drafts under review now, checked. */
  async check(): Promise<void> {
    const { view, pkg } = this.host.state;
    const w = view?.waiting;
    const values = view && pkg && w?.kind === 'review_drafts' ? w.tags.filter((t) => pkg.tagDefs[t]).map((t) => view.board.tags[t]?.value) : null;
    const asked = ++this.asked;
    if (!values) return this.host.set({ draftFlags: [] });
    const approved = this.approved();
    const check = await this.safetyCheck();
    if (asked === this.asked) this.host.set({ draftFlags: flaggedInDrafts(values, check, approved) });
  }

  /** Edited values that the check flags (the review then stays open). */
  async flaggedIn(values: Record<string, unknown>): Promise<boolean> {
    return flaggedInDrafts(Object.values(values), await this.safetyCheck(), this.approved()).length > 0;
  }

  /** The parent read a flagged text of a draft and approves it for this game. */
  async approve(text: string): Promise<void> {
    const book = this.host.openBook;
    const id = this.host.state.view?.projectId;
    if (!book || !id) return;
    const kept = (await book.getProject(id))?.approved ?? [];
    await book.approveTexts(id, [...kept, text]);
    this.host.set({ draftFlags: this.host.state.draftFlags.filter((f) => f.text !== text) });
    await this.host.refreshProjects();
  }
}
