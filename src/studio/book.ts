/**
 * The Book (seed 004 §8): long-term storage across Sessions in IndexedDB (`agentcade-book`, via idb).
 * Stores: projects (one per designed game), designTrace (every burst, tool call, helper run and user
 * decision), cardAssets, playBooks, snapshots (one per project: the resumable Session) and meta.
 * The schema is versioned; `upgrade` migrates from every earlier version, starting at v1.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DeclaredGame, SessionStore } from './studio-session.ts';
import type { SkillPackage } from '../core/studio/package-loader.ts';
import { upgradeSnapshot } from '../core/studio/snapshot-upgrade.ts';
import type { CardAsset, DesignTraceEntry, PlayBook, ProjectRecord, SessionSnapshot } from '../core/studio/types.ts';

const BOOK_DB = 'agentcade-book';
export const BOOK_VERSION = 2;

interface BookSchema extends DBSchema {
  projects: { key: string; value: ProjectRecord; indexes: { byUpdated: number } };
  designTrace: { key: number; value: DesignTraceEntry & { seq?: number }; indexes: { byProject: string } };
  snapshots: { key: string; value: SessionSnapshot };
  cardAssets: { key: [string, string]; value: CardAsset; indexes: { byProject: string } };
  playBooks: { key: string; value: PlayBook; indexes: { byProject: string } };
  meta: { key: string; value: { key: string; value: unknown } };
}

/** The status line of a design in 我的游戏, in the parent's words. */
export function waitingLabel(s: SessionSnapshot): string {
  const st = s.state;
  if (st.stage === 'play' || st.stage === 'done') return '做好了，在游戏厅里';
  const w = st.waiting;
  if (st.phase === 'error') return '有一步没做成，打开后点「接着想」';
  if (!w) return st.phase === 'idle' ? '等你说想做什么游戏' : '设计室正在想';
  switch (w.kind) {
    case 'review_drafts': return '有新想好的内容，等你看一看';
    case 'agent_question': return `等你回答：${w.question}`;
    case 'helper_question': return `等你回答：${w.question}`;
    case 'burst_cap': return '设计室停下来了，等你再说说';
    case 'helper_failed': return '有一步没做成，打开后点「接着想」';
    case 'interrupted': return '上次被打断了，打开后点「接着想」';
    case 'player_input': return '做好了，在游戏厅里';
  }
}

/** The card form being written: a new game, or (`editing`) a change to a finished one. */
export interface HandDraft {
  title: string;
  paradigm: string;
  rounds: number | undefined;
  cards: unknown[];
  /** The project being changed (a finished game), if any. */
  editing?: string;
  /** The parent went back to 我的游戏 on purpose: offered again from 自己写卡片, not reopened by itself. */
  left?: boolean;
}

export class Book implements SessionStore {
  private constructor(private readonly db: IDBPDatabase<BookSchema>) {}

  static async open(name = BOOK_DB): Promise<Book> {
    const db = await openDB<BookSchema>(name, BOOK_VERSION, {
      upgrade(db, oldVersion, _newVersion, tx) {
        // v1: projects, the design trace and resumable snapshots.
        if (oldVersion < 1) {
          db.createObjectStore('projects', { keyPath: 'id' });
          db.createObjectStore('designTrace', { autoIncrement: true }).createIndex('byProject', 'projectId');
          db.createObjectStore('snapshots', { keyPath: 'projectId' });
        }
        // v2: assets and play records, a recency index on projects, and meta (the last open project).
        if (oldVersion < 2) {
          db.createObjectStore('cardAssets', { keyPath: ['projectId', 'cardId'] }).createIndex('byProject', 'projectId');
          db.createObjectStore('playBooks', { keyPath: 'id' }).createIndex('byProject', 'projectId');
          db.createObjectStore('meta', { keyPath: 'key' });
          const projects = tx.objectStore('projects');
          projects.createIndex('byUpdated', 'updatedAt');
          // v1 projects had no status line and no aliases: fill them in place.
          void projects.openCursor().then(async function fill(cursor): Promise<void> {
            if (!cursor) return;
            const p = cursor.value as Partial<ProjectRecord> & { id: string };
            await cursor.update({ aliases: [], capabilities: [], status: '', ...p } as ProjectRecord);
            return fill(await cursor.continue());
          });
        }
      },
    });
    return new Book(db);
  }

  close(): void {
    this.db.close();
  }

  // ── projects ──
  async createProject(pkg: SkillPackage, id: string, at: number): Promise<ProjectRecord> {
    const p: ProjectRecord = { id, gameId: '', packageId: pkg.id, title: '新游戏', aliases: [], capabilities: pkg.capabilities, stage: 'design', status: '等你说想做什么游戏', createdAt: at, updatedAt: at };
    await this.db.put('projects', p);
    await this.setLastOpen(id);
    return p;
  }

  getProject(id: string): Promise<ProjectRecord | undefined> {
    return this.db.get('projects', id);
  }

  /** Newest first. */
  async listProjects(): Promise<ProjectRecord[]> {
    return (await this.db.getAllFromIndex('projects', 'byUpdated')).reverse();
  }

  /** Projects whose design reached play: what the arcade lists as games. */
  async playableProjects(): Promise<ProjectRecord[]> {
    return (await this.listProjects()).filter((p) => p.declaration && p.stage !== 'design');
  }

  async deleteProject(id: string): Promise<void> {
    const tx = this.db.transaction(['projects', 'snapshots', 'cardAssets', 'designTrace', 'playBooks'], 'readwrite');
    await tx.objectStore('projects').delete(id);
    await tx.objectStore('snapshots').delete(id);
    for (const key of await tx.objectStore('cardAssets').index('byProject').getAllKeys(id)) await tx.objectStore('cardAssets').delete(key);
    for (const key of await tx.objectStore('designTrace').index('byProject').getAllKeys(id)) await tx.objectStore('designTrace').delete(key);
    for (const key of await tx.objectStore('playBooks').index('byProject').getAllKeys(id)) await tx.objectStore('playBooks').delete(key);
    await tx.done;
  }

  // ── SessionStore ──
  async saveSession(snapshot: SessionSnapshot, trace: DesignTraceEntry[]): Promise<void> {
    const tx = this.db.transaction(['snapshots', 'designTrace', 'projects'], 'readwrite');
    await tx.objectStore('snapshots').put(snapshot);
    for (const t of trace) await tx.objectStore('designTrace').add(t);
    const p = await tx.objectStore('projects').get(snapshot.projectId);
    if (p) {
      const theme = snapshot.board.tags['设计.主题'];
      const title = p.declaration?.title ?? (theme && typeof theme.value === 'object' && theme.value ? ((theme.value as { 标题?: string }).标题 ?? p.title) : p.title);
      await tx.objectStore('projects').put({ ...p, title, stage: snapshot.state.stage, status: waitingLabel(snapshot), updatedAt: snapshot.savedAt });
    }
    await tx.done;
  }

  async saveDeclared(projectId: string, g: DeclaredGame): Promise<void> {
    const tx = this.db.transaction(['projects', 'cardAssets'], 'readwrite');
    const p = await tx.objectStore('projects').get(projectId);
    if (p)
      await tx.objectStore('projects').put({
        ...p,
        gameId: g.declaration.id,
        title: g.declaration.title,
        aliases: g.declaration.aliases,
        capabilities: g.declaration.capabilities,
        declaration: g.declaration,
        design: g.design,
        stage: 'play',
        status: '做好了，在游戏厅里',
        // A finished game changed and put back: a new version (its play records stay with the project).
        version: p.declaration ? (p.version ?? 1) + 1 : 1,
      });
    for (const key of await tx.objectStore('cardAssets').index('byProject').getAllKeys(projectId)) await tx.objectStore('cardAssets').delete(key);
    for (const c of g.cards) await tx.objectStore('cardAssets').put(c);
    await tx.done;
  }

  /** Keeps the texts the parent approved for this game (see ProjectRecord.approved). */
  async approveTexts(projectId: string, texts: readonly string[]): Promise<void> {
    const tx = this.db.transaction('projects', 'readwrite');
    const p = await tx.store.get(projectId);
    if (p) await tx.store.put({ ...p, approved: [...new Set(texts)] });
    await tx.done;
  }

  /** A design's session as saved (one saved before helpers had their name reads as today's). */
  async loadSnapshot(projectId: string): Promise<SessionSnapshot | undefined> {
    const snap = await this.db.get('snapshots', projectId);
    return snap && upgradeSnapshot(snap);
  }

  async designTrace(projectId: string): Promise<DesignTraceEntry[]> {
    return this.db.getAllFromIndex('designTrace', 'byProject', projectId);
  }

  cards(projectId: string): Promise<CardAsset[]> {
    return this.db.getAllFromIndex('cardAssets', 'byProject', projectId);
  }

  async savePlayBook(pb: PlayBook): Promise<void> {
    await this.db.put('playBooks', pb);
  }

  playBooks(projectId: string): Promise<PlayBook[]> {
    return this.db.getAllFromIndex('playBooks', 'byProject', projectId);
  }

  // ── meta ──
  /** The card form as the parent left it (kept as they type, so an idle lock or a reload loses nothing). */
  async saveHandDraft(draft: HandDraft | null): Promise<void> {
    await this.db.put('meta', { key: 'handDraft', value: draft });
  }

  async handDraft(): Promise<HandDraft | null> {
    const v = (await this.db.get('meta', 'handDraft'))?.value as HandDraft | null | undefined;
    return v && typeof v === 'object' && Array.isArray(v.cards) ? v : null;
  }

  async setLastOpen(projectId: string | null): Promise<void> {
    await this.db.put('meta', { key: 'lastOpen', value: projectId });
  }

  async lastOpen(): Promise<string | null> {
    return ((await this.db.get('meta', 'lastOpen'))?.value as string | null | undefined) ?? null;
  }
}
