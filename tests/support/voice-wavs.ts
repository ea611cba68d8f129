/**
 * Test audio for the voice-activity detector, made at test time (never committed) into
 * .cache/voice-wavs/: Mandarin speech from espeak-ng (the child's 「停一下」 and 「我猜五十」, and the
 * robot's own line), silence and white noise from sox; each 48 kHz mono 16-bit, the rate
 * Chromium's fake capture plays (`--use-file-for-fake-audio-capture`). Each file has known
 * silence before the speech, and the speech's onset and end are measured from the samples.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const WAV_DIR = resolve(import.meta.dirname, '../../.cache/voice-wavs');
export const WAV_RATE = 48_000;

/** The robot's line the echo recording says (the e2e's long reply speaks it too). */
export const ROBOT_LINE = '你来猜猜看吧';

export interface VoiceWav {
  path: string;
  /** Total length (ms). */
  durationMs: number;
  /** Where the speech begins and ends (ms from the start), null for silence and noise. */
  onsetMs: number | null;
  endMs: number | null;
  /** The longest quiet stretch between the speech's onset and end (ms), 0 when none. */
  pauseMs: number;
}

interface Spec {
  /** espeak-ng text, or a sox generator. */
  say?: string;
  /** More words after `gap` seconds of silence (a pause inside the sentence). */
  then?: string;
  gap?: number;
  pitch?: number;
  speed?: number;
  noise?: { seconds: number; gain: number };
  silence?: number;
  /** Silence before and after the speech (s). */
  lead?: number;
  tail?: number;
}

export const WAVS = {
  stop: { say: '停一下', pitch: 75, lead: 1.5, tail: 2.5 },
  guess: { say: '我猜五十', pitch: 75, lead: 1.5, tail: 2.5 },
  // A child's pause inside a sentence (「我猜……五十」): its end of speech is after 「五十」, not in the pause.
  pause: { say: '我猜', then: '五十', gap: 0.3, pitch: 75, lead: 1.5, tail: 2.5 },
  robot: { say: ROBOT_LINE, pitch: 40, speed: 175, lead: 0.3, tail: 0.7 },
  silence: { silence: 6 },
  noise: { noise: { seconds: 6, gain: -14 } },
} satisfies Record<string, Spec>;

export type WavName = keyof typeof WAVS;

function need(tool: string): void {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    throw new Error(`${tool} is missing: run scripts/setup.sh --audio (Debian: apt-get install espeak-ng sox)`);
  }
}

/** Makes (once) and describes one test recording. */
export function voiceWav(name: WavName): VoiceWav {
  const spec: Spec = WAVS[name];
  mkdirSync(WAV_DIR, { recursive: true });
  const path = join(WAV_DIR, `${name}.wav`);
  if (!existsSync(path)) {
    need('sox');
    const rate = ['-r', String(WAV_RATE), '-c', '1', '-b', '16'];
    if (spec.say) {
      need('espeak-ng');
      const raw = join(WAV_DIR, `${name}.espeak.wav`);
      const espeak = (out: string, text: string) => execFileSync('espeak-ng', ['-v', 'cmn', '-p', String(spec.pitch ?? 50), '-s', String(spec.speed ?? 150), '-w', out, text]);
      espeak(raw, spec.say);
      const parts = [raw];
      if (spec.then) {
        // Each part trimmed of espeak's own lead-in and tail silence, so the gap is the pause.
        const first = join(WAV_DIR, `${name}.1.wav`);
        const second = join(WAV_DIR, `${name}.2.wav`);
        const raw2 = join(WAV_DIR, `${name}.espeak2.wav`);
        espeak(raw2, spec.then);
        const trim = ['silence', '1', '0.01', '0.5%', 'reverse', 'silence', '1', '0.01', '0.5%', 'reverse'];
        execFileSync('sox', [raw, first, ...trim, 'pad', '0', String(spec.gap ?? 0.3)]);
        execFileSync('sox', [raw2, second, ...trim]);
        parts.splice(0, 1, first, second);
      }
      execFileSync('sox', [...parts, ...rate, path, 'norm', '-2', 'pad', String(spec.lead ?? 0), String(spec.tail ?? 0)]);
    } else if (spec.noise) {
      execFileSync('sox', ['-n', ...rate, path, 'synth', String(spec.noise.seconds), 'whitenoise', 'gain', String(spec.noise.gain)]);
    } else {
      execFileSync('sox', ['-n', ...rate, path, 'trim', '0', String(spec.silence ?? 1)]);
    }
  }
  return describe(path, !!spec.say);
}

/** 16-bit mono PCM samples of a WAV file (as -1..1) and its rate. */
export function readWav(path: string): { samples: Float32Array; rate: number } {
  const b = readFileSync(path);
  let off = 12;
  let rate = WAV_RATE;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ') rate = b.readUInt32LE(off + 12);
    if (id === 'data') {
      const n = Math.floor(Math.min(size, b.length - off - 8) / 2);
      const samples = new Float32Array(n);
      for (let i = 0; i < n; i++) samples[i] = b.readInt16LE(off + 8 + i * 2) / 32768;
      return { samples, rate };
    }
    off += 8 + size + (size % 2);
  }
  throw new Error(`no data in ${path}`);
}

/** Onset/end: the first and last 10 ms window louder than -40 dBFS. */
function describe(path: string, speech: boolean): VoiceWav {
  const { samples, rate } = readWav(path);
  const durationMs = (samples.length / rate) * 1000;
  if (!speech) return { path, durationMs, onsetMs: null, endMs: null, pauseMs: 0 };
  const win = Math.round(rate / 100);
  let first = -1;
  let last = -1;
  let pause = 0;
  for (let i = 0; i + win <= samples.length; i += win) {
    let sum = 0;
    for (let j = i; j < i + win; j++) sum += samples[j] * samples[j];
    if (Math.sqrt(sum / win) > 0.01) {
      if (first < 0) first = i;
      else pause = Math.max(pause, i - last);
      last = i + win;
    }
  }
  const ms = (n: number) => (n / rate) * 1000;
  return { path, durationMs, onsetMs: first < 0 ? null : ms(first), endMs: last < 0 ? null : ms(last), pauseMs: ms(pause) };
}
