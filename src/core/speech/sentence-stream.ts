/**
 * The sentences of a reply while the model is still decoding it. Each finished sentence is
 * released at once — for a final reply only once the next sentence has begun, so the last one is
 * always left for the turn's final reply (the protocol needs exactly one, and it must not be empty).
 * A retry after invalid output decodes the reply again: sentences already released are not released
 * a second time, so the child never hears the same thing twice.
 *
 * With a `check` (the truth check, src/core/games/truth.ts), a sentence is released only once it
 * passed: the first sentence that fails holds back itself and everything after it in that attempt,
 * and `problemIn` tells the caller before the step is accepted, so the refusal goes back to the model.
 * One stream serves every step of a turn that speaks through it (a `say` twice, a reply written again
 * after a refusal): `finish` and `restart` end a step, and the next step starts over without saying
 * again what was said.
 */
import { isFinishedSentence, sentencesOf } from './split.ts';

const CLOSERS = /^[”’」』）)\]"'\s]*$/;

/** A final reply that must still say something when every sentence was already released. */
export const NOTHING_MORE = '好啦。';

export class SentenceStream<P = unknown> {
  /** Every sentence released so far, across attempts, in order. */
  private readonly released: string[] = [];
  private attempt = -1;
  /** Leading sentences of the current attempt already released (now or in an earlier attempt). */
  private done = 0;
  /** A step after the first: what it says again was said already. */
  private again = false;
  /** The current attempt wrote a sentence that failed the check: nothing more of it is released. */
  private held = false;

  constructor(
    private readonly emit: (sentence: string) => void,
    /** Keep the last sentence back for the final reply (a `reply`); release everything finished (a `say`). */
    private readonly holdLast: boolean,
    /** A sentence's problem (it must not be said), or null when it may be said. */
    private readonly check?: (sentence: string) => P | null,
    /** A sentence that says nothing new (the already-said check): dropped, neither checked nor said. */
    private readonly drop?: (sentence: string) => boolean,
  ) {}

  /** The text decoded so far for `attempt`. */
  update(text: string, attempt: number): void {
    if (attempt !== this.attempt) {
      this.attempt = attempt;
      this.done = 0;
      this.held = false;
    }
    if (this.held) return;
    const parts = sentencesOf(text);
    let ready = parts.filter((p, i) => isFinishedSentence(p) && (i < parts.length - 1 || !this.holdLast));
    // A finished sentence is final only once something that is not a closing quote follows it.
    if (this.holdLast && ready.length === parts.length - 1 && CLOSERS.test(parts[parts.length - 1])) ready = ready.slice(0, -1);
    for (let i = this.done; i < ready.length; i++) {
      const sentence = ready[i].trim();
      if (!this.said(sentence, i) && this.drop?.(sentence)) {
        this.done = i + 1;
        continue;
      }
      if (!this.said(sentence, i) && this.check?.(sentence)) {
        this.held = true;
        return;
      }
      this.release(sentence, i);
      this.done = i + 1;
    }
  }

  /**
   * The first sentence of the step's complete `text` that is still to be said and fails the check,
   * with its problem; null when everything may be said (call before `finish`).
   */
  problemIn(text: string): { sentence: string; problem: P } | null {
    if (!this.check) return null;
    const parts = sentencesOf(text).map((p) => p.trim());
    for (let i = this.done; i < parts.length; i++) {
      if (this.said(parts[i], i) || this.drop?.(parts[i])) continue;
      const problem = this.check(parts[i]);
      if (problem) return { sentence: parts[i], problem };
    }
    return null;
  }

  /** The step ended without being accepted (its text was refused): the next step starts over. */
  restart(): void {
    this.attempt = -1;
    this.done = 0;
    this.held = false;
    this.again = true;
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
    const rest = parts.slice(skip).filter((p) => !this.drop?.(p));
    if (!this.holdLast) for (const [i, p] of rest.entries()) this.release(p, skip + i);
    this.restart();
    return this.holdLast ? rest.join('') : '';
  }

  /** Sentences released so far (what the child has been sent). */
  get sent(): readonly string[] {
    return this.released;
  }

  /** Already said: by this attempt before (same place), or by an earlier attempt or step. */
  private said(sentence: string, index: number): boolean {
    return this.released[index] === sentence || ((this.attempt > 0 || this.again) && this.released.includes(sentence));
  }

  private release(sentence: string, index: number): void {
    if (!sentence || this.said(sentence, index)) return;
    this.released.push(sentence);
    this.emit(sentence);
  }
}
