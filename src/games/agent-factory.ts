/**
 * Builds a built-in game agent inside its worker (workers/game-agent.ts calls this): the game's
 * module is loaded lazily from `skills/<id>/game.ts`, the model, robot and trace are reached over
 * the MessagePorts the main thread handed over, and the Agent Card comes from the SKILL.md.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { agentCardFor } from '../a2a/card.ts';
import { connectModel } from '../llm/model-port.ts';
import { STUDIO_GAME_PREFIX } from '../core/protocol/declaration.ts';
import type { GameHandler } from '../core/protocol/handler.ts';
import { connectDevice } from '../robot/device-port.ts';
import { connectTrace } from '../trace/trace-port.ts';
import { builtinSkill } from './catalog.ts';
import { AgentcadeError } from '../core/errors/catalogue.ts';
import './errors.ts';
import { GameService } from './game-service.ts';
import type { AgentDeps, SkillAgent } from './skill-agent.ts';

/** What `skills/<id>/game.ts` exports. */
export interface GameModule {
  /** A fresh agent (one game session) with its own state and memory. */
  createAgent(deps: AgentDeps): SkillAgent;
}

const GAME_MODULES = import.meta.glob<GameModule>('/skills/*/game.ts');

/** Loads a game's module; throws AgentcadeError('game_unknown') when the folder has none. */
export async function loadGameModule(gameId: string): Promise<GameModule> {
  const load = GAME_MODULES[`/skills/${gameId}/game.ts`];
  if (!load || !builtinSkill(gameId)) throw new AgentcadeError('game_unknown', `no built-in game "${gameId}" (skills/${gameId}/SKILL.md + game.ts)`);
  const mod = await load();
  if (typeof mod.createAgent !== 'function') throw new AgentcadeError('game_unknown', `skills/${gameId}/game.ts does not export createAgent`);
  return mod;
}

/** A game service over injected parts (used by the worker below, and by tests with fakes). */
export function createGameService(mod: GameModule, deps: AgentDeps, gameId: string): GameService {
  return new GameService(() => mod.createAgent(deps), { device: deps.device, trace: deps.trace, source: `game:${gameId}` });
}

export async function createGameAgent(
  gameId: string,
  ports: Record<string, MessagePort>,
): Promise<{ card: AgentCard; handler: GameHandler }> {
  // Games designed in the Studio (issue 9) live in the Book, not in skills/: their own runtime.
  if (gameId.startsWith(STUDIO_GAME_PREFIX)) return (await import('../studio/play-agent.ts')).createStudioGameAgent(gameId, ports);
  const mod = await loadGameModule(gameId);
  const skill = builtinSkill(gameId)!;
  for (const name of ['model', 'device', 'trace']) {
    if (!ports[name]) throw new Error(`createGameAgent(${gameId}): missing the "${name}" port`);
  }
  const deps: AgentDeps = {
    model: connectModel(ports.model),
    device: connectDevice(ports.device),
    trace: connectTrace(ports.trace, { defaults: { source: `game:${gameId}` } }),
  };
  return { card: agentCardFor(skill.declaration), handler: createGameService(mod, deps, gameId) };
}
