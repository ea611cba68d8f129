/**
 * The end-of-speech settings on the voice-activity model's own output for the test recordings:
 * Silero VAD v5's speech probability for every 32 ms frame of each recording of
 * tests/support/voice-wavs.ts, saved by `npx tsx bench/voice/run.ts --write-frames`. A child's
 * pause inside a sentence (「我猜……五十」, 290 ms of silence) stays inside the utterance, and the
 * end of speech comes sooner than with the previous settings.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICE_ACTIVITY, PREVIOUS_VOICE_ACTIVITY, VoiceActivityGate, type VoiceActivityEvent, type VoiceActivityOptions } from '../../../src/core/speech/voice-activity.ts';

interface Recorded {
  onsetMs: number;
  endMs: number;
  pauseMs: number;
  frameMs: number;
  probs: number[];
}

const recorded = JSON.parse(readFileSync('tests/support/voice-frames.json', 'utf8')) as Record<'stop' | 'guess' | 'pause' | 'robot', Recorded>;

function events(r: Recorded, o: VoiceActivityOptions): VoiceActivityEvent[] {
  const gate = new VoiceActivityGate(o);
  return r.probs.map((prob, i) => gate.feed({ t: (i + 1) * r.frameMs, prob })).filter((e): e is VoiceActivityEvent => e !== null && e.type !== 'misfire');
}

describe('end of speech on the recordings', () => {
  it('「我猜……五十」: the pause inside the sentence does not end the utterance; it ends after 「五十」', () => {
    const r = recorded.pause;
    expect(r.pauseMs).toBeGreaterThanOrEqual(250);
    for (const o of [DEFAULT_VOICE_ACTIVITY, PREVIOUS_VOICE_ACTIVITY]) {
      const ev = events(r, o);
      expect(ev.map((e) => e.type), `ended after ${o.redemptionMs} ms of quiet`).toEqual(['speech-start', 'speech-end']);
      expect(ev[1].at).toBeGreaterThan(r.endMs);
    }
  });

  for (const name of ['stop', 'guess', 'pause', 'robot'] as const) {
    it(`${name}: one utterance, ended within the quiet spell and two frames after the speech, sooner than before`, () => {
      const r = recorded[name];
      const now = events(r, DEFAULT_VOICE_ACTIVITY);
      const before = events(r, PREVIOUS_VOICE_ACTIVITY);
      expect(now.map((e) => e.type)).toEqual(['speech-start', 'speech-end']);
      const after = now[1].at - r.endMs;
      expect(after).toBeGreaterThanOrEqual(DEFAULT_VOICE_ACTIVITY.redemptionMs - r.frameMs);
      expect(after).toBeLessThanOrEqual(DEFAULT_VOICE_ACTIVITY.redemptionMs + 2 * r.frameMs);
      expect(before.map((e) => e.type)).toEqual(['speech-start', 'speech-end']);
      expect(now[1].at).toBeLessThan(before[1].at);
    });
  }
});
