/**
 * One game request in flight, as both game hosts keep it (the in-browser worker host and the remote
 * HTTP host): its replies' channel, the abort of its stream, the task id once the agent names it,
 * and the watchdog for a silent agent.
 */
import { ReplyChannel } from './reply-channel.ts';
import type { ReplyEvent } from './types.ts';

export interface OpenRequest {
  readonly requestId: string;
  readonly channel: ReplyChannel<ReplyEvent>;
  /** Aborts the stream read (a detach: only CancelTask stops the agent's work). */
  readonly abort: AbortController;
  taskId: string | undefined;
  /** Resolves once the task id is known, or once the request is settled without one. */
  readonly taskKnown: Promise<string | undefined>;
  resolveTask(id: string | undefined): void;
  watchdog: ReturnType<typeof setTimeout> | undefined;
}

export function openRequest(requestId: string): OpenRequest {
  let resolveTask!: (id: string | undefined) => void;
  const taskKnown = new Promise<string | undefined>((r) => (resolveTask = r));
  return { requestId, channel: new ReplyChannel<ReplyEvent>(), abort: new AbortController(), taskId: undefined, taskKnown, resolveTask, watchdog: undefined };
}

/** Settles the request: the watchdog stops, whoever waits for the task id gets it, the replies end or fail. */
export function settleRequest(req: OpenRequest, error?: unknown): void {
  clearTimeout(req.watchdog);
  req.watchdog = undefined;
  req.resolveTask(req.taskId);
  if (error === undefined) req.channel.end();
  else req.channel.fail(error);
}
