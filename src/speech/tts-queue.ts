/**
 * The speaking queue (research hw-speech §5): utterances in order, each split into pieces, each
 * piece settled on `end`, `error` or a watchdog — so "finished speaking" is always known, even when
 * the engine never answers. With no Chinese voice the queue still runs (subtitles only): each
 * utterance then stays on screen for a reading time instead of being spoken.
 */
import type { SayOptions, Speaker, SpeakerRole, SpokenOutcome } from '../core/arcade/types.ts';
import { splitSentences } from '../core/speech/split.ts';
import { realTimers, type SpeechEvent, type SpeechProgress, type SynthEngine, type SynthOptions, type Timers } from './types.ts';

export interface SpeechQueueOptions {
  engine: SynthEngine;
  timers?: Timers;
  /** false: no usable voice — subtitles only. Read on every utterance (voices load late). */
  hasVoice?: () => boolean;
  /** Watchdog per piece: msPerChar × chars / rate + graceMs (research: 250 ms/char + 2 s). */
  msPerChar?: number;
  graceMs?: number;
  /** A piece that has not started after this long has failed (engine stuck). */
  startTimeoutMs?: number;
  /** Subtitles-only reading time per character, capped. */
  readMsPerChar?: number;
  readMaxMs?: number;
  rate?: number;
  volume?: number;
}

interface Utterance {
  id: number;
  text: string;
  role: SpeakerRole;
  pieces: string[];
  done: (o: SpokenOutcome) => void;
  failed?: string;
  /** A waiting line: it yields to a real sentence (see SayOptions.yields). */
  yields?: boolean;
  /** A real sentence is waiting: this waiting line stops at its next clause. */
  cut?: boolean;
}

/** A waiting line's clauses: it may stop after any of them ("嗯，" then "让我想想。"). */
function clauses(text: string): string[] {
  return text.split(/(?<=[，,、；;。！!？?…])/u).filter((c) => c.trim());
}

export class SpeechQueue implements Speaker, SpeechProgress {
  private readonly queue: Utterance[] = [];
  private current: Utterance | null = null;
  private pieceToken = 0;
  private watchdog: unknown = null;
  private startTimer: unknown = null;
  private nextId = 1;
  private readonly listeners = new Set<(e: SpeechEvent) => void>();
  private readonly timers: Timers;
  private opts: SynthOptions;
  busy = false;

  constructor(private readonly o: SpeechQueueOptions) {
    this.timers = o.timers ?? realTimers;
    this.opts = { rate: o.rate ?? 1, volume: o.volume ?? 1 };
  }

  setOptions(opts: Partial<SynthOptions>): void {
    this.opts = { ...this.opts, ...opts };
  }

  get options(): SynthOptions {
    return { ...this.opts };
  }

  subscribe(fn: (e: SpeechEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  say(text: string, role: SpeakerRole, opts: SayOptions = {}): Promise<SpokenOutcome> {
    return new Promise((done) => {
      const pieces = opts.yields ? clauses(text) : splitSentences(text);
      const u: Utterance = { id: this.nextId++, text, role, pieces: pieces.length ? pieces : [text], done, ...(opts.yields ? { yields: true } : {}) };
      if (!opts.yields) this.yieldTo();
      this.queue.push(u);
      if (!this.current) this.next();
    });
  }

  /** A real sentence arrived: waiting lines not started are dropped, the one playing stops at its next clause. */
  private yieldTo(): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const w = this.queue[i];
      if (!w.yields) continue;
      this.queue.splice(i, 1);
      this.finish(w, false, 'yielded');
    }
    if (this.current?.yields) this.current.cut = true;
  }

  /** Tap anywhere: stop now, drop the queue. Every pending `say` settles with completed=false. */
  stop(): void {
    const all = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = null;
    this.clearTimers();
    this.pieceToken++;
    if (all.length) this.o.engine.cancel();
    for (const u of all) this.finish(u, false, 'stopped');
    if (this.busy) {
      this.busy = false;
      this.emit({ type: 'idle' });
    }
  }

  private next(): void {
    const u = this.queue.shift();
    if (!u) {
      this.current = null;
      if (this.busy) {
        this.busy = false;
        this.emit({ type: 'idle' });
      }
      return;
    }
    this.current = u;
    if (!this.busy) {
      this.busy = true;
      this.emit({ type: 'speaking' });
    }
    this.emit({ type: 'utterance-start', id: u.id, text: u.text, role: u.role, ...(u.yields ? { yields: true } : {}) });
    if (this.o.hasVoice && !this.o.hasVoice()) {
      // Subtitles only: give the child time to read, then move on.
      const chars = Array.from(u.text).length;
      const ms = Math.min(this.o.readMaxMs ?? 6000, (this.o.readMsPerChar ?? 120) * chars);
      const token = ++this.pieceToken;
      this.watchdog = this.timers.setTimeout(() => {
        if (token !== this.pieceToken) return;
        this.watchdog = null;
        this.complete(u, false, 'no-voice');
      }, ms);
      return;
    }
    this.speakPiece(u, 0);
  }

  private speakPiece(u: Utterance, index: number): void {
    if (index >= u.pieces.length) {
      this.complete(u, !u.failed, u.failed);
      return;
    }
    if (u.cut && index > 0) {
      this.complete(u, false, 'yielded');
      return;
    }
    const piece = u.pieces[index];
    const token = ++this.pieceToken;
    let settled = false;
    const settle = (error?: string) => {
      if (settled || token !== this.pieceToken) return; // late callback of a cancelled/timed-out piece
      settled = true;
      this.clearTimers();
      if (error) u.failed = error;
      this.speakPiece(u, index + 1);
    };
    const chars = Array.from(piece).length;
    const limit = ((this.o.msPerChar ?? 250) * chars) / Math.max(0.3, this.opts.rate) + (this.o.graceMs ?? 2000);
    this.watchdog = this.timers.setTimeout(() => {
      this.watchdog = null;
      if (settled || token !== this.pieceToken) return;
      this.o.engine.cancel();
      settle('watchdog');
    }, limit);
    this.startTimer = this.timers.setTimeout(() => {
      this.startTimer = null;
      if (settled || token !== this.pieceToken) return;
      this.o.engine.cancel();
      settle('no-start');
    }, this.o.startTimeoutMs ?? 5000);
    this.emit({ type: 'piece-start', id: u.id, piece });
    try {
      this.o.engine.speak(piece, this.opts, {
        onStart: () => {
          if (token !== this.pieceToken) return;
          if (this.startTimer !== null) {
            this.timers.clearTimeout(this.startTimer);
            this.startTimer = null;
          }
          this.emit({ type: 'piece-playing', id: u.id });
        },
        onEnd: () => settle(),
        onError: (e) => settle(e === 'interrupted' || e === 'canceled' ? 'stopped' : e || 'failed'),
      });
    } catch (err) {
      settle(String((err as Error)?.message ?? err));
    }
  }

  private complete(u: Utterance, completed: boolean, reason?: string): void {
    if (this.current !== u) return;
    this.clearTimers();
    if (this.queue.length === 0) {
      // The last one: not busy any more by the time listeners hear it ended.
      this.current = null;
      this.busy = false;
      this.finish(u, completed, reason);
      if (!this.current && !this.busy) this.emit({ type: 'idle' });
      return;
    }
    this.finish(u, completed, reason);
    this.next();
  }

  private finish(u: Utterance, completed: boolean, reason?: string): void {
    this.emit({ type: 'utterance-end', id: u.id, text: u.text, role: u.role, completed, reason, ...(u.yields ? { yields: true } : {}) });
    u.done(completed ? { completed } : { completed, reason });
  }

  private clearTimers(): void {
    if (this.watchdog !== null) this.timers.clearTimeout(this.watchdog);
    if (this.startTimer !== null) this.timers.clearTimeout(this.startTimer);
    this.watchdog = null;
    this.startTimer = null;
  }

  private emit(e: SpeechEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        /* listeners never break speech */
      }
    }
  }
}
