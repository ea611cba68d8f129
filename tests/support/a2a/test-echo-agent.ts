/// <reference lib="webworker" />
/**
 * Test worker (lab pages, e2e, benchmark): hosts the echo game agent on the `a2a` port. An extra
 * `raw` port, when given, echoes every message straight back: the benchmark's raw postMessage
 * baseline in the same worker.
 */
import { agentCardFor } from '../../../src/a2a/card.ts';
import { createEchoGame, ECHO_GAME } from './echo-game.ts';
import { hostGameAgent } from '../../../src/a2a/worker-entry.ts';
import { gameReply, parseGameInput } from '../../../src/core/protocol/game-protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

hostGameAgent(scope, async ({ gameId, ports }) => {
  const raw = ports.raw;
  if (raw) raw.onmessage = (ev) => raw.postMessage(gameReply(`你说：${parseGameInput(ev.data).text}`));
  const instant = gameId === 'echo-instant';
  return { card: agentCardFor({ ...ECHO_GAME, id: gameId }), handler: createEchoGame({ instant }) };
});
