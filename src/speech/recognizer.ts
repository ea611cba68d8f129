/**
 * Speech recognition through Web Speech (zh-CN), research hw-speech §4: on-device
 * (`processLocally`) when `SpeechRecognition.available` says so, the normal service otherwise;
 * final results only; restarted in `onend` (never before: InvalidStateError) while wanted, with a
 * back-off when sessions end at once; a chosen microphone track via `start(track)` where supported.
 */
import { realTimers, type Timers } from './types.ts';

export interface RecognitionResultLike {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: { transcript: string };
}

export interface RecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  maxAlternatives: number;
  processLocally?: boolean;
  onstart: ((ev: Event) => unknown) | null;
  onend: ((ev: Event) => unknown) | null;
  onerror: ((ev: { error: string; message?: string }) => unknown) | null;
  onresult: ((ev: { resultIndex: number; results: ArrayLike<RecognitionResultLike> }) => unknown) | null;
  start(track?: MediaStreamTrack): void;
  stop(): void;
  abort(): void;
}

export interface RecognitionCtor {
  new (): RecognitionLike;
  available?(o: { langs: string[]; processLocally: boolean }): Promise<string>;
  install?(o: { langs: string[]; processLocally?: boolean }): Promise<boolean>;
}

/** What the UI shows about the microphone. */
export type MicStatus = 'off' | 'starting' | 'listening' | 'denied' | 'no-mic' | 'unsupported' | 'network' | 'error';

/** Where recognition runs: in the browser on the device, or the browser vendor's service (needs network). */
export type AsrMode = 'on-device' | 'service';

/** Which microphone is heard: the chosen device (robot / USB headset) or the tablet's default one. */
export type MicSource = 'chosen' | 'default';

export interface RecognizerDeps {
  ctor: RecognitionCtor | null;
  lang?: string;
  timers?: Timers;
  now?: () => number;
  /** The chosen input's track (robot/USB mic), or null for the default microphone. */
  getTrack?: () => Promise<MediaStreamTrack | null>;
  /**
   * Whether `start(track)` is honoured. Extra arguments are silently ignored by older browsers, so
   * this cannot be detected by calling it; see `supportsStartTrack`.
   */
  supportsTrack?: boolean;
  restartDelayMs?: number;
}

const FATAL: Record<string, MicStatus> = {
  'not-allowed': 'denied',
  'service-not-allowed': 'denied',
  'audio-capture': 'no-mic',
  network: 'network',
  'language-not-supported': 'error',
  'bad-grammar': 'error',
};

/** Back-off for sessions that end at once (e.g. Android's beep-and-stop): 250 ms, doubling to 4 s. */
const QUICK_SESSION_MS = 1000;
const MAX_DELAY_MS = 4000;

/**
 * Where listening happens, for the status line: on this device (works offline), on the browser's
 * service (needs the network: Chrome's recognition sends the audio to a server unless an on-device
 * language pack is installed), or nowhere (no recognition in this browser).
 */
export type ListeningPlace = 'on-device' | 'network' | 'none';

export class Recognizer {
  status: MicStatus;
  private modeNow: AsrMode = 'service';
  source: MicSource = 'default';
  private wanted = false;
  private running: RecognitionLike | null = null;
  private launching = false;
  private startedAt = 0;
  private delay: number;
  private restartTimer: unknown = null;
  private readonly finals = new Set<(text: string) => void>();
  private readonly interims = new Set<(text: string) => void>();
  /** The interim words of the utterance being heard ('' once its final result came). */
  private pending = '';
  private finishing = false;
  private readonly statuses = new Set<(s: MicStatus) => void>();
  private readonly places = new Set<(p: ListeningPlace) => void>();
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly lang: string;

  constructor(private readonly deps: RecognizerDeps) {
    this.status = deps.ctor ? 'off' : 'unsupported';
    this.timers = deps.timers ?? realTimers;
    this.now = deps.now ?? (() => Date.now());
    this.lang = deps.lang ?? 'zh-CN';
    this.delay = deps.restartDelayMs ?? 250;
  }

  get supported(): boolean {
    return this.deps.ctor !== null;
  }

  /** On-device recognition when the browser has the language pack installed, else the browser's service. */
  get mode(): AsrMode {
    return this.modeNow;
  }

  private set mode(m: AsrMode) {
    if (this.modeNow === m) return;
    this.modeNow = m;
    for (const fn of this.places) fn(this.place);
  }

  get place(): ListeningPlace {
    return !this.supported ? 'none' : this.modeNow === 'on-device' ? 'on-device' : 'network';
  }

  /** Called now and whenever the place changes (the availability check finished, a fallback, an install). */
  onPlace(fn: (p: ListeningPlace) => void): () => void {
    this.places.add(fn);
    fn(this.place);
    return () => this.places.delete(fn);
  }

  /** Chooses on-device recognition when the browser has the language pack installed. */
  async init(): Promise<AsrMode> {
    const ctor = this.deps.ctor;
    if (ctor?.available) {
      try {
        const a = await ctor.available({ langs: [this.lang], processLocally: true });
        this.mode = a === 'available' ? 'on-device' : 'service';
      } catch {
        this.mode = 'service';
      }
    }
    return this.mode;
  }

  /** Where on-device recognition can be downloaded, a parent may install it (settings). */
  async installOnDevice(): Promise<boolean> {
    const ok = (await this.deps.ctor?.install?.({ langs: [this.lang], processLocally: true })) ?? false;
    if (ok) this.mode = 'on-device';
    return ok;
  }

  onFinal(fn: (text: string) => void): () => void {
    this.finals.add(fn);
    return () => this.finals.delete(fn);
  }

  /** Interim words as they are heard (the recognizer's guess so far; never a round by itself). */
  onInterim(fn: (text: string) => void): () => void {
    this.interims.add(fn);
    return () => this.interims.delete(fn);
  }

  /**
   * The speaker has stopped (the voice-activity detector says so): ask the session to finish now,
   * which makes the browser deliver the final result at once instead of after its silence
   * timeout. If the session ends with no final result, the last interim words are the final one.
   */
  finish(): void {
    if (!this.running || !this.pending) return;
    this.finishing = true;
    this.running.stop();
  }

  private emitFinal(text: string): void {
    this.pending = '';
    this.delay = this.deps.restartDelayMs ?? 250;
    for (const fn of this.finals) fn(text);
  }

  onStatus(fn: (s: MicStatus) => void): () => void {
    this.statuses.add(fn);
    fn(this.status);
    return () => this.statuses.delete(fn);
  }

  get listening(): boolean {
    return this.wanted;
  }

  /** Keep listening (restarting after silence) until stop(). */
  start(): void {
    if (!this.deps.ctor) return;
    if (this.status === 'denied' || this.status === 'no-mic' || this.status === 'network' || this.status === 'error') this.setStatus('off');
    this.wanted = true;
    if (!this.running && !this.launching && this.restartTimer === null) void this.launch();
  }

  /** Stop listening now (half-duplex: the robot is about to speak). Anything half-heard is dropped. */
  stop(): void {
    this.wanted = false;
    if (this.restartTimer !== null) {
      this.timers.clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    this.pending = '';
    this.finishing = false;
    if (this.running) this.running.abort();
    else if (!this.launching && this.isActiveStatus()) this.setStatus('off');
  }

  private isActiveStatus(): boolean {
    return this.status === 'listening' || this.status === 'starting';
  }

  private async launch(): Promise<void> {
    const ctor = this.deps.ctor!;
    this.launching = true;
    let track: MediaStreamTrack | null;
    try {
      track = this.deps.supportsTrack ? ((await this.deps.getTrack?.()) ?? null) : null;
    } catch {
      track = null;
    }
    this.launching = false;
    if (!this.wanted || this.running) return;
    const rec = new ctor();
    rec.lang = this.lang;
    rec.continuous = true;
    rec.interimResults = true;
    rec.maxAlternatives = 1;
    if (this.mode === 'on-device') rec.processLocally = true;
    rec.onstart = () => {
      if (this.running === rec) this.setStatus('listening');
    };
    rec.onresult = (ev) => {
      if (this.running === rec && this.wanted) this.heard(ev);
    };
    rec.onerror = (ev) => {
      if (this.running === rec) this.failed(ev.error);
    };
    rec.onend = () => {
      if (this.running === rec) this.ended();
    };
    this.running = rec;
    this.startedAt = this.now();
    this.setStatus('starting');
    this.begin(rec, track);
  }

  /** The session's results: final words go out at once, interim ones are kept (and shown). */
  private heard(ev: { resultIndex: number; results: ArrayLike<RecognitionResultLike> }): void {
    let text = '';
    let interim = '';
    for (let i = ev.resultIndex; i < ev.results.length; i++) {
      const r = ev.results[i];
      if (r.length === 0) continue;
      if (r.isFinal) text += r[0].transcript;
      else interim += r[0].transcript;
    }
    text = text.trim();
    interim = interim.trim();
    if (text) this.emitFinal(text);
    if (interim) {
      this.pending = interim;
      for (const fn of this.interims) fn(interim);
    }
  }

  private failed(error: string): void {
    const fatal = FATAL[error];
    if (fatal === 'error' && this.mode === 'on-device') {
      this.mode = 'service'; // the local pack refused: fall back to the service once
      return;
    }
    if (fatal) {
      this.wanted = false;
      this.setStatus(fatal);
    }
  }

  private ended(): void {
    this.running = null;
    const unfinished = this.finishing && this.wanted ? this.pending : '';
    this.finishing = false;
    this.pending = '';
    if (unfinished) this.emitFinal(unfinished);
    if (!this.wanted) {
      if (this.isActiveStatus()) this.setStatus('off');
      return;
    }
    // Session ended by silence or a time limit: start again, backing off if it ended at once.
    const lasted = this.now() - this.startedAt;
    this.delay = lasted < QUICK_SESSION_MS ? Math.min(MAX_DELAY_MS, this.delay * 2) : (this.deps.restartDelayMs ?? 250);
    this.restartTimer = this.timers.setTimeout(() => {
      this.restartTimer = null;
      if (this.wanted && !this.running) void this.launch();
    }, this.delay);
  }

  /** Starts the session on the chosen microphone's track when there is one (and this browser takes it). */
  private begin(rec: RecognitionLike, track: MediaStreamTrack | null): void {
    try {
      if (track) {
        try {
          rec.start(track);
          this.source = 'chosen';
        } catch (err) {
          if ((err as Error)?.name === 'InvalidStateError') throw err;
          rec.start(); // this browser has no start(track): the tablet's microphone
          this.source = 'default';
        }
      } else {
        rec.start();
        this.source = 'default';
      }
    } catch {
      this.running = null;
      this.wanted = false;
      this.setStatus('error');
    }
  }

  private setStatus(s: MicStatus): void {
    if (this.status === s) return;
    this.status = s;
    for (const fn of this.statuses) fn(s);
  }
}

/**
 * `start(audioTrack)` shipped in Chrome 135; `processLocally` (139+) and `phrases` (142+) came later,
 * so their presence on the prototype means a browser new enough to honour the track.
 */
export function supportsStartTrack(ctor: RecognitionCtor | null): boolean {
  const proto = (ctor as unknown as { prototype?: object } | null)?.prototype;
  return !!proto && ('processLocally' in proto || 'phrases' in proto);
}

/** The page's SpeechRecognition constructor (prefixed on Safari), or null. */
export function findRecognition(win: typeof globalThis): RecognitionCtor | null {
  const w = win as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}
