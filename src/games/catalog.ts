/**
 * The built-in games: every `skills/<id>/SKILL.md` is one game. Adding a folder with a SKILL.md
 * (and its game.ts) adds a game with no edit elsewhere. Studio packages under skills/ have no
 * top-level SKILL.md, so the glob does not see them.
 *
 * What the arcade lists needs no YAML parser on the first screen: the build reads each SKILL.md's
 * frontmatter with the same loader the game's worker uses (src/core/games/skill.ts, through the
 * `?declaration` transform in vite.config.ts) and ships only the declaration. A broken SKILL.md
 * fails the build, naming the file and the field.
 */
import type { GameDeclaration } from '../core/protocol/declaration.ts';

const DECLARATIONS = import.meta.glob('/skills/*/SKILL.md', { query: '?declaration', import: 'default', eager: true }) as Record<string, GameDeclaration>;

/** Declarations of every built-in game (sorted by id). */
export function builtinGames(): GameDeclaration[] {
  return Object.entries(DECLARATIONS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, d]) => ({ ...d, aliases: [...d.aliases], capabilities: [...d.capabilities] }));
}
