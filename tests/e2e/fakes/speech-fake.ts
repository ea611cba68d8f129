/**
 * Init-script fakes of the Web Speech API for e2e (headless Chromium has no voices and no
 * recognition, research hw-speech §5). Pass to `page.addInitScript(installSpeechFake, options)`;
 * it must stay self-contained (it is serialised into the page).
 *
 * In the page, `window.__speech`:
 * Offline, a session not running on the device fails with error "network", as Chrome's does.
 *
 * - `hear(text)`: the active recognition session hears `text` as a final result (false if no
 *   session is listening);
 * - `listening()`: whether a recognition session is running;
 * - `spoken`: every utterance the robot finished saying, in order; `started`: every one it began;
 * - `cancels`: how many times speech was cancelled (tap to stop);
 * - `utterances`: every utterance handed to `speechSynthesis.speak`, with the volume and rate it
 *   carried (what the parent's settings and the voice commands change);
 * - `hearInterim(text)`: the active session hears `text` as interim words; its final result follows
 *   when the session is stopped (as Chrome finalizes on `stop()`), or after `endpointMs` of quiet
 *   (the recognizer's own silence timeout);
 * - `micOpenedAt`: when getUserMedia last gave a microphone (page clock);
 * - `playIntoMic(name, { loop })`: the recording `micClips[name]` sounds in the microphone from now
 *   (mixed into what the capture device gives: real audio the detector hears); `stopMic()` ends it;
 * - `timeline`: the order of microphone and speech events — `mic-on` (a recognition session started
 *   listening), `mic-off` (it was stopped or aborted), `say-start:<text>`, `say-end:<text>` (finished
 *   or cancelled) — to check half-duplex: never listening while speaking.
 */
export interface SpeechFakeOptions {
  /** 'zh' (a local Mandarin voice), 'late' (arrives after 300 ms), 'none' (no Chinese voice). */
  voices?: 'zh' | 'late' | 'none';
  /** Speaking time per character (ms). */
  msPerChar?: number;
  /** Recognition fails with not-allowed. */
  micDenied?: boolean;
  /**
   * Where recognition runs, as `SpeechRecognition.available({processLocally: true})` reports it:
   * 'network' (default: no on-device language pack, like Chrome without one — the browser's
   * service needs the network), 'on-device' (the pack is installed), 'none' (no SpeechRecognition).
   */
  recognition?: 'network' | 'on-device' | 'none';
  /** The recognizer's own silence timeout after interim words (ms). */
  endpointMs?: number;
  /**
   * Recordings (WAV files, base64) that can sound in the microphone: every audio stream getUserMedia
   * gives is the capture device's audio with these mixed in when played (`playIntoMic`).
   */
  micClips?: Record<string, string>;
  /**
   * The robot's voice leaking into the microphone: saying `text` plays the speech of `micClips[clip]`
   * (from `fromMs` to `toMs`) into the microphone as it starts, so the echo follows each playback
   * whatever the machine's speed, and lasts as long.
   */
  echo?: { text: string; clip: string; fromMs: number; toMs: number };
}

export function installSpeechFake(opts: SpeechFakeOptions = {}): void {
  const msPerChar = opts.msPerChar ?? 8;
  const w = window as unknown as Record<string, unknown>;
  const state = {
    spoken: [] as string[],
    started: [] as string[],
    cancels: 0,
    active: null as null | FakeRecognition,
    utterances: [] as Array<{ text: string; volume: number; rate: number }>,
    timeline: [] as string[],
    /** When each utterance began (page clock, ms since the epoch), with its text. */
    startedAt: [] as Array<{ text: string; at: number }>,
    micOpenedAt: null as number | null,
  };
  // The microphone's mixer: the capture device's audio plus the recordings played into it.
  const mic = {
    ctx: null as AudioContext | null,
    out: null as MediaStreamAudioDestinationNode | null,
    clips: new Map<string, Promise<AudioBuffer>>(),
    playing: new Set<AudioBufferSourceNode>(),
  };
  const mixer = (): { ctx: AudioContext; out: MediaStreamAudioDestinationNode } => {
    if (!mic.ctx) {
      mic.ctx = new AudioContext({ sampleRate: 48_000 });
      mic.out = mic.ctx.createMediaStreamDestination();
      for (const [name, b64] of Object.entries(opts.micClips ?? {})) {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        mic.clips.set(name, mic.ctx.decodeAudioData(bytes.buffer));
      }
    }
    return { ctx: mic.ctx, out: mic.out! };
  };
  /** Plays a recording into the microphone now (synchronously started once decoded). */
  const playIntoMic = async (name: string, o: { loop?: boolean; fromMs?: number; toMs?: number } = {}): Promise<void> => {
    const { ctx, out } = mixer();
    void ctx.resume();
    const buffer = await mic.clips.get(name);
    if (!buffer) throw new Error(`no recording ${name} for the microphone`);
    const node = ctx.createBufferSource();
    node.buffer = buffer;
    node.loop = !!o.loop;
    node.connect(out);
    node.onended = () => mic.playing.delete(node);
    mic.playing.add(node);
    const from = (o.fromMs ?? 0) / 1000;
    if (o.toMs !== undefined) node.start(0, from, o.toMs / 1000 - from);
    else node.start(0, from);
  };
  const media = navigator.mediaDevices;
  if (media?.getUserMedia) {
    const open = media.getUserMedia.bind(media);
    media.getUserMedia = async (c?: MediaStreamConstraints) => {
      const s = await open(c);
      state.micOpenedAt = performance.now();
      if (!c?.audio || !opts.micClips) return s;
      const { ctx, out } = mixer();
      void ctx.resume();
      ctx.createMediaStreamSource(s).connect(out);
      // Stopping the mixed track lets the device go too.
      const track = out.stream.getAudioTracks()[0].clone();
      const stop = track.stop.bind(track);
      track.stop = () => {
        stop();
        for (const t of s.getTracks()) t.stop();
      };
      return new MediaStream([track, ...s.getVideoTracks()]);
    };
  }
  const echo = opts.echo;
  // Decoded before the robot first speaks, so its echo starts with its playback.
  if (echo) void Promise.resolve().then(() => mixer());

  // ---- speechSynthesis -------------------------------------------------------------------
  class FakeUtterance extends EventTarget {
    text: string;
    lang = '';
    voice: unknown = null;
    rate = 1;
    volume = 1;
    pitch = 1;
    /** Started speaking (for the timeline). */
    begun = false;
    onstart: ((e: Event) => void) | null = null;
    onend: ((e: Event) => void) | null = null;
    onerror: ((e: Event) => void) | null = null;
    onboundary: ((e: Event) => void) | null = null;
    constructor(text = '') {
      super();
      this.text = text;
    }
    fire(type: string, extra: Record<string, unknown> = {}) {
      const e = Object.assign(new Event(type), extra);
      this.dispatchEvent(e);
      const h = (this as unknown as Record<string, ((e: Event) => void) | null>)[`on${type}`];
      h?.call(this, e);
    }
  }
  const zh = { name: '测试普通话', lang: 'zh-CN', localService: true, default: true, voiceURI: 'fake-zh' };
  const en = { name: 'Test English', lang: 'en-US', localService: true, default: false, voiceURI: 'fake-en' };
  let voices = opts.voices === 'none' ? [en] : opts.voices === 'late' ? [] : [zh, en];
  const queue: FakeUtterance[] = [];
  let current: FakeUtterance | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const synthTarget = new EventTarget();
  const next = () => {
    current = queue.shift() ?? null;
    if (!current) return;
    const u = current;
    const echoing = !!echo && u.text === echo.text;
    setTimeout(() => {
      if (current !== u) return;
      state.started.push(u.text);
      state.startedAt.push({ text: u.text, at: Date.now() });
      state.timeline.push(`say-start:${u.text}`);
      u.begun = true;
      if (echoing) void playIntoMic(echo!.clip, { fromMs: echo!.fromMs, toMs: echo!.toMs });
      u.fire('start');
      timer = setTimeout(() => {
        if (current !== u) return;
        state.spoken.push(u.text);
        state.timeline.push(`say-end:${u.text}`);
        current = null;
        u.fire('end');
        if (!current) next(); // the end handler may already have queued (and started) the next one
      }, echoing ? echo!.toMs - echo!.fromMs : Math.max(30, msPerChar * Array.from(u.text).length));
    }, 5);
  };
  const synth = {
    get speaking() {
      return current !== null;
    },
    get pending() {
      return queue.length > 0;
    },
    paused: false,
    onvoiceschanged: null as null | (() => void),
    getVoices: () => voices.slice(),
    speak(u: FakeUtterance) {
      state.utterances.push({ text: u.text, volume: u.volume, rate: u.rate });
      queue.push(u);
      if (!current) next();
    },
    cancel() {
      state.cancels++;
      clearTimeout(timer);
      const dropped = [...(current ? [current] : []), ...queue.splice(0)];
      if (current?.begun) state.timeline.push(`say-end:${current.text}`);
      current = null;
      for (const u of dropped) u.fire('error', { error: 'interrupted' });
    },
    pause() {},
    resume() {},
    addEventListener: synthTarget.addEventListener.bind(synthTarget),
    removeEventListener: synthTarget.removeEventListener.bind(synthTarget),
    dispatchEvent: synthTarget.dispatchEvent.bind(synthTarget),
  };
  if (opts.voices === 'late')
    setTimeout(() => {
      voices = [zh, en];
      synthTarget.dispatchEvent(new Event('voiceschanged'));
      synth.onvoiceschanged?.();
    }, 300);
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  w.SpeechSynthesisUtterance = FakeUtterance;

  // ---- SpeechRecognition -----------------------------------------------------------------
  class FakeRecognition extends EventTarget {
    static async available(o: { processLocally?: boolean }) {
      return o?.processLocally && opts.recognition === 'on-device' ? 'available' : 'unavailable';
    }
    lang = '';
    continuous = false;
    interimResults = false;
    maxAlternatives = 1;
    processLocally = false;
    onstart: ((e: Event) => void) | null = null;
    onend: ((e: Event) => void) | null = null;
    onerror: ((e: Event) => void) | null = null;
    onresult: ((e: Event) => void) | null = null;
    private running = false;
    private interim = '';
    private endpoint: ReturnType<typeof setTimeout> | undefined;
    start() {
      if (this.running) throw new DOMException('already started', 'InvalidStateError');
      this.running = true;
      setTimeout(() => {
        if (!this.running) return; // stopped before it began listening
        if (opts.micDenied) {
          this.onerror?.(Object.assign(new Event('error'), { error: 'not-allowed' }));
          this.finish();
          return;
        }
        // The browser's recognition service is out of reach offline (Chrome: error "network").
        if (!navigator.onLine && !(this.processLocally && opts.recognition === 'on-device')) {
          this.onerror?.(Object.assign(new Event('error'), { error: 'network' }));
          this.finish();
          return;
        }
        state.active = this;
        state.timeline.push('mic-on');
        this.onstart?.(new Event('start'));
      }, 5);
    }
    stop() {
      // Chrome finalizes what it heard so far on stop().
      if (this.interim && this.running) this.hear(this.interim);
      this.finish();
    }
    abort() {
      this.finish();
    }
    finish() {
      clearTimeout(this.endpoint);
      this.interim = '';
      if (!this.running) return;
      this.running = false;
      if (state.active === this) {
        state.active = null;
        state.timeline.push('mic-off');
      }
      setTimeout(() => this.onend?.(new Event('end')), 5);
    }
    hearInterim(text: string) {
      this.interim = text;
      clearTimeout(this.endpoint);
      this.endpoint = setTimeout(() => this.running && this.interim && this.hear(this.interim), opts.endpointMs ?? 1200);
      this.result(text, false);
    }
    hear(text: string) {
      clearTimeout(this.endpoint);
      this.interim = '';
      this.result(text, true);
    }
    result(text: string, isFinal: boolean) {
      const alt = { transcript: text, confidence: 0.9 };
      const result = Object.assign([alt], { isFinal, item: () => alt });
      const results = Object.assign([result], { item: (i: number) => [result][i] });
      this.onresult?.(Object.assign(new Event('result'), { resultIndex: 0, results }));
    }
  }
  if (opts.recognition !== 'none') {
    w.SpeechRecognition = FakeRecognition;
    w.webkitSpeechRecognition = FakeRecognition;
  } else {
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
  }

  w.__speech = {
    get spoken() {
      return state.spoken.slice();
    },
    get started() {
      return state.started.slice();
    },
    get cancels() {
      return state.cancels;
    },
    get utterances() {
      return state.utterances.map((u) => ({ ...u }));
    },
    get startedAt() {
      return state.startedAt.slice();
    },
    get timeline() {
      return state.timeline.slice();
    },
    listening: () => state.active !== null,
    get micOpenedAt() {
      return state.micOpenedAt;
    },
    playIntoMic,
    stopMic() {
      for (const n of mic.playing) n.stop();
      mic.playing.clear();
    },
    hearInterim(text: string) {
      if (!state.active) return false;
      state.active.hearInterim(text);
      return true;
    },
    hear(text: string) {
      if (!state.active) return false;
      state.active.hear(text);
      return true;
    },
  };
}
