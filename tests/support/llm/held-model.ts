/**
 * A model at the ChatModel interface whose steps the test answers when it chooses: each request is
 * recorded and held until `answer(i, step)` (or answered at once when `auto` returns a step); an
 * aborted request rejects with its signal's reason. `ended[i]` tells how request i ended, so a test
 * sees whether the engine let a step finish or cancelled it. Prewarm requests are recorded. Its
 * engine's traits are given (default: DEFAULT_TRAITS).
 */
import { DEFAULT_TRAITS, type ChatMessage, type ChatModel, type EngineTraits, type Step, type StepRequest } from '../../../src/core/llm/types.ts';

export type HeldEnd = 'open' | 'answered' | 'aborted';

export class HeldModel implements ChatModel {
  readonly label = 'held';
  readonly requests: StepRequest[] = [];
  readonly ended: HeldEnd[] = [];
  readonly warmed: ChatMessage[][] = [];
  private readonly answers: Array<(s: Step) => void> = [];

  /** `auto(req, n)`: a step to answer request n (1-based) with at once, or undefined to hold it; `engine`: what its engine does with a prompt. */
  constructor(
    private readonly auto: (req: StepRequest, n: number) => Step | undefined = () => undefined,
    private readonly engine: EngineTraits = DEFAULT_TRAITS,
  ) {}

  async traits(): Promise<EngineTraits> {
    return this.engine;
  }

  step(req: StepRequest): Promise<Step> {
    const i = this.requests.push(req) - 1;
    this.ended[i] = 'open';
    return new Promise<Step>((resolve, reject) => {
      this.answers[i] = (s) => {
        if (this.ended[i] !== 'open') return;
        this.ended[i] = 'answered';
        resolve(s);
      };
      const abort = () => {
        if (this.ended[i] !== 'open') return;
        this.ended[i] = 'aborted';
        reject(req.signal!.reason);
      };
      if (req.signal?.aborted) abort();
      else req.signal?.addEventListener('abort', abort, { once: true });
      const now = this.auto(req, i + 1);
      if (now) this.answers[i](now);
    });
  }

  /** Answers request i (0-based) if it is still open. */
  answer(i: number, step: Step): void {
    this.answers[i]?.(step);
  }

  async prewarm(_agent: string, messages: ChatMessage[]): Promise<void> {
    this.warmed.push(messages.map((m) => ({ ...m })));
  }
}
