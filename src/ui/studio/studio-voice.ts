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
import { VoiceLoop } from '../../speech/voice-loop.ts';
import type { StudioMic } from '../../studio/studio-controller.ts';
import type { StudioParts } from './studio-parts.ts';

export function studioVoice(rt: Pick<StudioParts, 'recognizer' | 'speech' | 'loop'>, onWords: (text: string) => Promise<unknown>): StudioMic {
  const arcadeWasListening = rt.loop.isEnabled;
  if (arcadeWasListening) rt.loop.setEnabled(false);
  const loop = new VoiceLoop({ mic: rt.recognizer, speech: rt.speech, mode: 'push-to-talk', onInput: (text) => onWords(text) });
  return {
    pushToTalk: () => loop.pushToTalk(),
    onState: (fn) => loop.onState(fn),
    onStatus: (fn) => rt.recognizer.onStatus(fn),
    dispose() {
      loop.dispose();
      if (arcadeWasListening) rt.loop.setEnabled(true);
    },
  };
}
