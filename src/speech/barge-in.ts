/**
 * Barge-in for hands-free mode: while the robot speaks, the voice-activity detector hears the
 * microphone; a voice held for the threshold (src/core/speech/voice-activity.ts) is a child
 * talking over the robot, unless it follows the robot's own playback (the echo guard). It also
 * reports the end of speech, so the loop need not wait for the recognizer's silence timeout.
 * The detector runs only while wanted (hands-free on, the parent's 说话时可以打断, the app in the
 * foreground); otherwise the microphone is let go.
 */
import { DEFAULT_VOICE_ACTIVITY, followsPlayback, VoiceActivityGate, type PlaybackSpan, type VoiceActivityOptions } from '../core/speech/voice-activity.ts';
import type { SpeechProgress } from './types.ts';
import type { VadState, VoiceActivity } from './vad.ts';

/** What 设置 → 现在的状态 says about barge-in. */
export type BargeInStatus = 'unused' | 'loading' | 'on' | 'off' | 'denied' | 'no-mic' | 'no-wasm' | 'load-failed';

export interface BargeInDeps {
  vad: Pick<VoiceActivity, 'onFrame' | 'start' | 'release' | 'onState'>;
  speech: SpeechProgress;
  /** The parent's 说话时可以打断. */
  allowed: () => boolean;
  /** The clock the detector's frames are stamped with. */
  now: () => number;
  options?: VoiceActivityOptions;
  echoLagMs?: number;
}

/** What the voice loop listens to. */
export interface VoiceActivityEvents {
  onBargeIn(fn: () => void): () => void;
  onSpeechEnd(fn: () => void): () => void;
  /** Hands-free is on (the loop's mode and button): the detector runs while this and the rest allow. */
  setWanted(on: boolean): void;
}

const KEEP_SPANS = 24;

export class BargeIn implements VoiceActivityEvents {
  private readonly gate: VoiceActivityGate;
  private readonly spans: PlaybackSpan[] = [];
  private readonly bargeIns = new Set<() => void>();
  private readonly ends = new Set<() => void>();
  private wanted = false;
  private visible = true;
  private running = false;
  /** This voice already stopped the robot, or was judged the robot's echo and is still watched. */
  private fired = false;
  private readonly offs: Array<() => void> = [];
  private vadState: VadState = { state: 'off' };
  private readonly statuses = new Set<(s: BargeInStatus) => void>();
  private lastStatus: BargeInStatus = 'unused';
  /** For tests and the trace: barge-in, echo and end decisions in order. */
  readonly log: string[] = [];

  constructor(private readonly deps: BargeInDeps) {
    this.gate = new VoiceActivityGate(deps.options ?? DEFAULT_VOICE_ACTIVITY);
    this.offs.push(
      deps.speech.subscribe((e) => {
        const t = deps.now();
        if (e.type === 'piece-playing') {
          this.closeSpan(t);
          this.spans.push({ start: t, end: null });
          if (this.spans.length > KEEP_SPANS) this.spans.shift();
        } else if (e.type === 'piece-start' || e.type === 'utterance-end' || e.type === 'idle') {
          this.closeSpan(t);
        }
      }),
      deps.vad.onFrame((f) => this.frame(f)),
      deps.vad.onState((s) => {
        this.vadState = s;
        this.emitStatus();
      }),
    );
  }

  /** Whether barge-in works now, or why not (a failure stays shown while hands-free is on). */
  get status(): BargeInStatus {
    if (!this.wanted || !this.deps.allowed()) return 'unused';
    const v = this.vadState;
    if (v.state === 'failed') return v.cause;
    return v.state === 'on' ? 'on' : v.state === 'loading' ? 'loading' : 'off';
  }

  onStatus(fn: (s: BargeInStatus) => void): () => void {
    this.statuses.add(fn);
    fn(this.status);
    return () => this.statuses.delete(fn);
  }

  private emitStatus(): void {
    const s = this.status;
    if (s === this.lastStatus) return;
    this.lastStatus = s;
    for (const fn of this.statuses) fn(s);
  }

  onBargeIn(fn: () => void): () => void {
    this.bargeIns.add(fn);
    return () => this.bargeIns.delete(fn);
  }

  onSpeechEnd(fn: () => void): () => void {
    this.ends.add(fn);
    return () => this.ends.delete(fn);
  }

  setWanted(on: boolean): void {
    this.wanted = on;
    this.apply();
  }

  /** The page went to the background (false) or came back (true). */
  setVisible(on: boolean): void {
    this.visible = on;
    this.apply();
  }

  /** The parent changed 说话时可以打断. */
  refresh(): void {
    this.apply();
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.wanted = false;
    this.apply();
  }

  private apply(): void {
    const run = this.wanted && this.visible && this.deps.allowed();
    this.emitStatus();
    if (run === this.running) return;
    this.running = run;
    this.gate.reset();
    this.fired = false;
    if (run) void this.deps.vad.start();
    else this.deps.vad.release();
  }

  private closeSpan(t: number): void {
    const last = this.spans[this.spans.length - 1];
    if (last && last.end === null) last.end = t;
  }

  /** Frames the detector has heard while running (it really ran on the microphone's audio). */
  framesHeard = 0;
  /** When each barge-in's voice began against the robot's last piece (the trace, the bench). */
  readonly detail: string[] = [];

  private frame(f: { t: number; prob: number }): void {
    if (!this.running) return;
    this.framesHeard++;
    const e = this.gate.feed(f);
    if (e?.type === 'speech-end') {
      this.log.push('speech-end');
      this.fired = false;
      for (const fn of this.ends) fn();
      return;
    }
    if (e?.type === 'misfire') {
      this.fired = false;
      return;
    }
    // Only while a piece is audible: between the queue taking a line and the engine starting it,
    // or between pieces, there is nothing to talk over yet (the next piece's start is checked).
    const last = this.spans[this.spans.length - 1];
    if (!this.gate.inSpeech || this.fired || !this.deps.speech.busy || !last || last.end !== null) return;
    // Speech while the robot speaks: the child, unless the voice follows the robot's playback.
    const onset = this.gate.voiceOnset!;
    if (followsPlayback(onset, this.gate.voicedTimes, this.spans, this.deps.echoLagMs)) {
      if (e?.type === 'speech-start') this.log.push('echo');
      return;
    }
    this.fired = true;
    const span = this.spans[this.spans.length - 1];
    this.log.push('barge-in');
    this.detail.push(`onset ${Math.round(onset)} at ${Math.round(f.t)}; last piece ${span ? `${Math.round(span.start)}–${span.end === null ? 'now' : Math.round(span.end)}` : 'none'}`);
    for (const fn of this.bargeIns) fn();
  }
}
