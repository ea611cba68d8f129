/**
 * A step provider that reads like a slow prefix-caching engine: before its first piece it reads the
 * part of the prompt (its own rendering: the messages as JSON) that no prompt it read to the end
 * shares, at `charsPerS`; then it writes the answer in two pieces. An attempt abandoned mid-read
 * leaves nothing (an engine that restarts its prefill: wllama), so an attempt asked again reads
 * the whole uncached prompt again. `stall(n)` makes the n-th request (0 = first) never answer (a
 * server that hangs). Timers are the test's (fake timers drive it).
 */
import type { CompletionRequest, StepProvider } from '../../../src/llm/decide-step.ts';

export interface PrefillServer extends StepProvider {
  /** Every request, in order, with when it came and whether its first piece was written. */
  readonly seen: Array<{ req: CompletionRequest; at: number; answered: boolean }>;
}

export function prefillServer(o: { charsPerS: number; answer: string; stall?: (n: number) => boolean; now?: () => number }): PrefillServer {
  const now = o.now ?? Date.now;
  const held: string[] = [];
  const seen: PrefillServer['seen'] = [];
  const shared = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return i;
  };
  const uncached = (text: string) => text.length - Math.max(0, ...held.map((h) => shared(h, text)));
  return {
    label: 'prefill-server',
    seen,
    complete(req) {
      const n = seen.length;
      const row = { req, at: now(), answered: false };
      seen.push(row);
      const text = JSON.stringify(req.messages);
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        };
        const timer = o.stall?.(n)
          ? undefined
          : setTimeout(() => {
              req.signal?.removeEventListener('abort', onAbort);
              held.push(text);
              row.answered = true;
              const half = Math.ceil(o.answer.length / 2);
              req.onDelta?.(o.answer.slice(0, half));
              req.onDelta?.(o.answer.slice(half));
              resolve(o.answer);
            }, (uncached(text) / o.charsPerS) * 1000);
        if (req.signal?.aborted) onAbort();
        else req.signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
