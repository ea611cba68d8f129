/**
 * A TaskStore that keeps every live task and only the most recent N finished ones (seed 000 §Trace:
 * "已完成的 A2A Task 默认保留最近 64 个"). The SDK's InMemoryTaskStore never evicts and has no
 * delete, so this is our own small Map. One store per game worker, so tasks are not scoped by
 * tenant or user.
 */
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

export const DEFAULT_MAX_FINISHED_TASKS = 64;

const FINISHED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

function isFinished(task: Pick<Task, 'status'>): boolean {
  return task.status !== undefined && FINISHED.has(task.status.state);
}

export class BoundedTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Task>();
  /** Finished task ids, oldest first (a Map keeps insertion order). */
  private readonly finished = new Map<string, true>();

  constructor(readonly maxFinished: number = DEFAULT_MAX_FINISHED_TASKS) {
    if (!Number.isInteger(maxFinished) || maxFinished < 1)
      throw new RangeError(`maxFinished must be a positive integer, got ${maxFinished}`);
  }

  async save(task: Task, _context?: ServerCallContext): Promise<void> {
    this.tasks.set(task.id, structuredClone(task));
    if (isFinished(task)) {
      // A finished task saved again (e.g. by the cancel path) stays at its place in the order.
      if (!this.finished.has(task.id)) this.finished.set(task.id, true);
      this.evict();
    } else {
      this.finished.delete(task.id);
    }
  }

  async load(taskId: string, _context?: ServerCallContext): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }

  /** Plain offset paging (the SDK's store encodes page tokens with Buffer, absent in workers). */
  async list(params: ListTasksRequest, _context?: ServerCallContext): Promise<ListTasksResponse> {
    const wanted = [...this.tasks.values()].filter(
      (t) =>
        (!params.contextId || t.contextId === params.contextId) &&
        (!params.status || t.status?.state === params.status) &&
        (!params.statusTimestampAfter || (t.status?.timestamp ?? '') > params.statusTimestampAfter),
    );
    wanted.reverse(); // newest first
    const pageSize = params.pageSize ?? 50;
    const start = params.pageToken ? Number(params.pageToken) || 0 : 0;
    const page = wanted.slice(start, start + pageSize).map((t) => {
      const copy = structuredClone(t);
      if (params.historyLength !== undefined) copy.history = params.historyLength > 0 ? copy.history.slice(-params.historyLength) : [];
      if (!params.includeArtifacts) copy.artifacts = [];
      return copy;
    });
    const next = start + pageSize < wanted.length ? String(start + pageSize) : '';
    return { tasks: page, nextPageToken: next, pageSize, totalSize: wanted.length };
  }

  /** How many tasks are held (live + finished). */
  get size(): number {
    return this.tasks.size;
  }

  private evict(): void {
    for (const id of this.finished.keys()) {
      if (this.finished.size <= this.maxFinished) break;
      this.finished.delete(id);
      this.tasks.delete(id);
    }
  }
}
