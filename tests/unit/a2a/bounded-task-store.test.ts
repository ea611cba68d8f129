import { TaskState, type Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { BoundedTaskStore } from '../../../src/a2a/bounded-task-store.ts';

function task(id: string, state: TaskState, contextId = 'c'): Task {
  return { id, contextId, status: { state, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [], metadata: {} };
}

describe('BoundedTaskStore', () => {
  it('evicts the oldest finished tasks beyond the limit, never a live one', async () => {
    const store = new BoundedTaskStore(2);
    await store.save(task('live', TaskState.TASK_STATE_WORKING));
    await store.save(task('a', TaskState.TASK_STATE_COMPLETED));
    await store.save(task('b', TaskState.TASK_STATE_FAILED));
    await store.save(task('c', TaskState.TASK_STATE_CANCELED));
    expect(await store.load('a')).toBeUndefined();
    expect((await store.load('b'))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect((await store.load('live'))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(store.size).toBe(3);
  });

  it('counts a task once it finishes, by the time it finished', async () => {
    const store = new BoundedTaskStore(2);
    await store.save(task('first', TaskState.TASK_STATE_WORKING));
    await store.save(task('second', TaskState.TASK_STATE_COMPLETED));
    await store.save(task('first', TaskState.TASK_STATE_COMPLETED)); // finishes after "second"
    await store.save(task('third', TaskState.TASK_STATE_COMPLETED));
    expect(await store.load('second')).toBeUndefined();
    expect(await store.load('first')).toBeDefined();
  });

  it('hands out copies, so a caller cannot change what is stored', async () => {
    const store = new BoundedTaskStore();
    await store.save(task('t', TaskState.TASK_STATE_WORKING));
    const loaded = (await store.load('t'))!;
    loaded.status!.state = TaskState.TASK_STATE_FAILED;
    expect((await store.load('t'))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(store.maxFinished).toBe(64);
  });

  it('lists newest first with plain paging (no Buffer page tokens)', async () => {
    const store = new BoundedTaskStore();
    for (const id of ['1', '2', '3']) await store.save(task(id, TaskState.TASK_STATE_COMPLETED, id === '2' ? 'other' : 'c'));
    const page1 = await store.list({ tenant: '', contextId: 'c', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 1, pageToken: '', statusTimestampAfter: undefined });
    expect(page1.tasks.map((t) => t.id)).toEqual(['3']);
    expect(page1.totalSize).toBe(2);
    const page2 = await store.list({ tenant: '', contextId: 'c', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 1, pageToken: page1.nextPageToken, statusTimestampAfter: undefined });
    expect(page2.tasks.map((t) => t.id)).toEqual(['1']);
    expect(page2.nextPageToken).toBe('');
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new BoundedTaskStore(0)).toThrow(RangeError);
  });
});
