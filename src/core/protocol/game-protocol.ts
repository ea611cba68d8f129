/**
 * The `desktop-game/5` messages (seed 000 §通信格式) and their validation.
 * Every boundary that receives a GameInput or produces a GameReply goes through here;
 * an invalid message is rejected with a ProtocolError, never passed on.
 */
export const PROTOCOL = 'desktop-game/5' as const;
const REPLY_MAX_CHARS = 500;

export type GameInputKind = 'start' | 'message' | 'end';
export type SessionStatus = 'active' | 'ended';

export interface GameInput {
  protocol: typeof PROTOCOL;
  kind: GameInputKind;
  /** The user's original words, unchanged. Empty only for the `end` sent when the app exits. */
  text: string;
}

export interface GameReply {
  protocol: typeof PROTOCOL;
  /** 1..500 characters, spoken as is. */
  text: string;
  session: SessionStatus;
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const KINDS: readonly GameInputKind[] = ['start', 'message', 'end'];
const SESSIONS: readonly SessionStatus[] = ['active', 'ended'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Count characters as a person would (code points, so an emoji is one). */
function charCount(text: string): number {
  return Array.from(text).length;
}

export function parseGameInput(value: unknown): GameInput {
  if (!isRecord(value)) throw new ProtocolError('GameInput must be a JSON object', '$');
  if (value.protocol !== PROTOCOL)
    throw new ProtocolError(`GameInput.protocol must be "${PROTOCOL}", got ${JSON.stringify(value.protocol)}`, 'protocol');
  if (!KINDS.includes(value.kind as GameInputKind))
    throw new ProtocolError(`GameInput.kind must be one of ${KINDS.join('|')}, got ${JSON.stringify(value.kind)}`, 'kind');
  if (typeof value.text !== 'string') throw new ProtocolError('GameInput.text must be a string', 'text');
  const kind = value.kind as GameInputKind;
  if (value.text.trim() === '' && kind !== 'end')
    throw new ProtocolError(`GameInput.text may be empty only for "end", not for "${kind}"`, 'text');
  return { protocol: PROTOCOL, kind, text: value.text };
}

export function parseGameReply(value: unknown): GameReply {
  if (!isRecord(value)) throw new ProtocolError('GameReply must be a JSON object', '$');
  if (value.protocol !== PROTOCOL)
    throw new ProtocolError(`GameReply.protocol must be "${PROTOCOL}", got ${JSON.stringify(value.protocol)}`, 'protocol');
  if (typeof value.text !== 'string') throw new ProtocolError('GameReply.text must be a string', 'text');
  const n = charCount(value.text);
  if (value.text.trim() === '' || n > REPLY_MAX_CHARS)
    throw new ProtocolError(`GameReply.text must be 1..${REPLY_MAX_CHARS} characters, got ${n}`, 'text');
  if (!SESSIONS.includes(value.session as SessionStatus))
    throw new ProtocolError(`GameReply.session must be active|ended, got ${JSON.stringify(value.session)}`, 'session');
  return { protocol: PROTOCOL, text: value.text, session: value.session as SessionStatus };
}

export function gameInput(kind: GameInputKind, text: string): GameInput {
  return parseGameInput({ protocol: PROTOCOL, kind, text });
}

export function gameReply(text: string, session: SessionStatus = 'active'): GameReply {
  return parseGameReply({ protocol: PROTOCOL, text, session });
}

/**
 * Fit any text into a valid reply: trims, and cuts at the last sentence end before
 * 500 characters (a game's long sentence must still be spoken, not rejected).
 */
export function fitReplyText(text: string): string {
  const chars = Array.from(text.trim());
  if (chars.length <= REPLY_MAX_CHARS) return chars.join('');
  const cut = chars.slice(0, REPLY_MAX_CHARS);
  for (let i = cut.length - 1; i > REPLY_MAX_CHARS / 2; i--) {
    if ('。！？!?；;'.includes(cut[i])) return cut.slice(0, i + 1).join('');
  }
  return cut.join('');
}

/**
 * Guards the rule "only the last reply of a request may be `ended`" where replies are produced:
 * intermediate replies are always `active`; an intermediate `ended` is an error of the producer.
 */
export class ReplySequence {
  private finished = false;
  intermediate(reply: GameReply): GameReply {
    if (this.finished) throw new ProtocolError('no reply may follow the final reply of a request', 'session');
    if (reply.session === 'ended')
      throw new ProtocolError('only the last reply of a request may have session "ended"', 'session');
    return reply;
  }
  final(reply: GameReply): GameReply {
    if (this.finished) throw new ProtocolError('a request has exactly one final reply', 'session');
    this.finished = true;
    return reply;
  }
  get done(): boolean {
    return this.finished;
  }
}
