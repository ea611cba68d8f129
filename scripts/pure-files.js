// The one list of pure files (no I/O, no clock, no randomness; they import only other pure files).
// Read by every checker: ESLint (eslint.config.js and its plugin scripts/eslint-pure-boundary.js),
// the neutral-platform bundle check (scripts/check-core.ts) and the folder rules (scripts/check-deps.ts).

/** The pure folder: everything under it is pure. */
export const PURE_DIR = 'src/core/';

/** A game's pure files, by name, in its folder skills/<id>/ (its rules and the data they read). */
export const PURE_GAME_FILE_NAMES = ['rules', 'numbers', 'animals', 'summary', 'truth', 'reader'];

/** The pure files as globs (ESLint `files`). */
export const PURE_FILES = [`${PURE_DIR}**/*.ts`, ...PURE_GAME_FILE_NAMES.map((n) => `skills/*/${n}.ts`)];

/** A repository path (`/`-separated) of a game's pure file. */
export const PURE_GAME_FILE = new RegExp(`^skills/[^/]+/(${PURE_GAME_FILE_NAMES.join('|')})\\.ts$`);

/** Data a pure file may import (JSON, or markdown as text). */
export const PURE_DATA_FILE = /\.(json|md)$/;

/** Whether a repository path is a pure module or data a pure module may read. */
export function isPurePath(path) {
  return path.startsWith(PURE_DIR) || PURE_GAME_FILE.test(path) || PURE_DATA_FILE.test(path);
}
