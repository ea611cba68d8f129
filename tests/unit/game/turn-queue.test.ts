import { describe, expect, it } from 'vitest';
import { TurnQueue } from '../../../src/games/turn-queue.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

/** A turn that runs until its signal aborts (like a model step). */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason));
  });

describe('TurnQueue', () => {
  it('runs turns one at a time in arrival order, even when an earlier one fails', async () => {
    const q = new TurnQueue();
    const log: string[] = [];
    const gate = deferred();
    const a = q.run(new AbortController().signal, async () => {
      log.push('a start');
      await gate.promise;
      log.push('a end');
      throw new Error('a failed');
    });
    const b = q.run(new AbortController().signal, async () => {
      log.push('b');
      return 'b done';
    });
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    gate.resolve();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('cancelAll aborts the running and the queued turns; the request signal aborts its own turn', async () => {
    const q = new TurnQueue();
    const seen: string[] = [];
    const running = q.run(new AbortController().signal, untilAborted);
    const queued = q.run(new AbortController().signal, async (signal) => {
      seen.push(signal.aborted ? 'queued saw abort' : 'queued ran');
    });
    q.cancelAll('cancelled by end');
    await expect(running).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled by end' });
    await queued;
    expect(seen).toEqual(['queued saw abort']);

    const request = new AbortController();
    const own = q.run(request.signal, untilAborted);
    request.abort(new Error('client cancelled'));
    await expect(own).rejects.toThrow('client cancelled');
    await q.settled();
  });
});
