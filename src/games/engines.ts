/**
 * Engines by kind, and the game agent a worker serves: whatever the engine, one GameSessions owns
 * the session rules (src/games/game-sessions.ts) and the Agent Card comes from the game's
 * declaration. A game's declaration names its engine kind; the host passes it in the worker's init,
 * and the worker's composition root (workers/game-engines.ts) gives the registry of kinds.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { agentCardFor } from '../a2a/card.ts';
import { AgentcadeError } from '../core/errors/catalogue.ts';
import type { EngineKind } from '../core/games/engine.ts';
import type { EngineContext, EngineHost, EngineRegistry, GameLab, SafetyCheckLoader } from '../core/games/engine-host.ts';
import type { GameHandler } from '../core/protocol/handler.ts';
import { seededRandom } from '../core/random.ts';
import { connectModel } from '../llm/model-port.ts';
import { connectDevice } from '../robot/device-port.ts';
import { connectTrace } from '../trace/trace-port.ts';
import { GameSessions } from './game-sessions.ts';

export interface GameAgentInit {
  gameId: string;
  engine: string;
  seed: number;
  ports: Record<string, MessagePort>;
  lab?: GameLab;
}

/** The engine context over a worker's ports: model, robot and trace, the seeded random source, and the safety check. */
export function connectEngineContext(init: GameAgentInit, safety: SafetyCheckLoader): EngineContext {
  for (const name of ['model', 'device', 'trace']) {
    if (!init.ports[name]) throw new Error(`createGameAgent(${init.gameId}): missing the "${name}" port`);
  }
  return {
    gameId: init.gameId,
    model: connectModel(init.ports.model),
    device: connectDevice(init.ports.device),
    trace: connectTrace(init.ports.trace, { defaults: { source: `game:${init.gameId}` } }),
    random: seededRandom(init.seed),
    safety,
    ...(init.lab ? { lab: init.lab } : {}),
  };
}

/** A game agent over one engine kind: its card, and GameSessions over its engines. */
export async function serveEngine(ctx: EngineContext, host: EngineHost): Promise<{ card: AgentCard; handler: GameHandler }> {
  const { declaration, create } = await host(ctx);
  return { card: agentCardFor(declaration), handler: new GameSessions({ create, device: ctx.device, trace: ctx.trace, source: `game:${ctx.gameId}` }) };
}

/**
 * The game agent a worker serves (workers/game-agent.ts): GameSessions over the engine of the
 * game's kind, its engines checking their lines with `safety` (the composition root's loader).
 */
export async function createGameAgent(init: GameAgentInit, engines: EngineRegistry, safety: SafetyCheckLoader): Promise<{ card: AgentCard; handler: GameHandler }> {
  const load = Object.hasOwn(engines, init.engine) ? engines[init.engine as EngineKind] : undefined;
  if (!load) throw new AgentcadeError('game_unknown', `no engine of kind "${init.engine}" for game "${init.gameId}"`);
  const ctx = connectEngineContext(init, safety);
  // The safety check loads and compiles while the engine's module loads (the first turn needs both).
  void safety().catch(() => undefined);
  return serveEngine(ctx, (await load()).hostEngine);
}
