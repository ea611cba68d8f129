/**
 * The sentences of a reply while the model is still decoding it. Each finished sentence is
 * released at once — for a final reply only once the next sentence has begun, so the last one is
 * always left for the turn's final reply (the protocol needs exactly one, and it must not be empty).
 * A retry after invalid output decodes the reply again: sentences already released are not released
 * a second time, so the child never hears the same thing twice.
 */
import { isFinishedSentence, sentencesOf } from './split.ts';

const CLOSERS = /^[”’」』）)\]"'\s]*$/;

/** A final reply that must still say something when every sentence was already released. */
export const NOTHING_MORE = '好啦。';

export class SentenceStream {
  /** Every sentence released so far, across attempts, in order. */
  private readonly released: string[] = [];
  private attempt = -1;
  /** Leading sentences of the current attempt already released (now or in an earlier attempt). */
  private done = 0;

  constructor(
    private readonly emit: (sentence: string) => void,
    /** Keep the last sentence back for the final reply (a `reply`); release everything finished (a `say`). */
    private readonly holdLast: boolean,
  ) {}

  /** The text decoded so far for `attempt`. */
  update(text: string, attempt: number): void {
    if (attempt !== this.attempt) {
      this.attempt = attempt;
      this.done = 0;
    }
    const parts = sentencesOf(text);
    let ready = parts.filter((p, i) => isFinishedSentence(p) && (i < parts.length - 1 || !this.holdLast));
    // A finished sentence is final only once something that is not a closing quote follows it.
    if (this.holdLast && ready.length === parts.length - 1 && CLOSERS.test(parts[parts.length - 1])) ready = ready.slice(0, -1);
    for (let i = this.done; i < ready.length; i++) this.release(ready[i].trim(), i);
    this.done = Math.max(this.done, ready.length);
  }

  /**
   * The step is complete: `text` is its validated text. Returns what is still to be said (the
   * sentences not released yet), or '' when everything has been said already.
   */
  finish(text: string): string {
    const parts = sentencesOf(text).map((p) => p.trim());
    let skip = this.done;
    // Sentences this attempt repeats from an earlier one were said already.
    while (skip < parts.length && this.released.includes(parts[skip])) skip++;
    const rest = parts.slice(skip);
    if (!this.holdLast) for (const [i, p] of rest.entries()) this.release(p, skip + i);
    this.done = parts.length;
    return this.holdLast ? rest.join('') : '';
  }

  /** Sentences released so far (what the child has been sent). */
  get sent(): readonly string[] {
    return this.released;
  }

  private release(sentence: string, index: number): void {
    if (!sentence) return;
    // A retry that repeats what an earlier attempt said: already said.
    if (this.released[index] === sentence || (this.attempt > 0 && this.released.includes(sentence))) return;
    this.released.push(sentence);
    this.emit(sentence);
  }
}
