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

  it('cancelAll aborts the running turn, and a queued turn rejects at once without running', async () => {
    const q = new TurnQueue();
    const seen: string[] = [];
    const running = q.run(new AbortController().signal, untilAborted);
    const queued = q.run(new AbortController().signal, async () => {
      seen.push('queued ran');
    });
    q.cancelAll('cancelled by end');
    await expect(queued).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled by end' });
    await expect(running).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled by end' });
    expect(seen).toEqual([]);

    const request = new AbortController();
    const own = q.run(request.signal, untilAborted);
    request.abort(new Error('client cancelled'));
    await expect(own).rejects.toThrow('client cancelled');
    await q.settled();
  });

  it('a cancelled turn that ignores its signal holds the next turn for the grace time only', async () => {
    const timers: Array<() => void> = [];
    const q = new TurnQueue({ graceMs: 2000, setTimer: (fn) => timers.push(fn) });
    const stuck = q.run(new AbortController().signal, () => new Promise<void>(() => {}));
    const log: string[] = [];
    const next = q.run(new AbortController().signal, async () => void log.push('next ran'));
    await Promise.resolve();
    const stuckCancelled = expect(stuck).rejects.toThrow('cancelled by end');
    q.cancelAll('cancelled by end');
    // `next` was queued too, so it is cancelled; a turn queued after the cancel waits for the grace.
    await expect(next).rejects.toThrow('cancelled by end');
    const after = q.run(new AbortController().signal, async () => void log.push('after ran'));
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual([]);
    expect(timers).toHaveLength(1);
    timers[0]();
    await after;
    expect(log).toEqual(['after ran']);
    await stuckCancelled;
  });
});
