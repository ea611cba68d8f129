/**
 * The robot output module's view of speech (src/robot/speech-progress.ts), over the speaking
 * queue. A "sentence" there is one utterance here: one reply the robot says (seed: the expression
 * stays "until the next sentence has been spoken"). A waiting line ("嗯，让我想想") is no sentence
 * of the answer: the thinking face stays through it, until the answer starts.
 */
import type { SpeechProgress as RobotSpeechProgress } from '../robot/speech-progress.ts';
import type { SpeechProgress } from './types.ts';

export function robotSpeechProgress(queue: SpeechProgress): RobotSpeechProgress {
  return {
    onSentenceStart(cb) {
      return queue.subscribe((e) => {
        if (e.type === 'utterance-start' && !e.yields) cb(e.text);
      });
    },
    onSentenceSpoken(cb) {
      return queue.subscribe((e) => {
        if (e.type === 'utterance-end' && !e.yields) cb(e.text);
      });
    },
    isSpeaking: () => queue.busy,
    whenIdle() {
      if (!queue.busy) return Promise.resolve();
      return new Promise((resolve) => {
        const off = queue.subscribe((e) => {
          if (e.type === 'idle') {
            off();
            resolve();
          }
        });
      });
    },
  };
}
