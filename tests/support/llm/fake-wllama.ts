/**
 * A stand-in for the part of @wllama/wllama 3.13 the CPU engine uses (src/llm/cpu-engine.ts),
 * behaving like it where cancellation is concerned: the engine runs one action at a time (its
 * worker); a chat completion is a `completion` action, then one `get_result` action per poll —
 * each poll runs one llama.cpp step, which reads at most `n_batch` prompt tokens (llama.cpp's
 * default 2048) or decodes one token; the abort signal is looked at only between polls, and an
 * unfinished request is then cancelled (a `cancel` action, queued like any other). A prompt
 * "token" here is one character of the messages' text. Every action is logged, so a test can say
 * how much of a cancelled prompt was still read and when the next request began.
 */

export interface FakeAction {
  req: number;
  kind: 'completion' | 'prefill' | 'decode' | 'cancel';
  /** Prompt tokens read (prefill) or tokens decoded (decode) by this action. */
  tokens: number;
  /** Whether the request's abort signal had fired by the time the action ended (it ran on after the cancel came). */
  afterAbort: boolean;
}

/** Every action of every fake engine, in the order the engine ran them. */
export const actions: FakeAction[] = [];
/** Model URLs that count as already downloaded (ModelManager.getModels). */
export const cachedUrls: string[] = [];
/** The load options of the last loadModelFromUrl. */
export let lastLoad: Record<string, unknown> | undefined;

const starts: Array<{ req: number; kind: FakeAction['kind']; resolve: () => void }> = [];

/** Resolves when the engine begins an action of this kind for request `req` (while it runs). */
export function whenRunning(req: number, kind: FakeAction['kind']): Promise<void> {
  return new Promise((resolve) => starts.push({ req, kind, resolve }));
}

export function resetFake(): void {
  actions.length = 0;
  cachedUrls.length = 0;
  starts.length = 0;
  lastLoad = undefined;
}

export const LoggerWithoutDebug = { debug() {}, log() {}, info() {}, warn() {}, error() {} };

export class ModelManager {
  constructor(_opts?: unknown) {}
  async getModels(): Promise<Array<{ url: string; size: number; remove(): Promise<void> }>> {
    return cachedUrls.map((url) => ({ url, size: 1, remove: async () => void cachedUrls.splice(cachedUrls.indexOf(url), 1) }));
  }
}

class AbortErr extends Error {
  override name = 'AbortError';
  constructor() {
    super('Operation aborted');
  }
}

export class Wllama {
  private chain: Promise<unknown> = Promise.resolve();
  private nBatch = 2048;
  private threads = 1;
  private nextReq = 1;

  constructor(_paths: unknown, _config?: unknown) {}

  setCompat(_c: unknown): void {}

  async loadModelFromUrl(_url: string, params: Record<string, unknown>): Promise<void> {
    lastLoad = params;
    this.nBatch = (params.n_batch as number | undefined) ?? 2048;
    this.threads = (params.n_threads as number | undefined) ?? 1;
  }

  getNumThreads(): number {
    return this.threads;
  }

  isMultithread(): boolean {
    return this.threads > 1;
  }

  async exit(): Promise<void> {}

  /**
   * One action on the engine's single worker, after every action queued before it. It takes two
   * turns of the event loop: one to begin (whenRunning fires; a test may cancel while it runs),
   * one to end (its effect and its log entry).
   */
  private action<T>(req: number, kind: FakeAction['kind'], run: () => T): Promise<T> {
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const p = this.chain.then(async () => {
      await tick();
      for (const s of starts.filter((s) => s.req === req && s.kind === kind)) {
        starts.splice(starts.indexOf(s), 1);
        s.resolve();
      }
      await tick();
      const out = run();
      return out;
    });
    this.chain = p.catch(() => undefined);
    return p;
  }

  async createChatCompletion(opts: { messages: Array<{ content: string }>; max_tokens: number; abortSignal?: AbortSignal }): Promise<AsyncIterable<{ choices: Array<{ delta: { content: string } }> }>> {
    const req = this.nextReq++;
    const signal = opts.abortSignal;
    let prompt = opts.messages.map((m) => m.content).join('').length;
    let left = opts.max_tokens;
    const log = (kind: FakeAction['kind'], tokens: number) => actions.push({ req, kind, tokens, afterAbort: signal?.aborted === true });
    await this.action(req, 'completion', () => log('completion', 0));
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const engine = this;
    return (async function* () {
      let completed = false;
      try {
        while (left > 0) {
          if (signal?.aborted) throw new AbortErr();
          const piece = await engine.action(req, prompt > 0 ? 'prefill' : 'decode', () => {
            if (prompt > 0) {
              const n = Math.min(engine.nBatch, prompt);
              prompt -= n;
              log('prefill', n);
              return '';
            }
            left--;
            log('decode', 1);
            return 'x';
          });
          if (piece) yield { choices: [{ delta: { content: piece } }] };
        }
        completed = true;
      } finally {
        if (!completed) await engine.action(req, 'cancel', () => log('cancel', 0));
      }
    })();
  }
}
