// Types of scripts/pure-files.js (plain JavaScript so that eslint.config.js can read it).
export const PURE_DIR: string;
export const PURE_GAME_FILE_NAMES: readonly string[];
export const PURE_FILES: string[];
export const PURE_GAME_FILE: RegExp;
export const PURE_DATA_FILE: RegExp;
export function isPurePath(path: string): boolean;
