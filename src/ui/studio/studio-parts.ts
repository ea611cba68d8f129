/** What the Studio's controller is made from: the runtime's model hub, speaking path, mic, voice loop and catalogue. */
import type { ModelHub } from '../../llm/model-hub.ts';
import type { SpeakingPath } from '../../arcade/speaking-path.ts';
import type { ArcadeGame } from '../../core/arcade/types.ts';
import type { Recognizer } from '../../speech/recognizer.ts';
import type { SpeechQueue } from '../../speech/tts-queue.ts';
import type { VoiceLoop } from '../../speech/voice-loop.ts';

export interface StudioParts {
  hub: ModelHub;
  voice: SpeakingPath;
  recognizer: Recognizer;
  speech: Omit<SpeechQueue, 'say'>;
  loop: VoiceLoop;
  catalog(): ArcadeGame[];
  stopTalking(): void;
}
