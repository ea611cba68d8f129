/**
 * The A2A AgentExecutor of a game agent: maps a GameHandler onto seed 000 §A2A 映射, one task per
 * request.
 *
 *   request  : one data part holding a GameInput (invalid → the task ends FAILED with the reason)
 *   ctx.say  : TaskStatusUpdateEvent WORKING, status.message = one GameReply (session active)
 *   return   : exactly one TaskStatusUpdateEvent COMPLETED carrying the final GameReply
 *   throw    : the task ends FAILED (detail in a text part, for the parent and the trace)
 *
 * Ordering: requests of one contextId run strictly in arrival order. An `end` cancels the turns of
 * its session that are still running or queued, then runs. Cancellation: every turn has an
 * AbortController; CancelTask aborts it and publishes CANCELED itself at once (running or still
 * queued), so a CancelTask never waits for a handler that ignores its signal.
 */
import { TaskState, type Message } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { GameHandler } from '../core/protocol/handler.ts';
import {
  ReplySequence,
  fitReplyText,
  gameReply,
  parseGameReply,
  type GameInput,
  type GameReply,
} from '../core/protocol/game-protocol.ts';
import { detailMessage, gameReplyMessage, readGameInput } from './game-parts.ts';

export interface GameExecutorOptions {
  /**
   * After a turn is cancelled, how long the next turn of the same session waits for the cancelled
   * handler to settle before it runs anyway (a handler that ignores its signal must not block the
   * session forever).
   */
  cancelGraceMs?: number;
}

interface TurnRun {
  readonly taskId: string;
  readonly contextId: string;
  readonly bus: ExecutionEventBus;
  readonly controller: AbortController;
  /** A terminal status has been published; nothing more may be. */
  done: boolean;
  /** Resolves when the turn was cancelled. */
  readonly cancelled: Promise<void>;
  cancel(): void;
  /** Resolves when the next turn of the session may start. */
  readonly released: Promise<void>;
  release(): void;
}

interface Session {
  tail: Promise<void>;
  /** Turns of this session not yet finished (running or queued), in arrival order. */
  readonly pending: Set<TurnRun>;
}

type Outcome = { reply: GameReply } | { error: string };

export class GameExecutor implements AgentExecutor {
  private readonly runs = new Map<string, TurnRun>();
  private readonly sessions = new Map<string, Session>();
  private readonly cancelGraceMs: number;

  constructor(
    private readonly handler: GameHandler,
    opts: GameExecutorOptions = {},
  ) {
    this.cancelGraceMs = opts.cancelGraceMs ?? 2000;
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const userMessage = ctx.userMessage;
    // The first event of a stream must be the Task.
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [userMessage],
        metadata: {},
      }),
    );
    const run = newRun(taskId, contextId, bus);
    let input: GameInput;
    try {
      if (ctx.task) throw new Error('one task per request: a GameInput must not continue an existing task');
      input = readGameInput(userMessage);
    } catch (e) {
      this.finish(run, TaskState.TASK_STATE_FAILED, detailMessage(`Invalid request: ${errorText(e)}`, taskId, contextId));
      return;
    }

    this.runs.set(taskId, run);
    const session = this.session(contextId);
    if (input.kind === 'end') for (const earlier of session.pending) this.cancelRun(earlier, 'the session is ending (end arrived)');
    session.pending.add(run);
    const previous = session.tail;
    session.tail = run.released;
    void run.released.then(() => {
      if (session.tail === run.released) this.sessions.delete(contextId);
    });

    try {
      await Promise.race([previous, run.cancelled]);
      if (run.done) {
        // Cancelled while queued: keep the session's order by passing the turn on only when ours comes.
        void previous.then(run.release);
        return;
      }
      const outcome = this.runHandler(run, input, userMessage);
      void outcome.then(run.release);
      void run.cancelled.then(() => setTimeout(run.release, this.cancelGraceMs));
      const result = await Promise.race([outcome, run.cancelled.then(() => undefined)]);
      if (!result || run.done) return;
      if ('reply' in result) {
        this.finish(run, TaskState.TASK_STATE_COMPLETED, gameReplyMessage(result.reply, taskId, contextId));
      } else {
        this.finish(run, TaskState.TASK_STATE_FAILED, detailMessage(result.error, taskId, contextId));
      }
    } finally {
      session.pending.delete(run);
      this.runs.delete(taskId);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.runs.get(taskId);
    if (run) {
      this.cancelRun(run, 'cancelled by the client (CancelTask)');
      return;
    }
    // No turn of ours is open for this task, yet the SDK still has a live bus for it: end it here,
    // or CancelTask would wait for a terminal event that never comes (research/a2a.md §2).
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: {},
      }),
    );
  };

  private session(contextId: string): Session {
    let s = this.sessions.get(contextId);
    if (!s) {
      s = { tail: Promise.resolve(), pending: new Set() };
      this.sessions.set(contextId, s);
    }
    return s;
  }

  private cancelRun(run: TurnRun, reason: string): void {
    if (run.done) return;
    run.controller.abort(new DOMException(reason, 'AbortError'));
    this.finish(run, TaskState.TASK_STATE_CANCELED, detailMessage(`Cancelled: ${reason}`, run.taskId, run.contextId));
    run.cancel();
  }

  private finish(run: TurnRun, state: TaskState, message: Message): void {
    if (run.done) return;
    run.done = true;
    run.bus.publish(
      AgentEvent.statusUpdate({
        taskId: run.taskId,
        contextId: run.contextId,
        status: { state, message, timestamp: now() },
        metadata: {},
      }),
    );
  }

  /** Runs the handler; never rejects. */
  private async runHandler(run: TurnRun, input: GameInput, userMessage: Message): Promise<Outcome> {
    const sequence = new ReplySequence();
    const say = (text: string): void => {
      if (run.done) return; // a late say of a finished or cancelled turn goes nowhere
      const reply = sequence.intermediate(gameReply(fitReplyText(String(text)), 'active'));
      run.bus.publish(
        AgentEvent.statusUpdate({
          taskId: run.taskId,
          contextId: run.contextId,
          status: {
            state: TaskState.TASK_STATE_WORKING,
            message: gameReplyMessage(reply, run.taskId, run.contextId),
            timestamp: now(),
          },
          metadata: {},
        }),
      );
    };
    try {
      const final = await this.handler.handle(input, {
        contextId: run.contextId,
        requestId: userMessage.messageId,
        signal: run.controller.signal,
        say,
      });
      const raw = typeof final === 'object' && final !== null ? final : { text: final };
      const text = typeof raw.text === 'string' ? fitReplyText(raw.text) : raw.text;
      return { reply: sequence.final(parseGameReply({ ...raw, text })) };
    } catch (e) {
      return { error: `Game agent failed: ${errorText(e)}` };
    }
  }
}

function newRun(taskId: string, contextId: string, bus: ExecutionEventBus): TurnRun {
  let cancel!: () => void;
  let release!: () => void;
  const cancelled = new Promise<void>((r) => (cancel = r));
  const released = new Promise<void>((r) => (release = r));
  return { taskId, contextId, bus, controller: new AbortController(), done: false, cancelled, cancel, released, release };
}

function now(): string {
  return new Date().toISOString();
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
