/**
 * Reading one request's A2A stream as desktop-game/5 replies (seed 000 §A2A 映射), the same for every
 * GameClient (game workers over the MessagePort, remote agents over HTTP): the Task first, WORKING
 * status updates carry intermediate replies, COMPLETED carries exactly one final reply, FAILED /
 * REJECTED / CANCELED end the request with an error. Anything else is a ProtocolError.
 */
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ProtocolError, ReplySequence } from '../core/protocol/game-protocol.ts';
import { readGameReply, statusDetail } from './game-parts.ts';
import type { ReplyChannel } from './reply-channel.ts';
import { GameRequestError, type ReplyEvent } from './types.ts';

export type StreamStep = { type: 'none' } | { type: 'reply'; event: ReplyEvent } | { type: 'failed'; error: GameRequestError };

const NONE: StreamStep = { type: 'none' };

export class ReplyStreamReader {
  /** The request's task, once the stream named it. */
  taskId: string | undefined;
  private readonly seq = new ReplySequence();

  constructor(private readonly gameId: string) {}

  /** One stream item. Throws ProtocolError for what desktop-game/5 does not allow. */
  read(ev: StreamResponse): StreamStep {
    const p = ev.payload;
    if (!p) return NONE;
    if (p.$case === 'message') throw new ProtocolError('a game agent must answer with a task, not a bare message', 'payload');
    if (p.$case === 'artifactUpdate') return NONE;
    const taskId = p.$case === 'task' ? p.value.id : p.value.taskId;
    if (!this.taskId && taskId) this.taskId = taskId;
    const status = p.value.status;
    if (!status) return NONE;
    switch (status.state) {
      case TaskState.TASK_STATE_SUBMITTED:
        return NONE;
      case TaskState.TASK_STATE_WORKING:
        if (p.$case === 'statusUpdate' && status.message)
          return { type: 'reply', event: { reply: this.seq.intermediate(readGameReply(status.message)), final: false } };
        return NONE;
      case TaskState.TASK_STATE_COMPLETED:
        return { type: 'reply', event: { reply: this.seq.final(readGameReply(status.message)), final: true } };
      case TaskState.TASK_STATE_FAILED:
      case TaskState.TASK_STATE_REJECTED:
        return { type: 'failed', error: new GameRequestError('game_failed', statusDetail(status.message) || `The game ${this.gameId} failed this request`) };
      case TaskState.TASK_STATE_CANCELED:
        return { type: 'failed', error: new GameRequestError('game_cancelled', statusDetail(status.message) || 'The request was cancelled') };
      default:
        throw new ProtocolError(`unexpected task state ${TaskState[status.state] ?? status.state}`, 'status');
    }
  }

  /** A task read back with GetTask (after its stream broke): its state as a stream step. */
  readTask(task: Task): StreamStep {
    return this.read({ payload: { $case: 'task', value: task } });
  }
}

/** What a GameClient keeps of an open request that a stream step is applied to. */
export interface OpenReplies {
  taskId: string | undefined;
  resolveTask(id: string | undefined): void;
  readonly channel: ReplyChannel<ReplyEvent>;
}

/**
 * Applies one step to an open request: the task id once known, a reply into its channel, and the
 * request settled by `finish` after the final reply (no error) or a failed task (its error).
 */
export function applyStep<R extends OpenReplies>(req: R, reader: ReplyStreamReader, step: StreamStep, finish: (req: R, error?: GameRequestError) => void): void {
  if (!req.taskId && reader.taskId) {
    req.taskId = reader.taskId;
    req.resolveTask(reader.taskId);
  }
  if (step.type === 'reply') {
    req.channel.push(step.event);
    if (step.event.final) finish(req);
  } else if (step.type === 'failed') finish(req, step.error);
}
