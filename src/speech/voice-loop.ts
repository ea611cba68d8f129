/**
 * The voice loop: when the microphone listens. Half-duplex (research hw-speech §4 "Echo"): the mic
 * is stopped while the robot speaks and while a round is being handled, and starts again
 * `resumeDelayMs` after the speech queue drains — so the robot never hears itself. Two modes:
 * hands-free (listen whenever allowed) and push-to-talk (listen once per tap; the default for small
 * children and noisy rooms). Whatever is heard — or typed — goes to `onInput` as one round.
 */
import { isEcho } from '../core/arcade/intents.ts';
import { realTimers, type SpeechProgress, type Timers } from './types.ts';

export interface MicLike {
  start(): void;
  stop(): void;
  onFinal(fn: (text: string) => void): () => void;
  /** The mic's status (the recognizer's): a failure to listen ends this listening (the button returns to idle). */
  onStatus?(fn: (s: string) => void): () => void;
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
}

export class VoiceLoop {
  mode: MicMode;
  private roundActive = false;
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
    this.offs.push(deps.speech.subscribe((e) => {
      if (e.type === 'speaking') {
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
    for (const off of this.offs.splice(0)) off();
    this.cancelResume();
    this.update();
    this.listeners.clear();
  }

  onState(fn: (s: LoopState) => void): () => void {
    this.listeners.add(fn);
    fn(this.state);
    return () => this.listeners.delete(fn);
  }

  get state(): LoopState {
    if (this.speaking) return 'speaking';
    if (this.roundActive) return 'thinking';
    if (this.micOn) return 'listening';
    return 'idle';
  }

  setMode(mode: MicMode): void {
    this.mode = mode;
    this.armed = false;
    this.update();
  }

  /** Hands-free: turn listening on or off as a whole (the mic button). */
  setEnabled(on: boolean): void {
    this.enabled = on;
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

  private heard(text: string): void {
    if (!this.micOn) return; // a late result after we stopped listening
    if (isEcho(text, this.deps.lastSpoken?.() ?? null)) {
      this.log.push(`echo:${text}`);
      return;
    }
    // Nobody awaits a heard round: a failure is logged here instead of becoming an unhandled rejection.
    this.round(text, 'voice').catch((e: unknown) => {
      this.log.push(`round-failed:${e instanceof Error ? e.message : String(e)}`);
      console.error('voice round failed', e);
    });
  }

  private async round(text: string, via: 'voice' | 'text'): Promise<unknown> {
    this.log.push(`round:${text}`);
    this.roundActive = true;
    this.armed = false;
    this.update();
    try {
      return await this.deps.onInput(text, via);
    } finally {
      this.roundActive = false;
      this.log.push('round-over');
      this.update();
    }
  }

  private cancelResume(): void {
    if (this.resumeTimer !== null) this.timers.clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }

  private get wanted(): boolean {
    if (this.closed || this.roundActive || this.speaking || this.resumeTimer !== null) return false;
    return this.mode === 'hands-free' ? this.enabled : this.armed;
  }

  private update(): void {
    const want = this.wanted;
    if (want && !this.micOn) {
      this.micOn = true;
      this.log.push('mic-on');
      this.deps.mic.start();
    } else if (!want && this.micOn) {
      this.micOn = false;
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
