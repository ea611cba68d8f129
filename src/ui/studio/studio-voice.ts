/**
 * The parent talks to the Studio with the arcade's own push-to-talk microphone: the app's
 * recognizer and speaking queue under one more VoiceLoop (half-duplex: never listening while the
 * robot reads a question aloud), whose words go to the Studio instead of the main agent. While the
 * Studio listens, the arcade's hands-free listening is paused — the parent's words are not the
 * child's — and it is switched back on when the Studio closes.
 *
 * No echo filter here: what the Studio reads aloud holds examples a parent repeats word for word
 * (「猜谜语，玩3轮」), and the arcade's filter would drop them. Half-duplex alone keeps the mic off
 * while the robot reads and until it has been quiet for a moment.
 */
import type { SpeechProgress } from '../../speech/types.ts';
import { VoiceLoop, type MicLike } from '../../speech/voice-loop.ts';
import type { AppRuntime } from '../app-runtime.ts';

export interface StudioVoice {
  loop: VoiceLoop;
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
  const loop = new VoiceLoop({ mic, speech, mode: 'push-to-talk', onInput: (text) => onWords(text) });
  return {
    loop,
    dispose() {
      if (loop.state === 'listening') rt.recognizer.stop();
      for (const off of offs.splice(0)) off();
      finals.clear();
      if (arcadeWasListening) rt.loop.setEnabled(true);
    },
  };
}
