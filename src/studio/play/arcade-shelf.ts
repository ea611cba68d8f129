/**
 * The studio games on the arcade's shelf (main thread): every project of the Book that reached the
 * play stage is one more game, listed like a built-in one. The arcade's catalog is synchronous, so
 * the shelf keeps the last list it read and re-reads the Book when a change is announced
 * (book-events.ts) or on `refresh()`; listeners hear when the list changed.
 */
import type { GameDeclaration } from '../../core/protocol/declaration.ts';
import { Book } from '../book.ts';
import { onBookChange } from './book-events.ts';
import { arcadeDeclaration } from './declaration.ts';
import { setApprovedLines } from '../../games/approved-lines.ts';


export class StudioShelf {
  private games: GameDeclaration[] = [];
  private book: Promise<Book> | null = null;
  private readonly listeners = new Set<() => void>();
  private stopListening: (() => void) | null = null;
  private reading: Promise<void> | null = null;
  private again = false;

  constructor(private readonly openBook: () => Promise<Book> = () => Book.open()) {}

  /** The studio games known now (a game source for the arcade's catalog). */
  readonly list = (): GameDeclaration[] => this.games;

  /** Re-reads the Book; resolves once the list is current. Never rejects (a broken Book lists nothing). */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Follows the Book's change announcements until `dispose()`. */
  listen(): this {
    this.stopListening ??= onBookChange((c) => {
      if (c.type === 'projects') void this.refresh();
    });
    return this;
  }

  dispose(): void {
    this.stopListening?.();
    this.stopListening = null;
    this.listeners.clear();
  }

  private async read(): Promise<void> {
    let next: GameDeclaration[];
    try {
      this.book ??= this.openBook();
      const projects = await (await this.book).playableProjects();
      next = projects.flatMap((p) => (p.declaration ? [arcadeDeclaration(p.declaration)] : []));
      // The texts a parent approved for a game pass in that game's lines (the safety screen reads them).
      for (const p of projects) if (p.declaration) setApprovedLines(arcadeDeclaration(p.declaration).id, p.approved ?? []);
    } catch (e) {
      console.warn('studio games: the Book could not be read', e);
      this.book = null;
      next = [];
    }
    if (JSON.stringify(next) === JSON.stringify(this.games)) return;
    this.games = next;
    for (const fn of this.listeners) fn();
  }
}

/** The shelf the app uses: listening, with a first read started. */
export function createStudioShelf(openBook?: () => Promise<Book>): StudioShelf {
  const shelf = new StudioShelf(openBook).listen();
  void shelf.refresh();
  return shelf;
}
