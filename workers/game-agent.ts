/// <reference lib="webworker" />
/** A game agent's Web Worker: on `init`, builds the game's engine (of the kinds in ./game-engines.ts) and its sessions (src/games/engines.ts) and serves them over A2A. */
import { hostGameAgent } from '../src/a2a/worker-entry.ts';
import { createGameAgent } from '../src/games/engines.ts';
import { GAME_ENGINES, GAME_SAFETY_CHECK } from './game-engines.ts';

hostGameAgent(self as unknown as DedicatedWorkerGlobalScope, (init) => createGameAgent(init, GAME_ENGINES, GAME_SAFETY_CHECK));
