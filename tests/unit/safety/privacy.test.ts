/**
 * No audio is ever stored: nothing in the app records sound (MediaRecorder, audio worklets, raw
 * sample capture); the one microphone stream is handed to speech recognition (src/speech/mic-devices.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte|js)$/.test(name) ? [p] : [];
  });
}

describe('privacy: no audio is stored', () => {
  const shipped = [...files(join(root, 'src')), ...files(join(root, 'workers')), ...files(join(root, 'skills'))];

  it('nothing records sound', () => {
    const recorders = /\b(MediaRecorder|AudioWorklet|createScriptProcessor|createMediaStreamSource|getChannelData|captureStream)\b/;
    expect(shipped.filter((f) => recorders.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f))).toEqual([]);
  });

  it('the microphone is opened only for the recogniser and the voice-activity detector, and nothing records it', () => {
    const opens = shipped.filter((f) => /getUserMedia\s*\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(opens.sort()).toEqual(['src/speech/mic-devices.ts', 'src/speech/vad.ts']);
    expect(shipped.filter((f) => /MediaRecorder/.test(readFileSync(f, 'utf8')))).toEqual([]);
  });
});
