/**
 * bench/voice's page: the app's own barge-in code (src/speech/vad.ts, src/speech/barge-in.ts and
 * the speaking queue) on the microphone, which Chromium's fake capture device feeds with a looping
 * recording; a stand-in speech engine keeps the robot "speaking". Times are the page clock.
 */
import { VoiceActivityGate, type VoiceActivityOptions } from '../../src/core/speech/voice-activity.ts';
import { BargeIn } from '../../src/speech/barge-in.ts';
import { SpeechQueue } from '../../src/speech/tts-queue.ts';
import type { PieceCallbacks, SynthEngine } from '../../src/speech/types.ts';
import { createBrowserVad, VAD_BASE } from '../../src/speech/vad.ts';

let micOpenedAt: number | null = null;
const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (c?: MediaStreamConstraints) => {
  const s = await open(c);
  micOpenedAt = performance.now();
  return s;
};

/** A speech engine whose pieces play until cancelled, or for `playMs` when given. */
function standInEngine(playMs?: () => number): SynthEngine {
  let current: PieceCallbacks | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    speak(_piece, _opts, cb) {
      current = cb;
      cb.onStart();
      const ms = playMs?.();
      if (ms !== undefined) timer = setTimeout(() => current === cb && cb.onEnd(), ms);
    },
    cancel() {
      clearTimeout(timer);
      const cb = current;
      current = null;
      cb?.onError('interrupted');
    },
  };
}

export interface LiveRun {
  micOpenedAt: number;
  /** When each barge-in stopped the queue. */
  stops: number[];
  /** When each end of speech was reported. */
  ends: number[];
  /** When the `compare` settings, fed the same frames, would have reported each end of speech. */
  endsCompare: number[];
  frames: number;
  echoes: number;
  detail?: string[];
  startedAt: number;
  endedAt: number;
}

/**
 * Listens for `seconds`. `robot`: 'always' — the robot talks all the time (a new long line after
 * each stop); 'echo' — the robot says its line in step with the recording's loop (`periodMs`,
 * speech from `onsetMs` to `endMs`), as its own voice would reach the microphone.
 */
async function live(o: { seconds: number; robot: 'always' | 'echo'; periodMs?: number; onsetMs?: number; endMs?: number; compare?: VoiceActivityOptions }): Promise<LiveRun> {
  const vad = createBrowserVad();
  const echo = o.robot === 'echo';
  const q = new SpeechQueue({ engine: standInEngine(echo ? () => o.endMs! - o.onsetMs! : undefined), startTimeoutMs: 600_000, graceMs: 600_000 });
  const barge = new BargeIn({ vad, speech: q, allowed: () => true, now: () => performance.now() });
  const run: LiveRun = { detail: [], micOpenedAt: 0, stops: [], ends: [], endsCompare: [], frames: 0, echoes: 0, startedAt: 0, endedAt: 0 };
  if (o.compare) {
    const other = new VoiceActivityGate(o.compare);
    vad.onFrame((f) => {
      if (other.feed(f)?.type === 'speech-end') run.endsCompare.push(performance.now());
    });
  }
  let done = false;
  const talk = () => {
    if (!done) void q.say(echo ? '你来猜猜看吧' : '从前有一只小兔子，它住在森林里，每天早上都去河边喝水，还会和小鸟一起唱歌。', 'main');
  };
  barge.onBargeIn(() => {
    q.stop();
    run.stops.push(performance.now());
    if (!echo) setTimeout(talk, 0);
  });
  barge.onSpeechEnd(() => run.ends.push(performance.now()));
  barge.setWanted(true);
  await new Promise<void>((resolve, reject) => {
    const off = vad.onState((s) => {
      if (s.state === 'on') resolve();
      if (s.state === 'failed') reject(new Error(`${s.cause}: ${s.detail}`));
    });
    void off;
  });
  run.micOpenedAt = micOpenedAt!;
  run.startedAt = performance.now();
  // The first second after the model starts is its warm-up (the page is busy compiling): the robot
  // starts talking after it, so its lines are in step with the recording from the first one.
  await new Promise((r) => setTimeout(r, 1500));
  if (echo) {
    // Each loop: the line starts when the recording's speech starts.
    const next = () => {
      if (done) return;
      const phase = (performance.now() - run.micOpenedAt - o.onsetMs!) % o.periodMs!;
      setTimeout(() => {
        talk();
        setTimeout(next, 50);
      }, (o.periodMs! - phase) % o.periodMs!);
    };
    next();
  } else talk();
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  done = true;
  run.endedAt = performance.now();
  q.stop();
  barge.dispose();
  run.frames = barge.framesHeard;
  run.echoes = barge.log.filter((l) => l === 'echo').length;
  run.detail = barge.detail.slice();
  return run;
}

/**
 * The model on 16 kHz samples, 512 per frame, one after another: its CPU time per second of audio,
 * and each frame's speech probability (frame i ends at (i + 1) · 32 ms into the audio).
 */
export interface CpuRun {
  audioS: number;
  inferenceMs: number;
  frames: number;
  probs: number[];
}

async function cpu(samples16k: Float32Array): Promise<CpuRun> {
  const { ort } = await import('@ricky0123/vad-web/dist/real-time-vad.js');
  const { Silero } = await import('@ricky0123/vad-web/dist/models/silero.js');
  (ort as { env: { wasm: { wasmPaths: string; numThreads: number } } }).env.wasm.wasmPaths = VAD_BASE;
  (ort as { env: { wasm: { wasmPaths: string; numThreads: number } } }).env.wasm.numThreads = 1;
  const model = await Silero.new(ort as never, () => fetch(`${VAD_BASE}silero_vad_v5.onnx`).then((r) => r.arrayBuffer()));
  const n = Math.floor(samples16k.length / 512);
  const probs: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) probs.push((await model.process(samples16k.subarray(i * 512, (i + 1) * 512))).isSpeech);
  const inferenceMs = performance.now() - t0;
  await model.release();
  return { audioS: samples16k.length / 16000, inferenceMs, frames: n, probs };
}

Object.assign(window, {
  runVoiceLive: live,
  runVoiceCpu: (b64: string) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return cpu(new Float32Array(bytes.buffer));
  },
});
