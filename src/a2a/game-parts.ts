/**
 * The A2A side of `desktop-game/5` (seed 000 §A2A 映射): a GameInput or GameReply travels as the one
 * data part of an A2A Message. Only `data` (and `text` for error details) parts are used:
 * `raw` parts need Node's Buffer, which a browser worker does not have.
 */
import { Role, type Message, type Part } from '@a2a-js/sdk';
import {
  ProtocolError,
  parseGameInput,
  parseGameReply,
  type GameInput,
  type GameReply,
} from '../core/protocol/game-protocol.ts';

export const JSON_MEDIA = 'application/json';

export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: JSON_MEDIA, filename: '', metadata: undefined };
}

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined };
}

function message(role: Role, parts: Part[], ids: { messageId?: string; contextId: string; taskId?: string }, metadata?: Record<string, unknown>): Message {
  return {
    messageId: ids.messageId ?? crypto.randomUUID(),
    contextId: ids.contextId,
    taskId: ids.taskId ?? '',
    role,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The metadata key of a request's time budget (ms from its arrival; see GameRequestOptions.budgetMs). */
export const BUDGET_KEY = 'agentcade.budgetMs';

/** The metadata key of a request's colour window (ms; see GameRequestOptions.colourMs). */
export const COLOUR_KEY = 'agentcade.colourMs';

const whole = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? Math.max(0, Math.round(v)) : undefined);

/** Main → game: `messageId` is the request id, `contextId` the game session, and the turn's time budget and colour window if known. */
export function gameInputMessage(input: GameInput, contextId: string, requestId: string, budgetMs?: number, colourMs?: number): Message {
  const entries = Object.entries({ [BUDGET_KEY]: whole(budgetMs), [COLOUR_KEY]: whole(colourMs) }).filter(([, v]) => v !== undefined);
  const metadata = entries.length ? Object.fromEntries(entries) : undefined;
  return message(Role.ROLE_USER, [dataPart(input)], { messageId: requestId, contextId }, metadata);
}

function metadataNumber(msg: Message | undefined, key: string): number | undefined {
  const v = (msg?.metadata as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** The time budget a request carries, if any. */
export function budgetOf(msg: Message | undefined): number | undefined {
  return metadataNumber(msg, BUDGET_KEY);
}

/** The colour window a request carries, if any. */
export function colourOf(msg: Message | undefined): number | undefined {
  return metadataNumber(msg, COLOUR_KEY);
}

/** Game → main: one GameReply in `status.message`. */
export function gameReplyMessage(reply: GameReply, taskId: string, contextId: string): Message {
  return message(Role.ROLE_AGENT, [dataPart(reply)], { taskId, contextId });
}

/** A human-readable detail for FAILED / CANCELED statuses (for the parent and the trace, never spoken). */
export function detailMessage(text: string, taskId: string, contextId: string): Message {
  return message(Role.ROLE_AGENT, [textPart(text)], { taskId, contextId });
}

function onlyDataPart(msg: Message | undefined, what: string): unknown {
  const parts = msg?.parts ?? [];
  if (parts.length !== 1 || parts[0].content?.$case !== 'data')
    throw new ProtocolError(`${what} must be exactly one data part, got ${describeParts(parts)}`, 'parts');
  return parts[0].content.value;
}

function describeParts(parts: Part[]): string {
  if (parts.length === 0) return 'no parts';
  return parts.map((p) => p.content?.$case ?? 'empty').join(', ') + ` (${parts.length} part${parts.length > 1 ? 's' : ''})`;
}

/** Validates the GameInput of an incoming request (throws ProtocolError with a clear message). */
export function readGameInput(msg: Message | undefined): GameInput {
  return parseGameInput(onlyDataPart(msg, 'A desktop-game/5 request'));
}

/** Validates the GameReply of a status message (throws ProtocolError with a clear message). */
export function readGameReply(msg: Message | undefined): GameReply {
  return parseGameReply(onlyDataPart(msg, 'A desktop-game/5 reply'));
}

/** The text parts of a status message joined (error details of FAILED / CANCELED tasks). */
export function statusDetail(msg: Message | undefined): string {
  return (msg?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .filter(Boolean)
    .join(' ');
}
