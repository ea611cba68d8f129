/**
 * The built-in games: every `skills/<id>/SKILL.md` is one game. Adding a folder with a SKILL.md
 * (and its game.ts) adds a game with no edit elsewhere. Studio packages under skills/ have no
 * top-level SKILL.md, so the glob does not see them.
 *
 * The SKILL.md texts are bundled (small), so declarations are known without starting a worker.
 */
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import { Skill } from '../core/games/skill.ts';

const SKILL_FILES = import.meta.glob('/skills/*/SKILL.md', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

let cache: Map<string, Skill> | null = null;

function skills(): Map<string, Skill> {
  if (!cache) {
    const map = new Map<string, Skill>();
    for (const [path, text] of Object.entries(SKILL_FILES).sort(([a], [b]) => a.localeCompare(b))) {
      // A broken SKILL.md is a programming error in a built-in game: fail loudly, naming file and field.
      const skill = Skill.load(path, text);
      map.set(skill.id, skill);
    }
    cache = map;
  }
  return cache;
}

/** Declarations of every built-in game (sorted by id). */
export function builtinGames(): GameDeclaration[] {
  return [...skills().values()].map((s) => s.declaration);
}

/** The loaded Skill of a built-in game, or undefined when there is no such folder. */
export function builtinSkill(id: string): Skill | undefined {
  return skills().get(id);
}
