/**
 * What the model worker's engine service (engine-service.ts) and the engines behind it
 * (webllm-engine.ts, cpu-engine.ts) exchange: load requests, completions, streamed chunks, results.
 */
import type { ChatMessage, JsonSchema } from '../core/llm/types.ts';

export interface LoadRequest {
  modelId: string;
  /** Absolute (or page-relative) URL of the self-hosted model folder (HF layout). */
  modelUrl?: string;
  /** Absolute (or page-relative) URL of the model library (.wasm). */
  modelLibUrl?: string;
  contextWindow?: number;
  /** CPU engine: threads to use (default: chosen from the cores when cross-origin isolated, else 1). */
  threads?: number;
  /**
   * CPU engine: cache slots (llama.cpp's parallel sequences over one unified KV cache). With two, a
   * request goes to the slot whose cached prompt it shares most with, so the main agent's requests
   * and a game's keep their own caches.
   */
  slots?: number;
  /**
   * CPU engine: prompt tokens read per engine step (llama.cpp's n_batch). A cancel takes effect
   * between steps, so this bounds how long an abandoned prefill keeps the engine (default
   * CPU_PREFILL_CHUNK, core/llm/engine-choice.ts).
   */
  batch?: number;
}

export interface LoadProgress {
  /** 0..1 */
  progress: number;
  text: string;
  /** Bytes downloaded so far and in all, when the engine tells (the CPU engine does). */
  loaded?: number;
  total?: number;
}

export interface EngineCompletion {
  id: string;
  agent: string;
  messages: ChatMessage[];
  schema: JsonSchema;
  maxTokens: number;
  temperature: number;
  /** The grammar to decode under, as it is (instead of one built from `schema`). */
  grammar?: string;
}

/** What one step cost the engine: its own counts and rates when it tells them, else wall-clock ones. */
export interface StepRates {
  promptTokens?: number;
  decodeTokens?: number;
  /** Tokens per second of the prompt (prefill) and of the generated text (decode). */
  prefillPerS?: number;
  decodePerS?: number;
  /** Wall clock: request → first decoded piece, and first piece → end (ms). */
  firstPieceMs: number;
  decodeMs: number;
}

export type EngineResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/** What a loaded engine tells about itself (the CPU engine: its threads and last speeds). */
export interface EngineDetails {
  threads?: number;
  multiThread?: boolean;
  /** Tokens per second of the last step: prompt (prefill) and generated (decode). */
  promptPerSecond?: number;
  decodePerSecond?: number;
  promptTokens?: number;
  decodeTokens?: number;
}

export interface EngineStatus {
  details?: EngineDetails;
  loaded?: string;
  loading?: string;
  running?: string;
  waiting: string[];
}

/**
 * One streamed chunk: the decoded piece, and at the end the engine's own counts — WebLLM's `usage`
 * (asked for with `stream_options.include_usage`), llama.cpp's `timings` (the CPU engine).
 */
export interface EngineChunk {
  choices: Array<{ delta?: { content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; extra?: { prefill_tokens_per_s?: number; decode_tokens_per_s?: number } } | null;
  timings?: { prompt_n?: number; prompt_per_second?: number; predicted_n?: number; predicted_per_second?: number };
}

/** What we use of WebLLM's MLCEngine. */
export interface EngineLike {
  reload(modelId: string, chatOpts?: Record<string, unknown>): Promise<void>;
  chatCompletion(req: Record<string, unknown>): Promise<AsyncIterable<EngineChunk>>;
  interruptGenerate(): void | Promise<void>;
  unload(): Promise<void>;
  details?(): EngineDetails;
  /**
   * An engine that keeps one conversation and reuses its cache only for a request that extends it
   * (WebLLM): what to send so that it holds `messages` (a request's start) up to its last
   * assistant step — the messages before that step, and the step's exact text to decode again
   * under `grammar` (messages after it are left to the next request, which adds them); null when
   * it holds that already or cannot. Without it, a prewarm reads the
   * messages and decodes one token (an engine that keeps the longest common prefix: llama.cpp).
   */
  replay?(messages: ChatMessage[]): { messages: ChatMessage[]; reply: string; grammar: string } | null;
}

export interface EngineDeps {
  /**
   * The engine to load `req` with: created on first use, then reused (set its app config and
   * progress callback), so a second load aborts the first and one model stays on the GPU.
   */
  prepareEngine(current: EngineLike | undefined, req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<EngineLike>;
  /** Step schema → EBNF (bounded whitespace). */
  grammar(schema: JsonSchema): Promise<string>;
  isQwen3(modelId: string): boolean;
  isCached?(req: LoadRequest): Promise<boolean>;
  deleteCached?(req: LoadRequest): Promise<void>;
  online?(): boolean;
  /** Milliseconds clock for the step rates (performance.now by default). */
  now?(): number;
}

/** What an engine module (webllm-engine.ts, cpu-engine.ts) gives; the worker adds the rest (lazyEngineDeps). */
export type EngineModule = Omit<EngineDeps, 'isQwen3' | 'online' | 'now'>;

export interface ModelEngineService {
  load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<EngineResult<string>>;
  /** One step under its grammar; `onDelta` hears each decoded piece as it comes. */
  complete(c: EngineCompletion, onDelta?: (delta: string) => void): Promise<EngineResult<string>>;
  /** One step like `complete`, answered with what it cost (the calibration after a load). */
  measure(c: EngineCompletion): Promise<EngineResult<StepRates>>;
  /**
   * Reads `c.messages` (the start of a request to come) into the engine's cache; nothing is said.
   * In the queue like a step, cancelled by its id.
   */
  prewarm(c: EngineCompletion): Promise<EngineResult<void>>;
  cancel(id: string): void;
  /** Stops the running generation (the request resolves with what it has, flagged aborted). */
  interrupt(): void;
  unload(): Promise<EngineResult<void>>;
  status(): EngineStatus;
  /** The EBNF sent for this schema (cached; lets a caller warm it up before the first step). */
  grammar(schema: JsonSchema): Promise<EngineResult<string>>;
  isCached(req: LoadRequest): Promise<boolean>;
  deleteCached(req: LoadRequest): Promise<EngineResult<void>>;
}
