/**
 * The catalogue of errors a user can meet: a stable code, what the child hears (Chinese, short,
 * warm) and what the parent reads (detail). Each area keeps its entries in its own file and
 * they are merged here, so the list is one place to audit.
 */
interface ErrorEntry {
  /** Spoken / shown to the child. */
  child: string;
  /**
   * Other ways to say `child`, meaning exactly the same (a line said again and again sounds broken):
   * a LineRotation takes turns among them.
   */
  also?: readonly string[];
  /** Shown to the parent (settings, trace). */
  parent: string;
}

export type ErrorTable = Record<string, ErrorEntry>;

import { generalErrors } from './general.ts';

const tables: ErrorTable[] = [generalErrors];

const catalogue: ErrorTable = Object.assign({}, ...tables);

/** Registers an area's table (called by each area's errors.ts at import). */
export function registerErrors(table: ErrorTable): void {
  for (const [code, entry] of Object.entries(table)) {
    if (catalogue[code] && catalogue[code] !== entry) throw new Error(`duplicate error code ${code}`);
    catalogue[code] = entry;
  }
}

export class AgentcadeError extends Error {
  override name = 'AgentcadeError';
  constructor(
    readonly code: string,
    detail?: string,
    options?: { cause?: unknown },
  ) {
    super(detail ?? catalogue[code]?.parent ?? code, options);
  }
  get child(): string {
    return catalogue[this.code]?.child ?? catalogue['unknown'].child;
  }
}

export function describe(code: string): ErrorEntry {
  return catalogue[code] ?? catalogue['unknown'];
}

/** Every way the child may hear a code's sentence (`child` first), or [] when the code is not in the catalogue. */
export function childLines(code: string | undefined): string[] {
  const e = code !== undefined ? catalogue[code] : undefined;
  return e ? [e.child, ...(e.also ?? [])] : [];
}

/** Every registered entry (the areas' errors.ts files must have been imported), for audits. */
export function catalogueEntries(): Array<[string, ErrorEntry]> {
  return Object.entries(catalogue);
}

/** The child's sentence of a catalogued code, or undefined when the code is not in the catalogue. */
export function childSentence(code: string | undefined): string | undefined {
  return code !== undefined ? catalogue[code]?.child : undefined;
}

/** Every child sentence registered so far (what the robot may say when something goes wrong). */
export function allChildSentences(): string[] {
  return [...new Set(Object.values(catalogue).map((e) => e.child))];
}
