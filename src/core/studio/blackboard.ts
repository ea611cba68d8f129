/**
 * The tag blackboard of one Session (seed 004 §1, §9): a pool of tags (`设计.*` in design,
 * `运行.*` in play), each with its value, its status and its provenance. Pure and immutable:
 * every operation returns a new board or a `BoardError`, so a refused write changes nothing.
 *
 * Guards (the blackboard's "beforeChange"):
 * - only the user accepts, rejects or edits a design fact;
 * - a helper's submit writes only the output tags its skill declares, and only tags of the package;
 * - the agent never writes (it has no write operation at all; it acts through boundary tools);
 * - `运行.*` tags follow the package's play policy: written by run helpers / the runtime, live at once.
 *
 * A redo over an accepted design fact: the helper's new draft does not erase the user's decision.
 * The entry keeps the earlier fact in `accepted`; while the redo draft is pending the tag counts as
 * not accepted (so it is not "ready" and helpers do not read it), accepting or editing the draft
 * replaces the fact, and rejecting it puts the earlier fact back in force (status accepted).
 */
type TagStatus = 'draft' | 'accepted' | 'rejected';
type Actor = 'user' | 'agent' | 'helper' | 'runtime';

interface Provenance {
  by: Actor;
  helperId?: string;
  skill?: string;
  /** Manager burst number (counted per session) in which the helper was invoked. */
  burst?: number;
  at: number;
}

interface Rejection {
  reason: string;
  value: unknown;
  at: number;
  provenance: Provenance;
}

/** A user-accepted value kept aside while a redo draft of the same tag waits for the user. */
interface AcceptedFact {
  value: unknown;
  provenance: Provenance;
  decidedAt?: number;
  editedByUser?: boolean;
}

export interface TagEntry {
  name: string;
  value: unknown;
  status: TagStatus;
  provenance: Provenance;
  /** When the status last became accepted, and by whom. */
  decidedAt?: number;
  editedByUser?: boolean;
  /** Every rejected draft of this tag, oldest first (the helper redoing it reads the last reason). */
  rejections: Rejection[];
  revision: number;
  /** The earlier accepted fact, while this entry is a redo draft over it (restored if the draft is rejected). */
  accepted?: AcceptedFact;
}

export interface Blackboard {
  /** Declared tag names of the package; anything else is refused. */
  declared: string[];
  tags: Record<string, TagEntry>;
}

export class BoardError extends Error {
  override name = 'BoardError';
  constructor(
    readonly code: 'not_user' | 'undeclared_output' | 'unknown_tag' | 'not_draft' | 'empty_reason' | 'wrong_namespace' | 'agent_write',
    message: string,
  ) {
    super(message);
  }
}

export function emptyBoard(declared: Iterable<string>): Blackboard {
  return { declared: [...declared], tags: {} };
}

function put(board: Blackboard, entry: TagEntry): Blackboard {
  return { ...board, tags: { ...board.tags, [entry.name]: entry } };
}

function requireDeclared(board: Blackboard, tag: string): void {
  if (!board.declared.includes(tag)) throw new BoardError('unknown_tag', `标签「${tag}」不在这个技能包的标签表里`);
}

export interface Submission {
  helperId: string;
  skill: string;
  burst: number;
  at: number;
  /** The skill's declared output tags (from the manifest, never from the helper). */
  declaredWrites: readonly string[];
  values: Record<string, unknown>;
}

/**
 * A helper's `submit`: design tags become drafts waiting for the user; play tags are live at once.
 * All-or-nothing: one undeclared tag refuses the whole submission.
 */
export function submit(board: Blackboard, s: Submission): Blackboard {
  const names = Object.keys(s.values);
  for (const t of names) {
    requireDeclared(board, t);
    if (!s.declaredWrites.includes(t))
      throw new BoardError('undeclared_output', `skill「${s.skill}」没有声明输出标签「${t}」，只能写：${s.declaredWrites.join('、')}`);
  }
  let next = board;
  for (const t of names) {
    const prev = board.tags[t];
    const live = t.startsWith('运行.');
    const kept = live ? undefined : prev?.status === 'accepted' ? factOf(prev) : prev?.accepted;
    next = put(next, {
      name: t,
      value: s.values[t],
      status: live ? 'accepted' : 'draft',
      provenance: { by: 'helper', helperId: s.helperId, skill: s.skill, burst: s.burst, at: s.at },
      decidedAt: live ? s.at : undefined,
      rejections: prev?.rejections ?? [],
      revision: (prev?.revision ?? 0) + 1,
      ...(kept ? { accepted: kept } : {}),
    });
  }
  return next;
}

function factOf(e: TagEntry): AcceptedFact {
  return { value: e.value, provenance: e.provenance, decidedAt: e.decidedAt, ...(e.editedByUser ? { editedByUser: true } : {}) };
}

/** The entry without the kept earlier fact (the user has decided on the draft). */
function decided(e: TagEntry): TagEntry {
  const { accepted: _kept, ...rest } = e;
  return rest;
}

/** A value the runtime records on the user's behalf (their own words): accepted, the user is the author. */
export function recordUserFact(board: Blackboard, tag: string, value: unknown, at: number): Blackboard {
  requireDeclared(board, tag);
  const prev = board.tags[tag];
  return put(board, { name: tag, value, status: 'accepted', provenance: { by: 'user', at }, decidedAt: at, rejections: prev?.rejections ?? [], revision: (prev?.revision ?? 0) + 1 });
}

/** A `运行.*` value written by the runtime itself (e.g. the player's input). */
export function recordRuntimeFact(board: Blackboard, tag: string, value: unknown, at: number): Blackboard {
  requireDeclared(board, tag);
  if (!tag.startsWith('运行.')) throw new BoardError('wrong_namespace', `运行时只能直接写「运行.*」标签，不能写「${tag}」`);
  const prev = board.tags[tag];
  return put(board, { name: tag, value, status: 'accepted', provenance: { by: 'runtime', at }, decidedAt: at, rejections: prev?.rejections ?? [], revision: (prev?.revision ?? 0) + 1 });
}

function requireUserDraft(board: Blackboard, tag: string, actor: Actor, verb: string): TagEntry {
  if (actor !== 'user') throw new BoardError('not_user', `只有家长可以${verb}「${tag}」（${actor} 不行）`);
  requireDeclared(board, tag);
  const e = board.tags[tag];
  if (!e || e.status !== 'draft') throw new BoardError('not_draft', `「${tag}」现在没有待验收的草稿`);
  return e;
}

export function accept(board: Blackboard, tag: string, actor: Actor, at: number): Blackboard {
  const e = requireUserDraft(board, tag, actor, '采用');
  return put(board, { ...decided(e), status: 'accepted', decidedAt: at });
}

export function reject(board: Blackboard, tag: string, reason: string, actor: Actor, at: number): Blackboard {
  const e = requireUserDraft(board, tag, actor, '驳回');
  if (!reason.trim()) throw new BoardError('empty_reason', '驳回时请写一句理由，会按理由重做');
  const rejections = [...e.rejections, { reason: reason.trim(), value: e.value, at, provenance: e.provenance }];
  // A rejected redo leaves the earlier accepted fact in force: only the user decides facts.
  if (e.accepted) return put(board, { ...decided(e), ...e.accepted, editedByUser: e.accepted.editedByUser, status: 'accepted', rejections, revision: e.revision + 1 });
  return put(board, { ...e, status: 'rejected', decidedAt: at, rejections });
}

/** The user edits a draft and thereby accepts their edited value. */
export function editAndAccept(board: Blackboard, tag: string, value: unknown, actor: Actor, at: number): Blackboard {
  const e = requireUserDraft(board, tag, actor, '修改');
  return put(board, { ...decided(e), value, status: 'accepted', decidedAt: at, editedByUser: true, revision: e.revision + 1 });
}

export function isAccepted(board: Blackboard, tag: string): boolean {
  return board.tags[tag]?.status === 'accepted';
}

export function acceptedValue<T = unknown>(board: Blackboard, tag: string): T | undefined {
  const e = board.tags[tag];
  return e?.status === 'accepted' ? (e.value as T) : undefined;
}
