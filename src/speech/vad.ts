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
  let vad: MicVADLike | null = null;
  let stream: MediaStream | null = null;
  let loading: Promise<void> | null = null;
  let wanted = false;
  // Frames are stamped on the audio's clock (a busy page runs the detector late, in bursts).
  const clock = new FrameClock(DEFAULT_VOICE_ACTIVITY.frameMs);

  const set = (s: VadState) => {
    state = s;
    for (const fn of states) fn(s);
  };
  const fail = (cause: VadFailure, detail: string) => set({ state: 'failed', cause, detail });

  async function open(): Promise<MediaStream> {
    const id = opts.deviceId?.() ?? '';
    clock.reset();
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { ...(id ? { deviceId: { exact: id } } : {}), channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    return stream;
  }
  function close(): void {
    for (const t of stream?.getTracks() ?? []) t.stop();
    stream = null;
  }

  async function load(): Promise<void> {
    const support = vadSupported();
    if (!support.ok) return fail('no-wasm', support.detail);
    // A microphone already refused: no need to fetch 16 MB to find out.
    try {
      const p = await navigator.permissions?.query({ name: 'microphone' as PermissionName });
      if (p?.state === 'denied') return fail('denied', 'permission state: denied');
    } catch {
      /* this browser cannot tell: getUserMedia will */
    }
    try {
      const { MicVAD } = await import('@ricky0123/vad-web');
      const ort = (await import('@ricky0123/vad-web/dist/real-time-vad.js')).ort as { env: { wasm: { numThreads?: number; proxy?: boolean } } };
      ort.env.wasm.numThreads = 1;
      vad = await MicVAD.new({
        model: 'v5',
        baseAssetPath: VAD_BASE,
        onnxWASMBasePath: VAD_BASE,
        startOnLoad: false,
        getStream: async () => open(),
        pauseStream: async () => close(),
        resumeStream: async () => open(),
        onFrameProcessed: (probs, frame) => {
          let sum = 0;
          for (let i = 0; i < frame.length; i++) sum += frame[i] * frame[i];
          const f: MicFrame = { t: clock.stamp(now()), prob: probs.isSpeech, rms: Math.sqrt(sum / Math.max(1, frame.length)) };
          for (const fn of frames) fn(f);
        },
        onSpeechStart: () => undefined,
        onSpeechEnd: () => undefined,
        onVADMisfire: () => undefined,
        onSpeechRealStart: () => undefined,
      });
    } catch (e) {
      close();
      return fail('load-failed', String((e as Error)?.message ?? e));
    }
  }

  function micFailure(e: unknown): void {
    const name = (e as { name?: string })?.name ?? '';
    fail(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'no-mic', `${name}: ${(e as Error)?.message ?? e}`);
  }

  return {
    get state() {
      return state;
    },
    get track() {
      return stream?.getAudioTracks().find((t) => t.readyState === 'live') ?? null;
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
        if (!wanted) return close();
        set({ state: 'on' });
      } catch (e) {
        // A detector whose first microphone failed stays broken: the next start() makes a new one.
        const broken = vad;
        vad = null;
        void broken?.destroy().catch(() => undefined);
        close();
        micFailure(e);
      }
    },
    release() {
      wanted = false;
      if (vad) void vad.pause().catch(() => undefined);
      close();
      if (state.state === 'on' || state.state === 'loading') set({ state: 'off' });
    },
  };
}
