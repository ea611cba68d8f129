/**
 * The engine kinds a game worker serves (the worker's composition root): each kind's host loaded
 * lazily, so a worker loads only its own game's code. The games runtime (src/games/engines.ts)
 * serves whichever registry it is given; it imports neither the Studio nor a game folder.
 */
import type { EngineRegistry, SafetyCheckLoader } from '../src/core/games/engine-host.ts';
import { loadSafetyCheck } from '../src/arcade/safety-check.ts';

export const GAME_ENGINES: EngineRegistry = {
  skill: () => import('../src/games/skill-engine.ts'),
  studio: () => import('../src/studio/play/studio-host.ts'),
};

/** The engines' child-safety check: the speaking path's own (rules + learned classifier), loaded in the worker on first use. */
export const GAME_SAFETY_CHECK: SafetyCheckLoader = loadSafetyCheck;
