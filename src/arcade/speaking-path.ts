/**
 * The one speaking path: every line the robot says — the main agent's own words, a game's replies,
 * the robot's notices ("机器人断开了…"), the line after a reload, a voice preview in the settings —
 * goes through `say` here, and only here reaches the speaking queue (TTS and the subtitle). Each
 * line is checked (a line that cannot be spoken is dropped with a trace record), passes the
 * child-safety check (./safety-screen.ts: a blocked sentence becomes one gentle redirect per reply,
 * recorded for the parent), is recorded in the trace as spoken, and remembered for "再说一遍".
 */
import type { Speaker, SpeakerRole, SpokenOutcome } from '../core/arcade/types.ts';
import { nullTrace, recordSafely, type TraceEvent, type TraceSink } from '../core/trace/types.ts';
import { SafetyScreen } from './safety-screen.ts';
import { plainSpeech } from '../core/text/plain-speech.ts';

export interface SpeakOptions {
  roundId?: string;
  /** The game request a game's reply belongs to (its speech is filed under that request). */
  requestId?: string;
  gameId?: string;
  /**
   * A filler ("嗯，让我想想") or an aside ("好的，我大声一点"): spoken, but not what "再说一遍"
   * repeats afterwards.
   */
  aside?: boolean;
  /** A waiting line: it yields to a real sentence and is not the answer (Speaker's SayOptions.yields). */
  yields?: boolean;
  /** The line is a game's last: its session ends with it (a redirect then promises no 「接着玩」). */
  sessionEnds?: boolean;
  /** The line is the final reply of its game request (the turn's next question, score or goodbye). */
  final?: boolean;
}

export interface SpokenLine {
  text: string;
  role: SpeakerRole;
  gameId?: string;
}

export type SpeakingEvent =
  | { type: 'speaking'; count: number }
  /** A line was handed over to be said (it may still wait behind others in the queue). */
  | { type: 'line'; role: SpeakerRole; text: string; roundId?: string; aside: boolean }
  | { type: 'spoken'; role: SpeakerRole; text: string; gameId?: string; completed: boolean };

export class SpeakingPath {
  private speakingNow = 0;
  private last: SpokenLine | null = null;
  /** The round the last answer was spoken in: its sentences make one answer for "再说一遍". */
  private lastRound: string | undefined;
  private readonly listeners = new Set<(e: SpeakingEvent) => void>();
  private readonly trace: TraceSink;
  private readonly now: () => number;
  private readonly safety = new SafetyScreen();

  constructor(private readonly deps: { speaker: Speaker; trace?: TraceSink; now?: () => number }) {
    this.trace = deps.trace ?? nullTrace;
    this.now = deps.now ?? Date.now;
  }

  /** Lines being spoken or waiting in the queue. */
  get speaking(): number {
    return this.speakingNow;
  }

  /** The last answer that "再说一遍" would repeat: every sentence of it (replies arrive sentence by sentence). */
  get lastSpoken(): SpokenLine | null {
    return this.last;
  }

  subscribe(fn: (e: SpeakingEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Says one line; resolves once it has settled (spoken, interrupted or failed) — never hangs. */
  async say(text: string, role: SpeakerRole, opts: SpeakOptions = {}): Promise<SpokenOutcome> {
    // Plain text only: markup and control characters never reach speech or the subtitle.
    const asked = plainSpeech(String(text ?? ''));
    if (!asked) {
      this.record({ kind: 'error', roundId: opts.roundId, requestId: opts.requestId, name: 'unspeakable', data: { role, text } });
      return { completed: false, reason: 'empty' };
    }
    // The child-safety check, before the subtitle and TTS.
    const screened = await this.safety.screen(asked, role, opts);
    if (screened.kind !== 'ok')
      this.record({ kind: 'safety', roundId: opts.roundId, requestId: opts.requestId, name: screened.kind, data: { ...screened.finding, role, gameId: opts.gameId, original: asked, said: screened.kind === 'blocked' ? screened.say : '' } });
    if (screened.kind === 'suppressed') return { completed: false, reason: 'blocked', said: '' };
    const line = screened.kind === 'blocked' ? screened.say : asked;
    const started = this.now();
    this.speakingNow++;
    this.emit({ type: 'line', role, text: line, roundId: opts.roundId, aside: !!opts.aside });
    this.emit({ type: 'speaking', count: this.speakingNow });
    let outcome: SpokenOutcome;
    try {
      outcome = await this.deps.speaker.say(line, role, opts.yields ? { yields: true } : undefined);
    } catch (err) {
      outcome = { completed: false, reason: String((err as Error)?.message ?? err) };
    } finally {
      this.speakingNow--;
    }
    if (!opts.aside) {
      const same = this.last && opts.roundId !== undefined && opts.roundId === this.lastRound && this.last.role === role && this.last.gameId === opts.gameId;
      this.last = same ? { ...this.last!, text: this.last!.text + line } : { text: line, role, gameId: opts.gameId };
      this.lastRound = opts.roundId;
    }
    // Timed from the request to speak (queue wait included).
    this.record({ kind: 'speech', roundId: opts.roundId, requestId: opts.requestId, at: started, durationMs: this.now() - started, name: 'spoken', data: { role, text: line, ...outcome } });
    this.emit({ type: 'spoken', role, text: line, gameId: opts.gameId, completed: outcome.completed });
    this.emit({ type: 'speaking', count: this.speakingNow });
    return screened.kind === 'blocked' ? { ...outcome, said: line } : outcome;
  }

  /** Stop talking now and drop everything queued (tap anywhere, "停"). */
  stop(): void {
    this.deps.speaker.stop();
  }

  private record(e: Omit<TraceEvent, 'at' | 'source'> & { at?: number }): void {
    recordSafely(this.trace, { source: 'main', at: this.now(), ...e });
  }

  private emit(e: SpeakingEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A broken listener does not break speaking.
      }
    }
  }
}
