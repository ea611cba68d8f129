/// <reference lib="webworker" />
/** A game agent's Web Worker: on `init`, builds the game (src/game/agent-factory.ts) and serves it over A2A. */
import { hostGameAgent } from '../src/a2a/worker-entry.ts';
import { createGameAgent } from '../src/games/agent-factory.ts';

hostGameAgent(self as unknown as DedicatedWorkerGlobalScope, createGameAgent);
