/**
 * The Studio put together from the app's parts (loaded when the Studio first opens): the hub's
 * model, the Book, the bundled skill packages, the arcade's games (their names are taken), the
 * safety check, reading aloud through the one speaking path and the arcade's microphone.
 */
import { loadSafetyCheck } from '../../arcade/safety-screen.ts';
import { Book } from '../../studio/book.ts';
import { discoverPackages } from '../../studio/bundled-packages.ts';
import { StudioController } from '../../studio/studio-controller.ts';
import type { StudioParts } from './studio-parts.ts';
import { studioVoice } from './studio-voice.ts';

export type { StudioParts };

export function createStudio(rt: StudioParts): StudioController {
  return new StudioController({
    model: rt.hub.model(),
    brain: rt.hub,
    openBook: () => Book.open(),
    packages: discoverPackages(),
    games: () => rt.catalog().map((g) => g.declaration),
    safetyCheck: loadSafetyCheck,
    speech: { say: (text) => void rt.voice.say(text, 'main', { aside: true }), stopTalking: () => rt.stopTalking() },
    mic: (onWords) => studioVoice(rt, onWords),
    settings: typeof localStorage === 'undefined' ? null : localStorage,
  });
}
