/**
 * The A2A AgentExecutor of a game agent: maps a GameHandler onto seed 000 §A2A 映射, one task per
 * request.
 *
 *   request  : one data part holding a GameInput (invalid → the task ends FAILED with the reason)
 *   ctx.say  : TaskStatusUpdateEvent WORKING, status.message = one GameReply (session active)
 *   return   : exactly one TaskStatusUpdateEvent COMPLETED carrying the final GameReply
 *   throw    : the task ends FAILED (detail in a text part, for the parent and the trace); a turn
 *              the handler gave up because it was cancelled (an `end` arrived) ends CANCELED
 *
 * Ordering is not done here: the handler (GameSessions) orders a session's turns. Cancellation:
 * every task has an AbortController; CancelTask aborts it and publishes CANCELED itself at once,
 * so a CancelTask never waits for a handler that is slow to notice its signal.
 */
import { TaskState, type Message } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { GameHandler } from '../core/protocol/handler.ts';
import { ReplySequence, fitReplyText, gameReply, parseGameReply, type GameInput, type GameReply } from '../core/protocol/game-protocol.ts';
import { budgetOf, colourOf, detailMessage, gameReplyMessage, readGameInput } from './game-parts.ts';

interface TurnRun {
  readonly taskId: string;
  readonly contextId: string;
  readonly bus: ExecutionEventBus;
  readonly controller: AbortController;
  /** A terminal status has been published; nothing more may be. */
  done: boolean;
}

type Outcome = { reply: GameReply } | { error: string; cancelled: boolean };

function isAbort(e: unknown): boolean {
  return (e as { name?: unknown } | null)?.name === 'AbortError';
}

export class GameExecutor implements AgentExecutor {
  private readonly runs = new Map<string, TurnRun>();

  constructor(private readonly handler: GameHandler) {}

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
    const run: TurnRun = { taskId, contextId, bus, controller: new AbortController(), done: false };
    let input: GameInput;
    try {
      if (ctx.task) throw new Error('one task per request: a GameInput must not continue an existing task');
      input = readGameInput(userMessage);
    } catch (e) {
      this.finish(run, TaskState.TASK_STATE_FAILED, detailMessage(`Invalid request: ${errorText(e)}`, taskId, contextId));
      return;
    }
    this.runs.set(taskId, run);
    try {
      const result = await this.runHandler(run, input, userMessage);
      if (run.done) return;
      if ('reply' in result) this.finish(run, TaskState.TASK_STATE_COMPLETED, gameReplyMessage(result.reply, taskId, contextId));
      else this.finish(run, result.cancelled ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED, detailMessage(result.error, taskId, contextId));
    } finally {
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
    // or CancelTask would wait for a terminal event that never comes.
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: {},
      }),
    );
  };

  private cancelRun(run: TurnRun, reason: string): void {
    if (run.done) return;
    run.controller.abort(new DOMException(reason, 'AbortError'));
    this.finish(run, TaskState.TASK_STATE_CANCELED, detailMessage(`Cancelled: ${reason}`, run.taskId, run.contextId));
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
        budgetMs: budgetOf(userMessage),
        colourMs: colourOf(userMessage),
      });
      const raw = typeof final === 'object' && final !== null ? final : { text: final };
      const text = typeof raw.text === 'string' ? fitReplyText(raw.text) : raw.text;
      return { reply: sequence.final(parseGameReply({ ...raw, text })) };
    } catch (e) {
      if (isAbort(e)) return { error: `Cancelled: ${errorText(e)}`, cancelled: true };
      return { error: `Game agent failed: ${errorText(e)}`, cancelled: false };
    }
  }
}

function now(): string {
  return new Date().toISOString();
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
