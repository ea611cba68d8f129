/**
 * The voice loop: when the microphone listens. Half-duplex (research hw-speech §4 "Echo"): the mic
 * is stopped while the robot speaks and while a round is being handled, and starts again
 * `resumeDelayMs` after the speech queue drains — so the robot never hears itself. Two modes:
 * hands-free (listen whenever allowed) and push-to-talk (listen once per tap; the default for small
 * children and noisy rooms). Whatever is heard — or typed — goes to `onInput` as one round.
 *
 * Barge-in (hands-free with a voice-activity detector): a child talking over the robot stops the
 * speech at once, exactly as a tap does, and recognition starts at once; words that match what the
 * robot was saying then are its own echo and are dropped. When the detector hears the child stop,
 * the recognizer is asked to finish (its final result then comes at once, instead of after its own
 * silence timeout); the round waits for that final result, so no tool ever judges interim words.
 */
import { isEcho } from '../core/arcade/intents.ts';
import { isSubtitleEcho } from '../core/speech/echo.ts';
import type { VoiceActivityEvents } from './barge-in.ts';
import { realTimers, type SpeechProgress, type Timers } from './types.ts';

export interface MicLike {
  start(): void;
  stop(): void;
  onFinal(fn: (text: string) => void): () => void;
  /** The mic's status (the recognizer's): a failure to listen ends this listening (the button returns to idle). */
  onStatus?(fn: (s: string) => void): () => void;
  /** Interim words of the utterance being heard (the recognizer's guess so far). */
  onInterim?(fn: (text: string) => void): () => void;
  /** The speaker stopped: deliver the final result now (or the last interim words if none comes). */
  finish?(): void;
}

/** Statuses in which the mic cannot listen (src/speech/recognizer.ts MicStatus). */
const MIC_FAILED = new Set(['denied', 'no-mic', 'unsupported', 'network', 'error']);

export type MicMode = 'push-to-talk' | 'hands-free';

/** What the mic button shows: 在听 / 在想 / 在说 / idle (tap to talk). */
export type LoopState = 'idle' | 'listening' | 'thinking' | 'speaking';

export interface VoiceLoopDeps {
  mic: MicLike;
  speech: SpeechProgress;
  /** Handles one round; resolves when the round is over (the main agent's `handle`). */
  onInput: (text: string, via: 'voice' | 'text') => Promise<unknown>;
  timers?: Timers;
  resumeDelayMs?: number;
  mode?: MicMode;
  /** The last sentence the robot spoke (echo filter). */
  lastSpoken?: () => string | null;
  /** Barge-in and end of speech from the voice-activity detector (hands-free only). */
  activity?: VoiceActivityEvents;
  /** Stops the robot's speech exactly as a tap does (the unspoken rest is dropped). */
  stopSpeaking?: () => void;
  /** What the robot is saying now (its subtitle), for the echo guard after a barge-in. */
  subtitle?: () => string | null;
  /** How long the mic waits for words after a barge-in before turn-taking is as usual again. */
  bargeInWaitMs?: number;
}

export class VoiceLoop {
  mode: MicMode;
  private rounds = 0;
  /** A child talked over the robot: listen now, whatever else is going on, until the words come. */
  private bargedIn = false;
  private bargeSubtitle: string | null = null;
  private bargeTimer: unknown = null;
  private interim = '';
  private speaking = false;
  private resumeTimer: unknown = null;
  private armed = false;
  private enabled = false;
  private micOn = false;
  private readonly listeners = new Set<(s: LoopState) => void>();
  private readonly timers: Timers;
  private lastState: LoopState = 'idle';
  private closed = false;
  private readonly offs: Array<() => void> = [];
  /** Order of mic on/off and speech events, for tests and the trace. */
  readonly log: string[] = [];

  constructor(private readonly deps: VoiceLoopDeps) {
    this.mode = deps.mode ?? 'push-to-talk';
    this.timers = deps.timers ?? realTimers;
    this.offs.push(deps.mic.onFinal((text) => this.heard(text)));
    // Recognition failed (offline, no permission): the button shows 在听 no longer; a tap tries again.
    const offStatus = deps.mic.onStatus?.((s) => {
      if (!MIC_FAILED.has(s) || !this.micOn) return;
      this.micOn = false;
      this.armed = false;
      this.enabled = false;
      this.log.push(`mic-failed:${s}`);
      this.update();
    });
    if (offStatus) this.offs.push(offStatus);
    if (deps.mic.onInterim) this.offs.push(deps.mic.onInterim((text) => (this.interim = text)));
    if (deps.activity) {
      this.offs.push(deps.activity.onBargeIn(() => this.bargeIn()));
      this.offs.push(deps.activity.onSpeechEnd(() => this.speechEnded()));
    }
    this.offs.push(deps.speech.subscribe((e) => {
      if (e.type === 'speaking') {
        if (this.bargedIn) {
          // The rest of the reply the child talked over (sentences still arriving): dropped too.
          this.log.push('dropped-after-barge-in');
          queueMicrotask(() => this.deps.stopSpeaking?.());
        }
        this.speaking = true;
        this.log.push('speaking');
        this.cancelResume();
        this.update();
      } else if (e.type === 'idle') {
        this.speaking = false;
        this.log.push('drained');
        this.cancelResume();
        this.resumeTimer = this.timers.setTimeout(() => {
          this.resumeTimer = null;
          this.update();
        }, deps.resumeDelayMs ?? 400);
        this.update();
      }
    }));
  }

  /** Closes the loop for good: the mic is stopped, and the mic, the speech queue and the listeners are let go. */
  dispose(): void {
    this.closed = true;
    this.deps.activity?.setWanted(false);
    for (const off of this.offs.splice(0)) off();
    this.cancelResume();
    this.clearBarge();
    this.update();
    this.listeners.clear();
  }

  onState(fn: (s: LoopState) => void): () => void {
    this.listeners.add(fn);
    fn(this.state);
    return () => this.listeners.delete(fn);
  }

  private get roundActive(): boolean {
    return this.rounds > 0;
  }

  get state(): LoopState {
    if (this.bargedIn && this.micOn) return 'listening';
    if (this.speaking) return 'speaking';
    if (this.roundActive) return 'thinking';
    if (this.micOn) return 'listening';
    return 'idle';
  }

  setMode(mode: MicMode): void {
    this.mode = mode;
    this.armed = false;
    this.bargedIn = false;
    this.update();
  }

  /** Hands-free: turn listening on or off as a whole (the mic button). */
  setEnabled(on: boolean): void {
    this.enabled = on;
    if (!on) this.bargedIn = false;
    this.update();
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Push-to-talk: listen for one utterance (as soon as the robot is quiet). Tapping again cancels. */
  pushToTalk(): void {
    this.armed = !(this.micOn && this.armed);
    this.update();
  }

  /** Typed words: the same round as heard words (the mic stays off meanwhile). */
  submit(text: string): Promise<unknown> {
    return this.round(text, 'text');
  }

  private get handsFreeOn(): boolean {
    return !this.closed && this.mode === 'hands-free' && this.enabled;
  }

  /** The detector heard a child talk over the robot. */
  private bargeIn(): void {
    if (!this.handsFreeOn || !this.speaking) return;
    this.log.push('barge-in');
    this.bargeSubtitle = this.deps.subtitle?.() ?? null;
    this.bargedIn = true;
    this.interim = '';
    // No words at all after the barge-in (a cough, a slammed door): back to the usual turn-taking.
    this.clearBarge();
    this.bargeTimer = this.timers.setTimeout(() => {
      this.bargeTimer = null;
      this.bargedIn = false;
      this.log.push('barge-in-expired');
      this.update();
    }, this.deps.bargeInWaitMs ?? 8000);
    this.deps.stopSpeaking?.();
    this.update();
  }

  /** The detector heard the child stop: the words so far are the utterance. */
  private speechEnded(): void {
    if (!this.micOn || !this.handsFreeOn || !this.interim) return;
    this.log.push(`speech-end:${this.interim}`);
    this.deps.mic.finish?.();
  }

  private heard(text: string): void {
    if (!this.micOn) return; // a late result after we stopped listening
    this.interim = '';
    if (this.bargedIn && isSubtitleEcho(text, this.bargeSubtitle)) {
      this.log.push(`echo:${text}`);
      return;
    }
    if (isEcho(text, this.deps.lastSpoken?.() ?? null)) {
      this.log.push(`echo:${text}`);
      return;
    }
    this.bargedIn = false;
    this.bargeSubtitle = null;
    this.clearBarge();
    // Nobody awaits a heard round: a failure is logged here instead of becoming an unhandled rejection.
    this.round(text, 'voice').catch((e: unknown) => {
      this.log.push(`round-failed:${e instanceof Error ? e.message : String(e)}`);
      console.error('voice round failed', e);
    });
  }

  private async round(text: string, via: 'voice' | 'text'): Promise<unknown> {
    this.log.push(`round:${text}`);
    this.rounds++;
    this.armed = false;
    if (via === 'text') this.bargedIn = false;
    this.update();
    try {
      return await this.deps.onInput(text, via);
    } finally {
      this.rounds--;
      this.log.push('round-over');
      this.update();
    }
  }

  private clearBarge(): void {
    if (this.bargeTimer !== null) this.timers.clearTimeout(this.bargeTimer);
    this.bargeTimer = null;
  }

  private cancelResume(): void {
    if (this.resumeTimer !== null) this.timers.clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }

  private get wanted(): boolean {
    if (this.bargedIn && this.handsFreeOn) return true;
    if (this.closed || this.roundActive || this.speaking || this.resumeTimer !== null) return false;
    return this.mode === 'hands-free' ? this.enabled : this.armed;
  }

  private update(): void {
    this.deps.activity?.setWanted(this.handsFreeOn);
    const want = this.wanted;
    if (want && !this.micOn) {
      this.micOn = true;
      this.log.push('mic-on');
      this.deps.mic.start();
    } else if (!want && this.micOn) {
      this.micOn = false;
      this.interim = '';
      this.log.push('mic-off');
      this.deps.mic.stop();
    }
    const s = this.state;
    if (s !== this.lastState) {
      this.lastState = s;
      for (const fn of this.listeners) fn(s);
    }
  }
}
