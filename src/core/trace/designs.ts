/**
 * Design sessions in the trace: the Studio's model steps carry `contextId` `design:<projectId>`
 * (the design being worked on), so 记录 shows them under their design, apart from the arcade's
 * rounds — never filed into whatever round the child played last. Pure.
 */
import type { TraceEvent } from './types.ts';

const PREFIX = 'design:';

/** The contextId of a design session's records. */
export function designContext(projectId: string): string {
  return `${PREFIX}${projectId}`;
}

/** The design (project id) a record belongs to, if it is a design session's. */
export function designOf(e: Pick<TraceEvent, 'contextId'>): string | undefined {
  return e.contextId?.startsWith(PREFIX) ? e.contextId.slice(PREFIX.length) : undefined;
}

export interface DesignSession<E extends TraceEvent = TraceEvent> {
  /** The project id. */
  id: string;
  startedAt: number;
  endedAt: number;
  events: E[];
}
