/**
 * Voice activity over the voice-activity model's frames (Silero VAD: one speech probability per
 * 32 ms frame), as plain code so the app and bench/voice decide alike:
 * - `VoiceActivityGate` turns frames into `speech-start` (voice held for `minSpeechMs`) and
 *   `speech-end` (quiet for `redemptionMs` after a start);
 * - `followsPlayback` is the echo guard on a trigger: a voice that began when one of the robot's
 *   pieces began and was never heard while the robot was quiet is the robot itself (its speaker
 *   leaking past echo cancellation), not a child talking over it.
 */

export interface VadFrame {
  /** When the frame ended (ms, any monotonic clock shared with the playback times). */
  t: number;
  /** The model's speech probability, 0..1. */
  prob: number;
}

export interface VoiceActivityOptions {
  /** A frame at or above this starts (or keeps) a voice. */
  positive: number;
  /** A frame below this counts as quiet. Between the two, a voice goes on but none starts. */
  negative: number;
  /** How long a voice must last before it counts as speech (barge-in threshold). */
  minSpeechMs: number;
  /** How long a voice must be quiet before its speech has ended. */
  redemptionMs: number;
  /** Length of one frame (Silero v5: 512 samples at 16 kHz). */
  frameMs: number;
}

/**
 * The settings in use. `redemptionMs` is 11 frames: on the test recordings (bench/voice) Silero's
 * probability falls below `negative` within a frame of the voice stopping, so a pause inside a
 * sentence is seen as about as long as it is; a 300 ms pause (「我猜……五十」) is kept inside the
 * utterance, a pause of about 0.38 s or more ends it. The previous 400 ms kept pauses up to about
 * 0.43 s and ended speech about 50 ms later.
 */
export const DEFAULT_VOICE_ACTIVITY: VoiceActivityOptions = { positive: 0.5, negative: 0.35, minSpeechMs: 160, redemptionMs: 352, frameMs: 32 };

/** The settings before `redemptionMs` was chosen on the recordings (bench/voice prints both side by side). */
export const PREVIOUS_VOICE_ACTIVITY: VoiceActivityOptions = { ...DEFAULT_VOICE_ACTIVITY, redemptionMs: 400 };

export type VoiceActivityEvent =
  | { type: 'speech-start'; /** when the voice began */ onset: number; at: number }
  | { type: 'speech-end'; onset: number; at: number }
  | { type: 'misfire'; onset: number; at: number };

/** One voice at a time: onset, then start once it is long enough, then end after a quiet spell. */
export class VoiceActivityGate {
  private onset: number | null = null;
  private voicedMs = 0;
  private quietSince: number | null = null;
  private started = false;
  /** Every frame of the current voice that was at or above `positive` (for the echo guard). */
  readonly voicedTimes: number[] = [];

  constructor(private readonly o: VoiceActivityOptions = DEFAULT_VOICE_ACTIVITY) {}

  get inSpeech(): boolean {
    return this.started;
  }

  get voiceOnset(): number | null {
    return this.onset;
  }

  reset(): void {
    this.onset = null;
    this.voicedMs = 0;
    this.quietSince = null;
    this.started = false;
    this.voicedTimes.length = 0;
  }

  feed(f: VadFrame): VoiceActivityEvent | null {
    const { positive, negative, minSpeechMs, redemptionMs, frameMs } = this.o;
    if (this.onset === null) {
      if (f.prob < positive) return null;
      this.onset = f.t - frameMs;
      this.voicedMs = frameMs;
      this.quietSince = null;
      this.voicedTimes.length = 0;
      this.voicedTimes.push(f.t);
    } else if (f.prob >= negative) {
      this.voicedMs += frameMs;
      this.quietSince = null;
      if (f.prob >= positive) this.voicedTimes.push(f.t);
    } else {
      this.quietSince ??= f.t - frameMs;
      // Before the start, a short voice that stops is not speech; after it, speech ends after the quiet spell.
      const quiet = f.t - this.quietSince;
      const limit = this.started ? redemptionMs : Math.min(redemptionMs, minSpeechMs);
      if (quiet >= limit) {
        const onset = this.onset;
        const wasStarted = this.started;
        this.reset();
        return { type: wasStarted ? 'speech-end' : 'misfire', onset, at: f.t };
      }
      return null;
    }
    if (!this.started && this.voicedMs >= minSpeechMs) {
      this.started = true;
      return { type: 'speech-start', onset: this.onset, at: f.t };
    }
    return null;
  }
}

/** One stretch of the robot's playback (a spoken piece), `end` null while it plays. */
export interface PlaybackSpan {
  start: number;
  end: number | null;
}

/**
 * Whether a voice heard on the microphone follows the robot's playback: it began within `lagMs`
 * after a piece began, and every voiced frame of it fell inside playback (each span widened by
 * `lagMs` at its end for the room's echo tail). A child who talks over the robot either begins
 * mid-piece or goes on when the robot pauses, so this never holds for them for long; a child who
 * begins at the exact moment a piece begins is heard once the robot next pauses.
 */
export function followsPlayback(onset: number, voicedTimes: readonly number[], playback: readonly PlaybackSpan[], lagMs = 300): boolean {
  // Playback events and microphone frames are stamped by different parts of the browser (and a
  // busy page runs timers late): a frame may seem up to two thirds of the lag early.
  const early = (lagMs * 2) / 3;
  const began = playback.some((p) => onset >= p.start - early && onset <= p.start + lagMs);
  if (!began) return false;
  const inside = (t: number) => playback.some((p) => t >= p.start - early && (p.end === null || t <= p.end + lagMs));
  return voicedTimes.every(inside);
}
