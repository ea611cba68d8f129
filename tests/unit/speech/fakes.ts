import type { PieceCallbacks, SynthEngine, SynthOptions } from '../../../src/speech/types.ts';
import type { RecognitionLike, RecognitionResultLike } from '../../../src/speech/recognizer.ts';

/** A synth whose pieces are finished by the test (or never: to exercise the watchdog). */
export class FakeSynth implements SynthEngine {
  readonly pieces: string[] = [];
  readonly opts: SynthOptions[] = [];
  cancels = 0;
  cb: PieceCallbacks | null = null;
  /** 'manual' | 'end' (ends after start at once) | 'fail' (synthesis-failed) | 'silent' (never answers) */
  behaviour: 'manual' | 'end' | 'fail' | 'silent' = 'manual';
  speak(piece: string, opts: SynthOptions, cb: PieceCallbacks): void {
    this.pieces.push(piece);
    this.opts.push(opts);
    this.cb = cb;
    if (this.behaviour === 'end') queueMicrotask(() => (cb.onStart(), cb.onEnd()));
    if (this.behaviour === 'fail') queueMicrotask(() => cb.onError('synthesis-failed'));
  }
  cancel(): void {
    this.cancels++;
  }
  start(): void {
    this.cb?.onStart();
  }
  end(): void {
    this.cb?.onEnd();
  }
}

/** A fake SpeechRecognition: the test fires results, silence (end) and errors. */
export class FakeRecognition implements RecognitionLike {
  static instances: FakeRecognition[] = [];
  static availability = 'unavailable';
  static async available(): Promise<string> {
    return FakeRecognition.availability;
  }
  continuous = false;
  interimResults = true;
  lang = '';
  maxAlternatives = 0;
  processLocally?: boolean;
  onstart: ((ev: Event) => unknown) | null = null;
  onend: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: { error: string }) => unknown) | null = null;
  onresult: ((ev: { resultIndex: number; results: ArrayLike<RecognitionResultLike> }) => unknown) | null = null;
  started = false;
  startedWith: MediaStreamTrack | undefined;
  aborted = false;
  constructor() {
    FakeRecognition.instances.push(this);
  }
  start(track?: MediaStreamTrack): void {
    if (this.started) {
      const e = new Error('already started');
      e.name = 'InvalidStateError';
      throw e;
    }
    this.started = true;
    this.startedWith = track;
    queueMicrotask(() => this.onstart?.(new Event('start')));
  }
  stop(): void {
    this.end();
  }
  abort(): void {
    this.aborted = true;
    queueMicrotask(() => this.end());
  }
  say(text: string, isFinal = true): void {
    const result = Object.assign([{ transcript: text }], { isFinal }) as unknown as RecognitionResultLike;
    this.onresult?.({ resultIndex: 0, results: [result] });
  }
  silence(): void {
    this.onerror?.({ error: 'no-speech' });
    this.end();
  }
  fail(error: string): void {
    this.onerror?.({ error });
    this.end();
  }
  private ended = false;
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onend?.(new Event('end'));
  }
}
