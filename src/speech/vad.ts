/**
 * The microphone's voice-activity detector for hands-free mode: Silero VAD v5 run by
 * onnxruntime-web's wasm (@ricky0123/vad-web), loaded with a dynamic import only when hands-free
 * starts, its files served from this origin (/vad/, precached by the service worker). It opens the
 * microphone with echo cancellation, noise suppression and automatic gain, and reports one frame
 * (speech probability, loudness) every 32 ms; src/core/speech/voice-activity.ts decides what a
 * frame means. `release()` lets the microphone go (background, play time over, hands-free off).
 */
import { DEFAULT_VOICE_ACTIVITY, type VadFrame } from '../core/speech/voice-activity.ts';
import { FrameClock } from '../core/speech/frame-clock.ts';

/** Why the detector is not running, in words a parent understands (设置 → 现在的状态). */
export type VadFailure = 'denied' | 'no-mic' | 'no-wasm' | 'load-failed';

export type VadState = { state: 'off' } | { state: 'loading' } | { state: 'on' } | { state: 'failed'; cause: VadFailure; detail: string };

export interface MicFrame extends VadFrame {
  /** Root-mean-square level of the frame's samples. */
  rms: number;
}

export interface VoiceActivity {
  readonly state: VadState;
  onState(fn: (s: VadState) => void): () => void;
  onFrame(fn: (f: MicFrame) => void): () => void;
  /** Loads (once) and listens. Resolves when listening or failed (never rejects). */
  start(): Promise<void>;
  /** Stops listening and lets the microphone go; start() opens it again. */
  release(): void;
  /** The live microphone track the detector hears (for `SpeechRecognition.start(track)`), or null. */
  readonly track: MediaStreamTrack | null;
}

export const VAD_BASE = '/vad/';

// The smallest module using a SIMD instruction: onnxruntime's wasm needs SIMD.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** Whether this browser can run the model at all: WebAssembly with SIMD and an AudioContext. */
export function vadSupported(win: typeof globalThis = globalThis): { ok: true } | { ok: false; detail: string } {
  const wa = (win as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (!wa) return { ok: false, detail: 'no WebAssembly' };
  try {
    if (!wa.validate(SIMD_PROBE)) return { ok: false, detail: 'no WebAssembly SIMD' };
  } catch {
    return { ok: false, detail: 'no WebAssembly SIMD' };
  }
  if (typeof (win as { AudioContext?: unknown }).AudioContext !== 'function') return { ok: false, detail: 'no AudioContext' };
  if (!(win as { navigator?: Navigator }).navigator?.mediaDevices?.getUserMedia) return { ok: false, detail: 'no getUserMedia' };
  return { ok: true };
}

export interface BrowserVadOptions {
  /** The chosen input's deviceId ('' = default). */
  deviceId?: () => string;
  now?: () => number;
}

type MicVADLike = { start(): Promise<void>; pause(): Promise<void>; destroy(): Promise<void> };

export function createBrowserVad(opts: BrowserVadOptions = {}): VoiceActivity {
  let state: VadState = { state: 'off' };
  const states = new Set<(s: VadState) => void>();
  const frames = new Set<(f: MicFrame) => void>();
  const now = opts.now ?? (() => performance.now());
  // Frames are stamped on the audio's clock (a busy page runs the detector late, in bursts); it starts again with each stream.
  const clock = new FrameClock(DEFAULT_VOICE_ACTIVITY.frameMs);
  const mic = micStream(opts.deviceId, () => clock.reset());
  let vad: MicVADLike | null = null;
  let loading: Promise<void> | null = null;
  let wanted = false;

  const set = (s: VadState) => {
    state = s;
    for (const fn of states) fn(s);
  };

  async function load(): Promise<void> {
    const r = await loadDetector(mic, (prob, frame) => {
      const f: MicFrame = { t: clock.stamp(now()), prob, rms: rmsOf(frame) };
      for (const fn of frames) fn(f);
    });
    if ('failure' in r) set({ state: 'failed', ...r.failure });
    else vad = r.vad;
  }

  return {
    get state() {
      return state;
    },
    get track() {
      return mic.track;
    },
    onState(fn) {
      states.add(fn);
      fn(state);
      return () => states.delete(fn);
    },
    onFrame(fn) {
      frames.add(fn);
      return () => frames.delete(fn);
    },
    async start() {
      wanted = true;
      if (state.state === 'failed' && state.cause !== 'no-wasm') set({ state: 'off' }); // a permission may have been given since
      if (state.state === 'failed') return;
      if (!vad) {
        if (!loading) {
          set({ state: 'loading' });
          loading = load().finally(() => (loading = null));
        }
        await loading;
        if (!vad) return;
      }
      if (!wanted) return;
      try {
        // Opens the microphone (getStream): a refusal is the likeliest fault and has its own words.
        await vad.start();
        if (!wanted) return mic.close();
        set({ state: 'on' });
      } catch (e) {
        // A detector whose first microphone failed stays broken: the next start() makes a new one.
        const broken = vad;
        vad = null;
        void broken?.destroy().catch(() => undefined);
        mic.close();
        set({ state: 'failed', ...micFailure(e) });
      }
    },
    release() {
      wanted = false;
      if (vad) void vad.pause().catch(() => undefined);
      mic.close();
      if (state.state === 'on' || state.state === 'loading') set({ state: 'off' });
    },
  };
}

type Failure = { cause: VadFailure; detail: string };

/** The microphone as the detector hears it: the chosen input, mono, echo-cancelled, noise-suppressed, gain-controlled. */
function micStream(deviceId?: () => string, onOpen?: () => void) {
  let stream: MediaStream | null = null;
  return {
    async open(): Promise<MediaStream> {
      const id = deviceId?.() ?? '';
      onOpen?.();
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { ...(id ? { deviceId: { exact: id } } : {}), channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      });
      return stream;
    },
    close(): void {
      for (const t of stream?.getTracks() ?? []) t.stop();
      stream = null;
    },
    get track(): MediaStreamTrack | null {
      return stream?.getAudioTracks().find((t) => t.readyState === 'live') ?? null;
    },
  };
}

/**
 * The model and its runtime, loaded (from VAD_BASE) into a paused detector that reports each
 * frame's speech probability; or why it cannot run here.
 */
async function loadDetector(mic: ReturnType<typeof micStream>, onFrame: (prob: number, frame: Float32Array) => void): Promise<{ vad: MicVADLike } | { failure: Failure }> {
  const support = vadSupported();
  if (!support.ok) return { failure: { cause: 'no-wasm', detail: support.detail } };
  // A microphone already refused: no need to fetch 16 MB to find out.
  try {
    const p = await navigator.permissions?.query({ name: 'microphone' as PermissionName });
    if (p?.state === 'denied') return { failure: { cause: 'denied', detail: 'permission state: denied' } };
  } catch {
    /* this browser cannot tell: getUserMedia will */
  }
  try {
    const { MicVAD } = await import('@ricky0123/vad-web');
    const ort = (await import('@ricky0123/vad-web/dist/real-time-vad.js')).ort as { env: { wasm: { numThreads?: number; proxy?: boolean } } };
    ort.env.wasm.numThreads = 1;
    const vad = await MicVAD.new({
      model: 'v5',
      baseAssetPath: VAD_BASE,
      onnxWASMBasePath: VAD_BASE,
      startOnLoad: false,
      getStream: async () => mic.open(),
      pauseStream: async () => mic.close(),
      resumeStream: async () => mic.open(),
      onFrameProcessed: (probs, frame) => onFrame(probs.isSpeech, frame),
      onSpeechStart: () => undefined,
      onSpeechEnd: () => undefined,
      onVADMisfire: () => undefined,
      onSpeechRealStart: () => undefined,
    });
    return { vad };
  } catch (e) {
    mic.close();
    return { failure: { cause: 'load-failed', detail: String((e as Error)?.message ?? e) } };
  }
}

/** Root-mean-square level of a frame's samples. */
function rmsOf(frame: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += frame[i] * frame[i];
  return Math.sqrt(sum / Math.max(1, frame.length));
}

function micFailure(e: unknown): Failure {
  const name = (e as { name?: string })?.name ?? '';
  return { cause: name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'no-mic', detail: `${name}: ${(e as Error)?.message ?? e}` };
}
