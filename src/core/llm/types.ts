/**
 * The model layer's contract. Every agent thinks through a ChatModel:
 * messages in, one Step out. A Step is one action from the tools the agent offers right now,
 * or the final reply. The layer builds the per-request JSON schema (union of legal actions),
 * decodes under it, validates again and retries on invalid output.
 */
import type { ErrorCode } from '../errors/catalogue.ts';

export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments: an object schema (`{type:'object', properties, required}`). */
  parameters: JsonSchema;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One decided action. */
export interface Step {
  action: string;
  args: Record<string, unknown>;
  /**
   * The text the model produced for this step, exactly as decoded. Sent back as the assistant's
   * message so a local engine continues its conversation in place (its KV cache stays valid).
   */
  raw?: string;
}

export interface StepRequest {
  /** Who is asking (e.g. "main", "game:guess-number", "studio:manager"); used for queueing and tracing. */
  agent: string;
  messages: ChatMessage[];
  /** Tools legal right now (the final reply action included). */
  tools: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Corrections sent back for invalid output before the step fails (default: the model's own setting). */
  retries?: number;
  /**
   * When the step must be decided by (ms since the epoch, wall clock: the same in a game worker):
   * the turn's budget. The model layer fits its timeouts and retries into it and fails with
   * `model_too_slow` rather than answer later.
   */
  deadline?: number;
  /**
   * The step's text as it is decoded, piece by piece (`attempt` counts from 0; a retry after
   * invalid output starts a new attempt). Lets an agent speak a reply before the step is complete.
   */
  onStream?: (delta: string, attempt: number) => void;
  /** The session the step belongs to in the trace (a design session: src/core/trace/designs.ts). */
  session?: string;
  /**
   * Aborts when no one waits for the step's words any more (a game step the colour window muted:
   * it goes on only to be remembered). From then on only `signal` ends it: no `deadline`, no
   * per-attempt stall limit (first piece, silence, whole attempt) and no asking again — a long
   * prefill is read once, to the end, instead of again from cold. The hub stops such a step when
   * any other step comes, so nothing anyone waits for queues behind it.
   */
  background?: AbortSignal;
}

/**
 * What an engine does with a prompt, which the agents plan their steps by (not the engine's name).
 * Absent on a model: DEFAULT_TRAITS.
 */
export interface EngineTraits {
  /**
   * A prefill it began stops when the request is abandoned (llama.cpp between batches). False: it
   * is read to the end anyway and nothing of an abandoned reply is kept (WebLLM), so a step whose
   * reading has begun is better let finish than cancelled.
   */
  cutsPrefill: boolean;
  /**
   * It keeps several agents' prompts apart (llama.cpp's prompt cache: the main agent's chat step
   * does not evict a game's prompt), so one agent's prompt may be prewarmed while another plays.
   */
  keepsPromptsApart: boolean;
}

/** A model that says nothing of its engine: a server that stops a prefill and holds one prompt. */
export const DEFAULT_TRAITS: EngineTraits = { cutsPrefill: true, keepsPromptsApart: false };

/**
 * Another agent's request makes the engine forget the conversation it holds, and reading it again
 * cannot be cut short (WebLLM): a main-agent model step in the middle of a game costs the game its
 * whole prompt, read again before its next step (about 1,000 tokens; 10 s at a laptop GPU's rate).
 */
export const forgetsOnSwitch = (t: EngineTraits): boolean => !t.keepsPromptsApart && !t.cutsPrefill;

export interface ChatModel {
  /** Human-readable name shown in the UI, e.g. "Qwen2.5-1.5B（本地）" or "规则大脑（不用模型）". */
  readonly label: string;
  /** What its engine does with a prompt (absent: DEFAULT_TRAITS). */
  traits?(): Promise<EngineTraits>;
  step(req: StepRequest): Promise<Step>;
  /**
   * Reads `messages` into a local engine's cache ahead of the request that will start with them
   * (only an engine that keeps the longest common prefix of its last prompt has it); nothing is
   * generated or said. Resolves when done or stopped by `signal`; never rejects.
   */
  prewarm?(agent: string, messages: ChatMessage[], signal: AbortSignal): Promise<void>;
}

/** Model failures the user can meet; `code` is a key of the error catalogue. */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The HTTP status a server answered with, when the error is one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * A scripted model's policy: a small deterministic function of the request (used by tests,
 * e2e and the demo mode "规则大脑（不用模型）"). It may return a Step, or `{raw}` text to exercise
 * the decoder's validation and retry path.
 */
export type ScriptPolicy = (req: StepRequest) => Step | { raw: string } | Promise<Step | { raw: string }>;
