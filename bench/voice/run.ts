/**
 * Barge-in benchmark (not a test): the app's barge-in code on real audio in Chromium. The fake
 * capture device plays a looping recording (espeak-ng/sox, tests/support/voice-wavs.ts) into the
 * microphone and the voice-activity model runs on it live; one run prints, side by side:
 *  - barge-in reaction: the speech's onset in the recording → the speech queue stopped, p50/p95;
 *  - end of speech: the speech's end in the recording → the detector's speech-end (the turn can
 *    start), against the recognizer's own silence timeout (which headless Chromium cannot measure:
 *    no recognizer; it is the --asr-timeout-ms figure, stated as such), for the settings in use and
 *    the previous ones fed the same live frames; and the utterances cut in two, on a recording
 *    with a pause inside the sentence (「我猜……五十」);
 *  - the same end-of-speech figures from the model's frames of each recording played offline (no
 *    live timing in them: where the settings were chosen); --write-frames saves those frames as
 *    tests/support/voice-frames.json for the unit test;
 *  - false barge-ins per minute on white noise and on the robot's own voice (in step with playback);
 *  - the model's CPU time per second of audio (one thread).
 *
 *   npx tsx bench/voice/run.ts [--seconds 45] [--asr-timeout-ms 1000] [--port 4300] [--no-build] [--write-frames]
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { DEFAULT_VOICE_ACTIVITY, PREVIOUS_VOICE_ACTIVITY, VoiceActivityGate, type VoiceActivityOptions } from '../../src/core/speech/voice-activity.ts';
import { readWav, voiceWav, type VoiceWav, type WavName } from '../../tests/support/voice-wavs.ts';
import type { CpuRun, LiveRun } from '../../tests/lab/voice.ts';
import { benchArg, buildLab, launchChromium, ROOT, serveLab } from '../lab-browser.ts';

const args = process.argv.slice(2);
const SECONDS = Number(benchArg(args, 'seconds', '45'));
const ASR_TIMEOUT = Number(benchArg(args, 'asr-timeout-ms', '1000'));
const PORT = Number(benchArg(args, 'port', process.env.E2E_PORT ?? '4300'));
const DIST = benchArg(args, 'dist', '.cache/dist-bench-voice');
const PAGE = 'tests/lab/voice.html';

buildLab(args, DIST, PAGE);
const server = await serveLab(DIST, PORT, PAGE);
/** The browser's version, from the first launch. */
let version = '';

type LabWindow = { runVoiceLive(o: object): Promise<LiveRun>; runVoiceCpu(b64: string): Promise<CpuRun> };

/** A browser whose microphone plays `name`'s recording (a launch switch: one browser per recording), on the lab page. */
async function withCapture<T>(name: WavName, fn: (page: Page) => Promise<T>): Promise<T> {
  const wav = voiceWav(name);
  const browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav.path}`, '--autoplay-policy=no-user-gesture-required']);
  version ||= browser.version();
  try {
    const context = await browser.newContext({ permissions: ['microphone'] });
    const page = await context.newPage();
    await page.goto(server.url(PAGE));
    await page.waitForFunction(() => 'runVoiceLive' in window);
    return await fn(page);
  } finally {
    await browser.close();
  }
}

function live(name: WavName, robot: 'always' | 'echo'): Promise<{ wav: VoiceWav; run: LiveRun }> {
  const wav = voiceWav(name);
  return withCapture(name, async (page) => {
    const run = (await page.evaluate((o) => (window as unknown as LabWindow).runVoiceLive(o), { seconds: SECONDS, robot, periodMs: wav.durationMs, onsetMs: wav.onsetMs ?? 0, endMs: wav.endMs ?? 0, compare: PREVIOUS_VOICE_ACTIVITY })) as LiveRun;
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

/** 16 kHz samples of a recording (averaged down from 48 kHz). */
function to16k(path: string): Float32Array {
  const { samples } = readWav(path);
  const out = new Float32Array(Math.floor(samples.length / 3));
  for (let i = 0; i < out.length; i++) out[i] = (samples[3 * i] + samples[3 * i + 1] + samples[3 * i + 2]) / 3;
  return out;
}
const b64 = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

/** Ends of speech the gate finds in one recording's frames (frame i ends at (i + 1) · 32 ms), ms after its end; negative: inside it (a cut). */
function offlineEnds(probs: number[], wav: VoiceWav, o: VoiceActivityOptions): number[] {
  const gate = new VoiceActivityGate(o);
  const out: number[] = [];
  probs.forEach((prob, i) => {
    if (gate.feed({ t: (i + 1) * o.frameMs, prob })?.type === 'speech-end') out.push((i + 1) * o.frameMs - wav.endMs!);
  });
  return out;
}

/** Ends of speech more than this long before the recording's end are inside the utterance: it was cut in two. */
const CUT_MS = 150;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');
const perMin = (n: number, run: LiveRun) => n / ((run.endedAt - run.startedAt) / 60_000);

try {
  console.log(`\nlistening ${SECONDS} s per recording (real time; the machine is shared, so timings are noisy)…`);
  const speech = [await live('stop', 'always'), await live('guess', 'always')];
  const paused = await live('pause', 'always');
  const noise = await live('noise', 'always');
  const echo = await live('robot', 'echo');

  // Offline: the model on 16 kHz audio, frame after frame: its CPU time over three recordings in a
  // row, and each speech recording's own frames (a fresh model each) for the end-of-speech table.
  const audio = [to16k(voiceWav('stop').path), to16k(voiceWav('noise').path), to16k(voiceWav('robot').path)];
  const all = new Float32Array(audio.reduce((n, a) => n + a.length, 0));
  audio.reduce((off, a) => (all.set(a, off), off + a.length), 0);
  const offlineNames = ['stop', 'guess', 'pause', 'robot'] as const;
  const { cpu, frames } = await withCapture('silence', async (page) => {
    const evalCpu = (data: string) => page.evaluate((d) => (window as unknown as LabWindow).runVoiceCpu(d), data) as Promise<CpuRun>;
    const cpu = await evalCpu(b64(all));
    const frames: Record<string, { wav: VoiceWav; probs: number[] }> = {};
    for (const name of offlineNames) frames[name] = { wav: voiceWav(name), probs: (await evalCpu(b64(to16k(voiceWav(name).path)))).probs };
    return { cpu, frames };
  });
  if (args.includes('--write-frames')) {
    const out = resolve(ROOT, 'tests/support/voice-frames.json');
    const data = Object.fromEntries(
      offlineNames.map((n) => {
        const { wav, probs } = frames[n];
        return [n, { onsetMs: wav.onsetMs, endMs: wav.endMs, pauseMs: Math.round(wav.pauseMs), frameMs: DEFAULT_VOICE_ACTIVITY.frameMs, probs: probs.map((p) => Math.round(p * 1000) / 1000) }];
      }),
    );
    const made = 'npx tsx bench/voice/run.ts --write-frames: Silero VAD v5 speech probability per 32 ms frame of each recording (tests/support/voice-wavs.ts), played offline';
    // One recording a line.
    const lines = [`"made": ${JSON.stringify(made)}`, ...Object.entries(data).map(([n, v]) => `${JSON.stringify(n)}: ${JSON.stringify(v)}`)];
    writeFileSync(out, `{\n${lines.map((l) => `  ${l}`).join(',\n')}\n}\n`);
    console.log(`wrote ${out}`);
  }

  const reactions = speech.flatMap(({ wav, run }) => sinceMark(run.stops, run, wav, wav.onsetMs!));
  const endsOf = (runs: typeof speech, pick: (r: LiveRun) => number[]) => runs.flatMap(({ wav, run }) => sinceMark(pick(run), run, wav, wav.endMs!));
  const ends = endsOf(speech, (r) => r.ends);
  const endsBefore = endsOf(speech, (r) => r.endsCompare);
  const cutsLive = (pick: (r: LiveRun) => number[]) => endsOf([paused], pick).filter((x) => x < -CUT_MS).length;
  const pauseLoops = Math.floor((paused.run.endedAt - paused.run.startedAt) / paused.wav.durationMs);
  const onsets = speech.reduce((n, { wav, run }) => n + Math.floor((run.endedAt - run.startedAt) / wav.durationMs), 0);

  console.log(`\nBarge-in on real audio (Chromium ${version}, Silero VAD v5 via onnxruntime-web wasm, 1 thread; speech after ${DEFAULT_VOICE_ACTIVITY.minSpeechMs} ms of voice, ended after ${DEFAULT_VOICE_ACTIVITY.redemptionMs} ms of quiet)`);
  console.log(`  reaction  (speech onset in the recording → queue stopped)   n=${reactions.length} of ~${onsets} utterances   p50 ${ms(pct(reactions, 50))}   p95 ${ms(pct(reactions, 95))}   min ${ms(Math.min(...reactions))}   target p50 ≤ 300 ms`);
  const setting = (o: VoiceActivityOptions) => `ended after ${o.redemptionMs} ms of quiet`;
  console.log(`  end of speech → turn can start, live (the same frames through both settings; recognizer's own timeout alone: ${ms(ASR_TIMEOUT)}, assumed, --asr-timeout-ms)`);
  for (const [label, o, xs] of [['in use  ', DEFAULT_VOICE_ACTIVITY, ends], ['previous', PREVIOUS_VOICE_ACTIVITY, endsBefore]] as const) {
    const cuts = cutsLive((r) => (o === DEFAULT_VOICE_ACTIVITY ? r.ends : r.endsCompare));
    console.log(`    ${label} (${setting(o)}): p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}  n=${xs.length}   saving at p50 ${ms(ASR_TIMEOUT - pct(xs, 50))}   「我猜……五十」 (${Math.round(paused.wav.pauseMs)} ms pause) cut in two: ${cuts} of ~${pauseLoops}`);
  }
  console.log(`    target: saving ≥ 500 ms (plus the recognizer's stop → final time, not measurable here)`);
  console.log(`  end of speech from the recordings' own frames, offline (ms after the speech's end; a negative one is a cut inside the utterance):`);
  for (const [label, o] of [['in use  ', DEFAULT_VOICE_ACTIVITY], ['previous', PREVIOUS_VOICE_ACTIVITY]] as const) {
    const row = offlineNames.map((n) => `${n} ${offlineEnds(frames[n].probs, frames[n].wav, o).map((x) => Math.round(x)).join(', ')}`);
    console.log(`    ${label} (${setting(o)}): ${row.join('   ')}`);
  }
  console.log(`  false barge-ins  white noise: ${perMin(noise.run.stops.length, noise.run).toFixed(2)}/min (${noise.run.stops.length} in ${((noise.run.endedAt - noise.run.startedAt) / 1000).toFixed(0)} s)   the robot's own voice in step with playback: ${perMin(echo.run.stops.length, echo.run).toFixed(2)}/min (${echo.run.stops.length} in ${((echo.run.endedAt - echo.run.startedAt) / 1000).toFixed(0)} s; ${echo.run.echoes} voices judged echo)   target 0`);
  if (echo.run.stops.length) console.log(`    echo run: recording loop starts at ${Math.round(echo.run.micOpenedAt)} + k·${Math.round(echo.wav.durationMs)} ms; false barge-ins: ${(echo.run.detail ?? []).join('; ')}`);
  console.log(`  model CPU time per second of audio: ${(cpu.inferenceMs / cpu.audioS).toFixed(1)} ms (${cpu.frames} frames, ${cpu.audioS.toFixed(1)} s of audio, ${(cpu.inferenceMs / cpu.frames).toFixed(2)} ms per 32 ms frame)`);
  console.log(`  frames heard live: ${[...speech, paused, noise, echo].map(({ run }) => run.frames).join(' / ')} (speech, speech, pause, noise, echo)`);
} finally {
  server.stop();
}
