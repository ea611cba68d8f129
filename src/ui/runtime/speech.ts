/**
 * Speech: the parent's speech settings (read once, changed by the settings screen and the voice
 * commands), the browser's synthesiser, the speaking queue (an unfinished line is traced), and the
 * recognizer. Hands-free's voice-activity detector holds its own microphone track (echo
 * cancellation, noise suppression, auto gain); recognition hears that same track where
 * `start(track)` is honoured.
 */
import { trackSource } from '../../speech/mic-devices.ts';
import { Recognizer, findRecognition, supportsStartTrack } from '../../speech/recognizer.ts';
import { loadSpeechSettings, type SpeechSettings } from '../../speech/settings.ts';
import { SpeechQueue } from '../../speech/tts-queue.ts';
import { createBrowserVad } from '../../speech/vad.ts';
import { createWebSynth, type WebSynth } from '../../speech/web-synth.ts';
import type { TraceRecorder } from '../../trace/recorder.ts';

export interface SpeechParts {
  /** The settings in force (replaced as a whole when they change). */
  settings: { current: SpeechSettings };
  synth: WebSynth;
  speech: SpeechQueue;
  vad: ReturnType<typeof createBrowserVad>;
  recognizer: Recognizer;
}

export function createSpeech(recorder: TraceRecorder): SpeechParts {
  const settings = { current: loadSpeechSettings() };
  const synth = createWebSynth(window);
  synth.prefer(settings.current.voice);
  const speech = new SpeechQueue({
    engine: synth,
    // While voices are still loading, try to speak (zh-CN by lang); with none at all, subtitles only.
    hasVoice: () => synth.status.state === 'loading' || synth.hasVoice(),
    rate: settings.current.rate,
    volume: settings.current.volume,
  });
  speech.subscribe((e) => {
    if (e.type === 'utterance-end' && !e.completed && e.reason !== 'stopped')
      recorder.record({ kind: 'speech', at: Date.now(), source: 'speech', name: 'unfinished', data: { text: e.text, reason: e.reason } });
  });
  const ctor = findRecognition(window);
  const vad = createBrowserVad({ deviceId: () => settings.current.micDeviceId });
  const chosenTrack = trackSource(() => settings.current.micDeviceId);
  const recognizer = new Recognizer({
    ctor,
    lang: 'zh-CN',
    supportsTrack: supportsStartTrack(ctor),
    getTrack: async () => vad.track ?? (await chosenTrack()),
  });
  void recognizer.init();
  return { settings, synth, speech, vad, recognizer };
}
