/**
 * The parent talks to the Studio with the arcade's own push-to-talk microphone: the app's
 * recognizer and speaking queue under one more VoiceLoop (half-duplex: never listening while the
 * robot reads a question aloud), whose words go to the Studio instead of the main agent. While the
 * Studio listens, the arcade's hands-free listening is paused — the parent's words are not the
 * child's — and it is switched back on when the Studio closes.
 */
import type { SpeechProgress } from '../../speech/types.ts';
import { VoiceLoop, type MicLike } from '../../speech/voice-loop.ts';
import type { AppRuntime } from '../app-runtime.ts';

export interface StudioVoice {
  loop: VoiceLoop;
  /** The last line read aloud (the echo filter drops it if the mic hears it). */
  spoke(text: string): void;
  dispose(): void;
}

export function studioVoice(rt: Pick<AppRuntime, 'recognizer' | 'speech' | 'loop'>, onWords: (text: string) => Promise<unknown>): StudioVoice {
  const offs: Array<() => void> = [];
  const finals = new Set<(text: string) => void>();
  offs.push(rt.recognizer.onFinal((t) => finals.forEach((f) => f(t))));
  const mic: MicLike = {
    start: () => rt.recognizer.start(),
    stop: () => rt.recognizer.stop(),
    onFinal: (fn) => {
      finals.add(fn);
      return () => finals.delete(fn);
    },
  };
  const speech: SpeechProgress = {
    get busy() {
      return rt.speech.busy;
    },
    subscribe: (fn) => {
      const off = rt.speech.subscribe(fn);
      offs.push(off);
      return off;
    },
  };
  const arcadeWasListening = rt.loop.isEnabled;
  if (arcadeWasListening) rt.loop.setEnabled(false);
  let last: string | null = null;
  const loop = new VoiceLoop({ mic, speech, mode: 'push-to-talk', onInput: (text) => onWords(text), lastSpoken: () => last });
  return {
    loop,
    spoke: (text) => (last = text),
    dispose() {
      if (loop.state === 'listening') rt.recognizer.stop();
      for (const off of offs.splice(0)) off();
      finals.clear();
      if (arcadeWasListening) rt.loop.setEnabled(true);
    },
  };
}
