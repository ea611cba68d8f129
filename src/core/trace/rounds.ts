/**
 * Pure grouping of trace events into rounds (seed 000 §Trace).
 *
 * A round starts with a user input (`user_input` event, which carries the round's id). Every
 * other event is filed by, in order: its own `roundId`; the round that registered its
 * `requestId` (the A2A messageId: the round that sent the request, whenever the game-side
 * record arrives); otherwise the round running at the event's time. A game-side record whose
 * request id no round registered (yet) is an orphan.
 */
import { designOf, type DesignSession } from './designs.ts';
import { hasSecret, hideSecretFields, revealChecker, type Placed } from './redact.ts';
import type { TraceEvent } from './types.ts';

/** An event as stored: `seq` is its arrival order (IndexedDB key). */
export interface StoredTraceEvent extends TraceEvent {
  seq?: number;
}

export interface TraceRound {
  id: string;
  /** Epoch ms of the user input. */
  startedAt: number;
  /** Epoch ms of the end of its last event (late game records extend it). */
  endedAt: number;
  /** The user's words. */
  text: string;
  /** Chronological (time, then arrival). */
  events: StoredTraceEvent[];
}

export interface GroupedTrace {
  rounds: TraceRound[];
  /** The Studio's design sessions (records with a `design:` contextId), oldest first. */
  designs: DesignSession<StoredTraceEvent>[];
  orphans: StoredTraceEvent[];
}

/** requestId → roundId, from the `a2a_request` events that carry both. */
function requestsFromEvents(events: Iterable<TraceEvent>): Map<string, string> {
  const map = new Map<string, string>();
  for (const e of events) if (e.kind === 'a2a_request' && e.requestId && e.roundId) map.set(e.requestId, e.roundId);
  return map;
}

export function userText(e: TraceEvent): string {
  const d = e.data as { text?: unknown } | undefined;
  if (d && typeof d.text === 'string') return d.text;
  return e.name ?? '';
}

function byTime(a: StoredTraceEvent, b: StoredTraceEvent): number {
  return a.at - b.at || (a.seq ?? 0) - (b.seq ?? 0);
}

export function eventEnd(e: TraceEvent): number {
  return e.at + (e.durationMs ?? 0);
}

/**
 * Groups events into rounds. `requests` adds request registrations known elsewhere (the store's
 * request table); registrations found in the events themselves are always used.
 */
export function groupRounds(events: Iterable<StoredTraceEvent>, requests?: ReadonlyMap<string, string>): GroupedTrace {
  const all = [...events];
  const reqs = new Map(requests ?? []);
  for (const [k, v] of requestsFromEvents(all)) if (!reqs.has(k)) reqs.set(k, v);

  const rounds = new Map<string, TraceRound>();
  for (const e of all) {
    if (e.kind !== 'user_input' || !e.roundId || rounds.has(e.roundId)) continue;
    rounds.set(e.roundId, { id: e.roundId, startedAt: e.at, endedAt: e.at, text: userText(e), events: [] });
  }
  const timeline = [...rounds.values()].sort((a, b) => a.startedAt - b.startedAt);
  const orphans: StoredTraceEvent[] = [];

  const designs = new Map<string, DesignSession<StoredTraceEvent>>();
  for (const e of all) {
    const design = !e.roundId && !e.requestId ? designOf(e) : undefined;
    if (design) {
      const d = designs.get(design) ?? { id: design, startedAt: e.at, endedAt: e.at, events: [] };
      d.events.push(e);
      d.startedAt = Math.min(d.startedAt, e.at);
      d.endedAt = Math.max(d.endedAt, eventEnd(e));
      designs.set(design, d);
      continue;
    }
    const id = e.roundId ?? (e.requestId ? reqs.get(e.requestId) : undefined);
    let round = id ? rounds.get(id) : undefined;
    if (!round && !id && !e.requestId) round = roundAt(timeline, e.at);
    if (!round) {
      orphans.push(e);
      continue;
    }
    round.events.push(e);
  }
  for (const r of timeline) {
    r.events.sort(byTime);
    for (const e of r.events) r.endedAt = Math.max(r.endedAt, eventEnd(e));
  }
  for (const d of designs.values()) d.events.sort(byTime);
  return { rounds: timeline, designs: [...designs.values()].sort((a, b) => a.startedAt - b.startedAt), orphans: orphans.sort(byTime) };
}

/** The latest round started at or before `at`. */
function roundAt(timeline: TraceRound[], at: number): TraceRound | undefined {
  let found: TraceRound | undefined;
  for (const r of timeline) {
    if (r.startedAt <= at) found = r;
    else break;
  }
  return found;
}

/** An event as the view shows it. */
export interface ViewEvent extends StoredTraceEvent {
  /** true when a secret in `data` was replaced because it is not revealed yet. */
  secretHidden?: boolean;
}

export interface ViewRound extends Omit<TraceRound, 'events'> {
  events: ViewEvent[];
}

/**
 * The rounds as the trace view and the export show them: secrets not yet revealed are hidden
 * unless `showSecrets` (a parent's explicit choice). API keys never reach here (see redact.ts).
 */
export function viewRounds(rounds: readonly TraceRound[], opts: { showSecrets?: boolean } = {}): ViewRound[] {
  const placed: Placed<StoredTraceEvent>[] = [];
  rounds.forEach((r, roundIndex) => r.events.forEach((event) => placed.push({ roundIndex, event })));
  const revealed = revealChecker(placed);
  return rounds.map((r, roundIndex) => ({
    ...r,
    events: r.events.map((event) => {
      if (opts.showSecrets || !hasSecret(event.data) || revealed({ roundIndex, event })) return event;
      return { ...event, data: hideSecretFields(event.data), secretHidden: true };
    }),
  }));
}

export interface RoundSize {
  id: string;
  startedAt: number;
  bytes: number;
}

/**
 * Which rounds to delete so the total stays within `maxBytes`: the oldest first, never the
 * newest round (the one being played).
 */
export function roundsToPrune(rounds: readonly RoundSize[], maxBytes: number): string[] {
  const sorted = [...rounds].sort((a, b) => a.startedAt - b.startedAt);
  let total = sorted.reduce((n, r) => n + r.bytes, 0);
  const out: string[] = [];
  for (let i = 0; i < sorted.length - 1 && total > maxBytes; i++) {
    out.push(sorted[i].id);
    total -= sorted[i].bytes;
  }
  return out;
}

/** Approximate stored size of an event (UTF-16 JSON length × 2 is too pessimistic; UTF-8-ish). */
export function eventBytes(e: TraceEvent): number {
  const json = JSON.stringify(e);
  let n = 0;
  for (let i = 0; i < json.length; i++) n += json.charCodeAt(i) < 0x80 ? 1 : 3;
  return n;
}
