/**
 * The `skill` engine kind: a built-in game from `skills/<id>/` (SKILL.md + game.ts). The game's
 * module is loaded lazily inside its worker; each new session gets a fresh agent from its
 * `createAgent(deps)`.
 */
import { AgentcadeError } from '../core/errors/catalogue.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import { builtinGames } from './catalog.ts';
import type { EngineContext, EngineHost } from '../core/games/engine-host.ts';
import type { AgentDeps, SkillAgent } from './skill-agent.ts';

/** What `skills/<id>/game.ts` exports. */
export interface GameModule {
  /** A fresh agent (one game session) with its own state and memory. */
  createAgent(deps: AgentDeps): SkillAgent;
}

const GAME_MODULES = import.meta.glob<GameModule>('/skills/*/game.ts');

/** The declaration of a built-in game (read from its SKILL.md at build time), or undefined. */
function builtinDeclaration(id: string): GameDeclaration | undefined {
  return builtinGames().find((d) => d.id === id);
}

/** Loads a game's module; throws AgentcadeError('game_unknown') when the folder has none. */
export async function loadGameModule(gameId: string): Promise<GameModule> {
  const load = GAME_MODULES[`/skills/${gameId}/game.ts`];
  if (!load || !builtinDeclaration(gameId)) throw new AgentcadeError('game_unknown', `no built-in game "${gameId}" (skills/${gameId}/SKILL.md + game.ts)`);
  const mod = await load();
  if (typeof mod.createAgent !== 'function') throw new AgentcadeError('game_unknown', `skills/${gameId}/game.ts does not export createAgent`);
  return mod;
}

export const hostEngine: EngineHost = async (ctx: EngineContext) => {
  const mod = await loadGameModule(ctx.gameId);
  const { model, device, trace, random, safety } = ctx;
  const lab = ctx.lab ?? {};
  const switches = { preExecute: lab.rulesFirst !== false, finishMuted: lab.mutedFinish !== false, mutedInBackground: lab.mutedWatch !== true, askAhead: lab.askAhead !== false, notedLines: lab.notedLines !== false };
  return { declaration: builtinDeclaration(ctx.gameId)!, create: () => mod.createAgent({ model, device, trace, random, ...switches, safety }) };
};
