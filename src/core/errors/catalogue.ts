/**
 * The catalogue of errors a user can meet: a stable code, what the child hears (Chinese, short,
 * warm) and what the parent reads (detail). Data only: each area's table is a file beside this one,
 * merged here once, so the list is one place to audit and `ErrorCode` (the union of every code) is
 * declared once — a misspelt code does not compile. Nothing registers at run time.
 */
import { a2aErrors } from './a2a.ts';
import { mainAgentErrors } from './arcade.ts';
import { gameErrors } from './games.ts';
import { generalErrors } from './general.ts';
import { modelErrors } from './llm.ts';
import { robotErrors } from './robot.ts';
import { studioPlayErrors } from './studio-play.ts';
import { studioErrors } from './studio.ts';
import type { ErrorEntry, ErrorTable } from './types.ts';

export type { ErrorEntry, ErrorTable };

/** Every area's table by area, in the catalogue's order (a code belongs to one area only). */
export const ERROR_TABLES = {
  general: generalErrors,
  arcade: mainAgentErrors,
  a2a: a2aErrors,
  games: gameErrors,
  llm: modelErrors,
  robot: robotErrors,
  studio: studioErrors,
  'studio-play': studioPlayErrors,
} as const;

const CATALOGUE = {
  ...generalErrors,
  ...mainAgentErrors,
  ...a2aErrors,
  ...gameErrors,
  ...modelErrors,
  ...robotErrors,
  ...studioErrors,
  ...studioPlayErrors,
} satisfies ErrorTable;

/** Every code of the catalogue. */
export type ErrorCode = keyof typeof CATALOGUE;

const entries: ReadonlyMap<string, ErrorEntry> = new Map(Object.entries(CATALOGUE));

/** Whether a code read from elsewhere (a worker's message, a stored record) is in the catalogue. */
export function isErrorCode(code: string | undefined): code is ErrorCode {
  return code !== undefined && entries.has(code);
}

export class AgentcadeError extends Error {
  override name = 'AgentcadeError';
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    options?: { cause?: unknown },
  ) {
    super(detail ?? CATALOGUE[code].parent, options);
  }
  get child(): string {
    return CATALOGUE[this.code].child;
  }
}

export function describe(code: ErrorCode): ErrorEntry {
  return CATALOGUE[code];
}

/** The entry of a code read from elsewhere, or the `unknown` entry when it is not in the catalogue. */
export function describeAny(code: string | undefined): ErrorEntry {
  return isErrorCode(code) ? CATALOGUE[code] : CATALOGUE.unknown;
}

/** Every way the child may hear a code's sentence (`child` first), or [] when the code is not in the catalogue. */
export function childLines(code: string | undefined): string[] {
  const e = code !== undefined ? entries.get(code) : undefined;
  return e ? [e.child, ...(e.also ?? [])] : [];
}

/** Every entry, in the catalogue's order, for audits. */
export function catalogueEntries(): Array<[ErrorCode, ErrorEntry]> {
  return Object.entries(CATALOGUE) as Array<[ErrorCode, ErrorEntry]>;
}

/** The child's sentence of a catalogued code, or undefined when the code is not in the catalogue. */
export function childSentence(code: string | undefined): string | undefined {
  return code !== undefined ? entries.get(code)?.child : undefined;
}

/** Every child sentence of the catalogue (what the robot may say when something goes wrong). */
export function allChildSentences(): string[] {
  return [...new Set(Object.values(CATALOGUE).map((e: ErrorEntry) => e.child))];
}
