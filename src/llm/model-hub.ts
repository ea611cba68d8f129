/**
 * The one place on the main thread that holds the selected provider (local WebLLM, remote API
 * or the scripted demo) and queues every agent's steps first in, first out. Agents on the main
 * thread take `hub.model()`; game workers get `hub.openPort().port` and call `connectModel(port)`
 * (and the host calls its `close()` when it stops the worker).
 */
import { modelError } from './errors.ts';
import { exposeModel } from './model-port.ts';
import { FifoQueue } from './request-queue.ts';
import { DEFAULT_TRAITS, type ChatMessage, type ChatModel, type EngineTraits, type Step, type StepRequest } from '../core/llm/types.ts';
import { sameMessage } from '../core/llm/continuation.ts';

/** The main agent's steps and prewarms carry this agent name. */
const MAIN_AGENT = 'main';

export type ProviderKind = 'webllm' | 'cpu' | 'remote' | 'scripted';

export interface HubStatus {
  kind?: ProviderKind;
  label: string;
  running?: string;
  waiting: string[];
}

export interface StepRecord {
  agent: string;
  kind?: ProviderKind;
  durationMs: number;
  step?: Step;
  error?: string;
  /** The error's catalogue code, when it has one. */
  code?: string;
  /** The request's trace session (StepRequest.session). */
  session?: string;
}

export class ModelHub {
  private current: { kind: ProviderKind; model: ChatModel } | undefined;
  private readonly queue = new FifoQueue(() => {
    // A prewarm asked for while the last step ran starts now; else, after another agent's final
    // reply, the awaited request's start is read again (that step took the engine's cache).
    const w = this.pendingWarm ?? (this.rewarmDue ? this.awaited : undefined);
    this.rewarmDue = false;
    if (w) this.prewarm(w.agent, w.messages);
  });
  /** What the selected engine does with a prompt, once it has said (DEFAULT_TRAITS until then). */
  private engine: EngineTraits = DEFAULT_TRAITS;
  /** On an engine that keeps prompts apart: another agent's prewarm asked while one ran, started after it. */
  private nextWarm: { agent: string; messages: ChatMessage[] } | undefined;
  private readonly listeners = new Set<(s: HubStatus) => void>();
  private readonly stepListeners = new Set<(r: StepRecord) => void>();

  get kind(): ProviderKind | undefined {
    return this.current?.kind;
  }

  get label(): string {
    return this.current?.model.label ?? '未选择模型';
  }

  /** Selects the provider every agent uses from the next step on. */
  setModel(kind: ProviderKind, model: ChatModel): void {
    this.current = { kind, model };
    this.engine = DEFAULT_TRAITS;
    void model
      .traits?.()
      .then((t) => {
        if (this.current?.model === model) this.engine = t;
      })
      .catch(() => undefined);
    this.emit();
  }

  /** No provider: steps fail with model_not_configured. Waiting steps are cancelled. */
  clearModel(): void {
    this.current = undefined;
    this.queue.clear();
    this.emit();
  }

  status(): HubStatus {
    return { kind: this.current?.kind, label: this.label, running: this.queue.running, waiting: this.queue.waitingLabels };
  }

  subscribe(fn: (s: HubStatus) => void): () => void {
    this.listeners.add(fn);
    fn(this.status());
    return () => this.listeners.delete(fn);
  }

  /** Every finished step (for tracing as `model_step`). */
  onStep(fn: (r: StepRecord) => void): () => void {
    this.stepListeners.add(fn);
    return () => this.stepListeners.delete(fn);
  }

  /**
   * The queued ChatModel every agent uses (the provider is looked up when the step runs).
   * `whenNone`: the model a step uses when no provider is chosen (a game that plays by its rules
   * alone); without it such a step fails with model_not_configured.
   */
  model(whenNone?: () => Promise<ChatModel>): ChatModel {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const hub = this;
    return {
      get label() {
        return hub.label;
      },
      step: (req) => this.step(req, whenNone),
      traits: () => this.traits(),
      prewarm: async (agent, messages) => this.prewarm(agent, messages),
    };
  }

  /** What the selected provider's engine does with a prompt (none selected: DEFAULT_TRAITS). */
  async traits(): Promise<EngineTraits> {
    return (await this.current?.model.traits?.()) ?? DEFAULT_TRAITS;
  }

  /**
   * A port for a worker (transfer it and call `connectModel(port)` there), with `close()` for when
   * the worker ends: it aborts that port's running step and drops its queued ones. `through` may
   * put the hub's model behind another (a game's brain: ./rules-when-slow.ts).
   */
  openPort(whenNone?: () => Promise<ChatModel>, through: (m: ChatModel) => ChatModel = (m) => m): { port: MessagePort; close: () => void } {
    const { port1, port2 } = new MessageChannel();
    const close = exposeModel(through(this.model(whenNone)), port1);
    return { port: port2, close };
  }

  /**
   * While nothing waits: reads `messages` into the engine's cache for the request that will start
   * with them (ChatModel.prewarm). Asked while a step still runs (a turn given up, its step still
   * stopping in the engine), it starts as soon as the queue is empty — unless another step comes
   * first. Any step that comes stops it first, except the step that continues it (see `step`). The
   * latest asked is the awaited request: when another agent's step ends
   * with its final reply (the main agent's chat turn in the middle of a game), it is asked again,
   * so an engine that holds one conversation (WebLLM) gets the game's back before its next turn.
   * Not the main agent's: it prewarms only while the arcade is idle, which another agent's step
   * ends. A prewarm asked by another agent than the running one's replaces it — except on an
   * engine that keeps prompts apart (EngineTraits.keepsPromptsApart), where each agent's prompt
   * has its own place: it is read after the running one, which goes on, and nothing needs to be
   * given back after a chat turn.
   */
  prewarm(agent: string, messages: ChatMessage[]): void {
    const model = this.current?.model;
    if (!model?.prewarm) return;
    this.awaited = { agent, messages };
    const asked = { agent, messages };
    const apart = this.engine.keepsPromptsApart;
    if (this.warming) {
      if (this.warming.agent === agent) return;
      // Each agent's prompt has its place: a game's next turn comes sooner than a chat, so it goes first.
      if (apart && (agent === MAIN_AGENT || this.warming.agent !== MAIN_AGENT)) {
        this.nextWarm = asked;
        return;
      }
      if (apart) this.nextWarm = { agent: this.warming.agent, messages: this.warming.messages };
      this.warming.ac.abort();
      this.warming = undefined;
    }
    if (this.queue.running !== undefined || this.queue.waitingLabels.length) {
      const other = this.pendingWarm;
      if (apart && other && other.agent !== agent) [this.pendingWarm, this.nextWarm] = agent === MAIN_AGENT ? [other, asked] : [asked, other];
      else this.pendingWarm = asked;
      return;
    }
    this.pendingWarm = undefined;
    const ac = new AbortController();
    const w = { agent, messages, ac, done: model.prewarm(agent, messages, ac.signal).catch(() => undefined) };
    this.warming = w;
    void w.done.finally(() => {
      if (this.warming !== w) return;
      this.warming = undefined;
      const next = this.nextWarm;
      this.nextWarm = undefined;
      if (next && !w.ac.signal.aborted) this.prewarm(next.agent, next.messages);
    });
  }

  /** The running prewarm, stopped by the next step (or finished first by the step that continues it). */
  private warming: { agent: string; messages: ChatMessage[]; ac: AbortController; done: Promise<void> } | undefined;
  /** A prewarm asked for while a step ran: started when the queue is empty. */
  private pendingWarm: { agent: string; messages: ChatMessage[] } | undefined;
  /** The start of the request the agent that last asked for a prewarm awaits, until that agent steps. */
  private awaited: { agent: string; messages: ChatMessage[] } | undefined;
  /** Another agent's final reply took the engine: the awaited start is read again once the queue is empty. */
  private rewarmDue = false;

  /** Whether a prewarm is reading into the engine's cache now. */
  get prewarming(): boolean {
    return this.warming !== undefined;
  }

  /**
   * Any step that comes stops the prewarm, and every step that runs in the background
   * (StepRequest.background: no one waits for its words), so a step someone waits for never queues
   * behind one no one waits for. The step that continues the prewarm — its agent's, its messages
   * starting with the prewarm's — waits for the prewarm to end instead, then runs: an engine that
   * holds one whole conversation (WebLLM) reads a prefill it began to the end even when stopped and
   * keeps nothing of a stopped reply, so stopping would cost the read and throw it away (a server
   * of unknown traits is waited for too). The CPU engine (EngineTraits: cuts a prefill, keeps
   * prompts apart) keeps what was read when stopped, so there the prewarm is stopped and the step
   * reads on at once: a wait would hold the step, and a prewarm a step waits for is no longer
   * stopped by the next one.
   */
  step(req: StepRequest, whenNone?: () => Promise<ChatModel>): Promise<Step> {
    const warm = this.warming;
    // Not on the CPU engine (cuts a prefill, keeps each prompt apart): it keeps what was read, and the step reads on at once.
    const local = this.engine.cutsPrefill && this.engine.keepsPromptsApart;
    const finishing = warm && !local && warm.agent === req.agent && continues(req.messages, warm.messages) ? warm.done : undefined;
    if (!finishing) warm?.ac.abort();
    this.warming = undefined;
    this.pendingWarm = undefined;
    this.nextWarm = undefined;
    this.rewarmDue = false;
    // The awaited request came.
    if (this.awaited?.agent === req.agent) this.awaited = undefined;
    for (const [background, stop] of this.stoppable) if (background.aborted) stop.abort();
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    if (req.signal?.aborted) ac.abort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    if (req.background) this.stoppable.set(req.background, ac);
    const job = async () => {
      if (finishing) await Promise.race([finishing, new Promise<void>((r) => (ac.signal.aborted ? r() : ac.signal.addEventListener('abort', () => r(), { once: true })))]);
      return this.run({ ...req, signal: ac.signal }, whenNone);
    };
    const p = this.queue.run(job, { signal: ac.signal, label: req.agent });
    this.emit();
    return p.finally(() => {
      req.signal?.removeEventListener('abort', onAbort);
      if (req.background) this.stoppable.delete(req.background);
      this.emit();
    });
  }

  /** The steps that may run in the background, by their background signal: stopped by the next step once in the background. */
  private readonly stoppable = new Map<AbortSignal, AbortController>();

  private async run(req: StepRequest, whenNone?: () => Promise<ChatModel>): Promise<Step> {
    this.emit();
    const started = Date.now();
    const current = this.current ?? (whenNone ? { kind: 'scripted' as const, model: await whenNone() } : undefined);
    try {
      if (!current) throw modelError('model_not_configured');
      const step = await current.model.step(req);
      if (step.action === 'reply' && !this.engine.keepsPromptsApart && this.awaited && this.awaited.agent !== req.agent && this.awaited.agent !== MAIN_AGENT) this.rewarmDue = true;
      this.record({ agent: req.agent, kind: current.kind, durationMs: Date.now() - started, step, session: req.session });
      return step;
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      this.record({ agent: req.agent, kind: current?.kind, durationMs: Date.now() - started, error: String((err as Error)?.message ?? err), session: req.session, ...(typeof code === 'string' ? { code } : {}) });
      throw err;
    }
  }

  private record(r: StepRecord): void {
    for (const fn of this.stepListeners) fn(r);
  }

  private emit(): void {
    const s = this.status();
    for (const fn of this.listeners) fn(s);
  }
}

/** Whether `messages` start with every message of `start` (a request that continues what `start` read). */
function continues(messages: readonly ChatMessage[], start: readonly ChatMessage[]): boolean {
  return start.length > 0 && messages.length > start.length && start.every((m, i) => sameMessage(m, messages[i]));
}

/** The app's hub. */
export const modelHub = new ModelHub();
