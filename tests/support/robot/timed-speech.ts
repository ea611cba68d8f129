/**
 * A SpeechProgress that pretends to speak: each sentence lasts a time proportional to its
 * length on the injected clock. For tests and lab pages (the real one lives in src/speech).
 */
import { systemClock, type Clock } from '../../../src/robot/clock.ts';
import type { SpeechProgress } from '../../../src/robot/speech-progress.ts';

export class TimedSpeech implements SpeechProgress {
  /** The sentence playing now. */
  current: string | null = null;
  readonly spoken: string[] = [];
  private queue: string[] = [];
  private starts = new Set<(t: string) => void>();
  private ends = new Set<(t: string) => void>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly msPerChar = 200,
  ) {}

  /** Queues sentences; resolves when the last of them has been spoken. */
  say(...sentences: string[]): Promise<void> {
    this.queue.push(...sentences);
    const last = sentences[sentences.length - 1];
    const p = new Promise<void>((resolve) => {
      const off = this.onSentenceSpoken((t) => {
        if (t === last) {
          off();
          resolve();
        }
      });
    });
    if (!this.current) this.next();
    return p;
  }

  onSentenceStart(cb: (text: string) => void): () => void {
    this.starts.add(cb);
    return () => this.starts.delete(cb);
  }

  onSentenceSpoken(cb: (text: string) => void): () => void {
    this.ends.add(cb);
    return () => this.ends.delete(cb);
  }

  isSpeaking(): boolean {
    return this.current !== null || this.queue.length > 0;
  }

  whenIdle(): Promise<void> {
    if (!this.isSpeaking()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private next(): void {
    const text = this.queue.shift();
    if (text === undefined) {
      this.current = null;
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    this.current = text;
    for (const cb of [...this.starts]) cb(text);
    this.clock.setTimeout(() => {
      this.spoken.push(text);
      this.current = this.queue.length ? this.current : null;
      for (const cb of [...this.ends]) cb(text);
      this.next();
    }, Math.max(300, [...text].length * this.msPerChar));
  }
}
