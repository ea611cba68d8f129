/**
 * A one-reader buffered channel: the producer pushes values, then ends it or fails it; the reader
 * iterates (once). Buffering means a request keeps its replies even when nobody reads yet, and a
 * failure is thrown only to a reader, never as an unhandled rejection.
 */
export class ReplyChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private state: { done: false } | { done: true; error?: unknown } = { done: false };
  private wake: (() => void) | undefined;
  private taken = false;

  get settled(): boolean {
    return this.state.done;
  }

  push(item: T): void {
    if (this.state.done) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    if (this.state.done) return;
    this.state = { done: true };
    this.notify();
  }

  fail(error: unknown): void {
    if (this.state.done) return;
    this.state = { done: true, error };
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.taken) throw new Error('the replies of a request can be read only once');
    this.taken = true;
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.state.done) {
        if ('error' in this.state) throw this.state.error;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  private notify(): void {
    this.wake?.();
    this.wake = undefined;
  }
}
