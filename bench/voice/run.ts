/**
 * Barge-in benchmark (not a test): the app's barge-in code on real audio in Chromium. The fake
 * capture device plays a looping recording (espeak-ng/sox, tests/support/voice-wavs.ts) into the
 * microphone and the voice-activity model runs on it live; one run prints, side by side:
 *  - barge-in reaction: the speech's onset in the recording → the speech queue stopped, p50/p95;
 *  - end of speech: the speech's end in the recording → the detector's speech-end (the turn can
 *    start), against the recognizer's own silence timeout (which headless Chromium cannot measure:
 *    no recognizer; it is the --asr-timeout-ms figure, stated as such);
 *  - false barge-ins per minute on white noise and on the robot's own voice (in step with playback);
 *  - the model's CPU time per second of audio (one thread).
 *
 *   npx tsx bench/voice/run.ts [--seconds 45] [--asr-timeout-ms 1000] [--port 4300] [--no-build]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { DEFAULT_VOICE_ACTIVITY } from '../../src/core/speech/voice-activity.ts';
import { readWav, voiceWav, type VoiceWav, type WavName } from '../../tests/support/voice-wavs.ts';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const SECONDS = Number(arg('seconds', '45'));
const ASR_TIMEOUT = Number(arg('asr-timeout-ms', '1000'));
const PORT = Number(arg('port', process.env.E2E_PORT ?? '4300'));
const DIST = arg('dist', '.cache/dist-bench-voice');
const root = resolve(import.meta.dirname, '../..');

if (!args.includes('--no-build') || !existsSync(resolve(root, DIST, 'tests/lab/voice.html'))) {
  console.log(`building into ${DIST} …`);
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', DIST], { cwd: root, stdio: 'inherit', env: { ...process.env, AGENTCADE_LAB: '1' } });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const server = spawn('npx', ['vite', 'preview', '--outDir', DIST, '--port', String(PORT), '--strictPort'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
const stopServer = () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stopServer);

const url = `http://localhost:${PORT}/tests/lab/voice.html`;
async function waitForServer(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the preview server did not answer at ${url}`);
}

type LabWindow = { runVoiceLive(o: object): Promise<LiveRun>; runVoiceCpu(b64: string): Promise<{ audioS: number; inferenceMs: number; frames: number }> };
interface LiveRun {
  detail?: string[];
  micOpenedAt: number;
  stops: number[];
  ends: number[];
  frames: number;
  echoes: number;
  startedAt: number;
  endedAt: number;
}

async function withCapture<T>(name: WavName, fn: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const wav = voiceWav(name);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-first-run', '--disable-background-networking', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav.path}`, '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const context = await browser.newContext({ permissions: ['microphone'] });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'runVoiceLive' in window);
    return await fn(page);
  } finally {
    await browser.close();
  }
}

function live(name: WavName, robot: 'always' | 'echo'): Promise<{ wav: VoiceWav; run: LiveRun }> {
  const wav = voiceWav(name);
  return withCapture(name, async (page) => {
    const run = (await page.evaluate((o) => (window as unknown as LabWindow).runVoiceLive(o), { seconds: SECONDS, robot, periodMs: wav.durationMs, onsetMs: wav.onsetMs ?? 0, endMs: wav.endMs ?? 0 })) as LiveRun;
    return { wav, run };
  });
}

/**
 * Time from the nearest loop's mark (`markMs` into the recording) to each event. The loop's start
 * is taken as when getUserMedia resolved; the capture may start a little later, so a figure can
 * come out slightly negative (printed as the smallest one).
 */
function sinceMark(events: number[], run: LiveRun, wav: VoiceWav, markMs: number): number[] {
  return events.map((t) => {
    const k = Math.round((t - run.micOpenedAt - markMs) / wav.durationMs);
    return t - (run.micOpenedAt + k * wav.durationMs + markMs);
  });
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');
const perMin = (n: number, run: LiveRun) => n / ((run.endedAt - run.startedAt) / 60_000);

try {
  await waitForServer();
  console.log(`\nlistening ${SECONDS} s per recording (real time; the machine is shared, so timings are noisy)…`);
  const speech = [await live('stop', 'always'), await live('guess', 'always')];
  const noise = await live('noise', 'always');
  const echo = await live('robot', 'echo');

  // CPU: the model on 16 kHz audio (the recordings averaged down from 48 kHz), frame after frame.
  const to16k = (p: string) => {
    const { samples } = readWav(p);
    const out = new Float32Array(Math.floor(samples.length / 3));
    for (let i = 0; i < out.length; i++) out[i] = (samples[3 * i] + samples[3 * i + 1] + samples[3 * i + 2]) / 3;
    return out;
  };
  const audio = [to16k(voiceWav('stop').path), to16k(voiceWav('noise').path), to16k(voiceWav('robot').path)];
  const all = new Float32Array(audio.reduce((n, a) => n + a.length, 0));
  audio.reduce((off, a) => (all.set(a, off), off + a.length), 0);
  const cpu = (await withCapture('silence', (page) => page.evaluate((b64) => (window as unknown as LabWindow).runVoiceCpu(b64), Buffer.from(all.buffer).toString('base64')))) as { audioS: number; inferenceMs: number; frames: number };

  const reactions = speech.flatMap(({ wav, run }) => sinceMark(run.stops, run, wav, wav.onsetMs!));
  const ends = speech.flatMap(({ wav, run }) => sinceMark(run.ends, run, wav, wav.endMs!));
  const onsets = speech.reduce((n, { wav, run }) => n + Math.floor((run.endedAt - run.startedAt) / wav.durationMs), 0);
  const version = (await chromium.launch({ executablePath: '/usr/bin/chromium' }).then(async (b) => [b.version(), await b.close()]))[0];

  console.log(`\nBarge-in on real audio (Chromium ${version}, Silero VAD v5 via onnxruntime-web wasm, 1 thread; speech after ${DEFAULT_VOICE_ACTIVITY.minSpeechMs} ms of voice, ended after ${DEFAULT_VOICE_ACTIVITY.redemptionMs} ms of quiet)`);
  console.log(`  reaction  (speech onset in the recording → queue stopped)   n=${reactions.length} of ~${onsets} utterances   p50 ${ms(pct(reactions, 50))}   p95 ${ms(pct(reactions, 95))}   min ${ms(Math.min(...reactions))}   target p50 ≤ 300 ms`);
  console.log(`  end of speech → turn can start   with the detector: p50 ${ms(pct(ends, 50))}  p95 ${ms(pct(ends, 95))}   recognizer's own timeout alone: ${ms(ASR_TIMEOUT)} (assumed, --asr-timeout-ms)`);
  console.log(`    saving at p50: ${ms(ASR_TIMEOUT - pct(ends, 50))} (target ≥ 500 ms; plus the recognizer's stop → final time, not measurable here)`);
  console.log(`  false barge-ins  white noise: ${perMin(noise.run.stops.length, noise.run).toFixed(2)}/min (${noise.run.stops.length} in ${((noise.run.endedAt - noise.run.startedAt) / 1000).toFixed(0)} s)   the robot's own voice in step with playback: ${perMin(echo.run.stops.length, echo.run).toFixed(2)}/min (${echo.run.stops.length} in ${((echo.run.endedAt - echo.run.startedAt) / 1000).toFixed(0)} s; ${echo.run.echoes} voices judged echo)   target 0`);
  if (echo.run.stops.length) console.log(`    echo run: recording loop starts at ${Math.round(echo.run.micOpenedAt)} + k·${Math.round(echo.wav.durationMs)} ms; false barge-ins: ${(echo.run.detail ?? []).join('; ')}`);
  console.log(`  model CPU time per second of audio: ${(cpu.inferenceMs / cpu.audioS).toFixed(1)} ms (${cpu.frames} frames, ${cpu.audioS.toFixed(1)} s of audio, ${(cpu.inferenceMs / cpu.frames).toFixed(2)} ms per 32 ms frame)`);
  console.log(`  frames heard live: ${[...speech, noise, echo].map(({ run }) => run.frames).join(' / ')} (speech, speech, noise, echo)`);
} finally {
  stopServer();
}
