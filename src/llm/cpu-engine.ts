/**
 * The CPU engine behind the engine service: llama.cpp compiled to WebAssembly (@wllama/wllama),
 * for devices without a usable WebGPU. Imported only by the model worker when it runs the CPU
 * engine (its own chunk; never on the first screen). It loads one GGUF file by URL, cached in the
 * origin-private file system by wllama (cache-first: a cached model loads with no network), and
 * keeps the engine's own .wasm (≈10 MB) in the Cache API under `agentcade-cpu-engine`, so only
 * devices that use the CPU engine download it and it works offline after the first load. Every
 * step decodes under the step schema's GBNF grammar and streams its text. Threads: several when
 * the page is cross-origin isolated (SharedArrayBuffer), one otherwise.
 */
import { LoggerWithoutDebug, ModelManager, Wllama } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { absoluteUrl, type EngineDetails, type EngineLike, type EngineModule, type LoadProgress, type LoadRequest } from './engine-service.ts';
import { stepGbnf } from '../core/llm/gbnf.ts';
import { cpuModelUrl } from '../core/llm/cpu-models.ts';
import { CPU_PREFILL_CHUNK, cpuThreadCount } from '../core/llm/engine-choice.ts';
import { verifyModelFile } from './model-file-check.ts';



/** The Cache API cache holding the engine's .wasm (the service worker never touches it). */
const CPU_ENGINE_CACHE = 'agentcade-cpu-engine';

let wasmObjectUrl: Promise<string> | undefined;

/** The engine's .wasm, cache-first from the Cache API, as an object URL wllama's worker can load. */
function engineWasm(): Promise<string> {
  wasmObjectUrl ??= (async () => {
    const url = absoluteUrl(wasmUrl);
    const store = typeof caches !== 'undefined' ? await caches.open(CPU_ENGINE_CACHE).catch(() => undefined) : undefined;
    let res = await store?.match(url);
    if (!res) {
      const fetched = await fetch(url);
      if (!fetched.ok) throw new Error(`Failed to fetch the CPU engine (${fetched.status})`);
      if (store) {
        await store.put(url, fetched.clone()).catch(() => undefined);
        // An older engine version is never needed again.
        for (const old of await store.keys()) if (old.url !== url) await store.delete(old);
      }
      res = fetched;
    }
    const bytes = await res.arrayBuffer();
    return URL.createObjectURL(new Blob([bytes], { type: 'application/wasm' }));
  })();
  wasmObjectUrl.catch(() => (wasmObjectUrl = undefined));
  return wasmObjectUrl;
}

function isolated(): boolean {
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

function cores(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
}

interface GrammarRequest {
  messages: Array<{ role: string; content: string }>;
  max_tokens: number;
  temperature: number;
  response_format?: { type: string; grammar?: string };
  extra_body?: { enable_thinking?: boolean };
}

/** What the CPU engine reports after a load (shown in settings as 多线程 / 单线程). */
export interface CpuEngineInfo {
  threads: number;
  multiThread: boolean;
}

export class WllamaEngine implements EngineLike {
  private wllama: Wllama | undefined;
  private current: AbortController | undefined;
  info: CpuEngineInfo = { threads: 1, multiThread: false };
  /** Prefill and decode speed of the last step (llama.cpp's own timings). */
  lastTimings: { promptPerSecond: number; predictedPerSecond: number; promptTokens: number; predictedTokens: number } | undefined;

  constructor(
    private req: LoadRequest,
    private onProgress: (p: LoadProgress) => void,
  ) {}

  retarget(req: LoadRequest, onProgress: (p: LoadProgress) => void): void {
    this.req = req;
    this.onProgress = onProgress;
  }

  async reload(): Promise<void> {
    await this.unload();
    const url = absoluteUrl(cpuModelUrl(this.req));
    this.onProgress({ progress: 0, text: '准备 CPU 引擎…' });
    if ((await cachedCpuModelSize(this.req)) === undefined) {
      this.onProgress({ progress: 0, text: '检查模型文件…' });
      await verifyModelFile(url);
    }
    const wasm = await engineWasm();
    const w = new Wllama({ default: wasm }, { suppressNativeLog: true, logger: LoggerWithoutDebug, allowOffline: true, parallelDownloads: 1 });
    // No compatibility build from a CDN: the app never loads code from a third party.
    w.setCompat(null);
    const threads = cpuThreadCount(isolated(), cores(), this.req.threads);
    await w.loadModelFromUrl(url, {
      n_ctx: this.req.contextWindow ?? 4096,
      n_threads: threads,
      n_gpu_layers: 0,
      n_parallel: this.req.slots ?? 1,
      n_batch: this.req.batch ?? CPU_PREFILL_CHUNK,
      n_ubatch: this.req.batch ?? CPU_PREFILL_CHUNK,
      ...((this.req.slots ?? 1) > 1 ? { kv_unified: true } : {}),
      progressCallback: ({ loaded, total }) => {
        const mb = (n: number) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
        this.onProgress({ progress: total > 0 ? Math.min(0.99, loaded / total) : 0, text: `下载模型 ${mb(loaded)} / ${mb(total)} MB`, loaded, total });
      },
    });
    this.wllama = w;
    this.info = { threads: w.getNumThreads(), multiThread: w.isMultithread() };
  }

  async chatCompletion(req: Record<string, unknown>): Promise<AsyncIterable<{ choices: Array<{ delta?: { content?: string | null } }> }>> {
    const w = this.wllama;
    if (!w) throw new Error('ModelNotLoadedError: Model not loaded');
    const r = req as unknown as GrammarRequest;
    const ac = new AbortController();
    this.current = ac;
    const stream = await w.createChatCompletion({
      messages: r.messages as never,
      stream: true,
      max_tokens: r.max_tokens,
      temperature: r.temperature,
      top_p: 0.9,
      grammar: r.response_format?.grammar,
      abortSignal: ac.signal,
      ...(r.extra_body?.enable_thinking === false ? { chat_template_kwargs: { enable_thinking: false } } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const engine = this;
    return (async function* () {
      try {
        for await (const chunk of stream) {
          const t = chunk.timings;
          if (t)
            engine.lastTimings = {
              promptPerSecond: t.prompt_per_second,
              predictedPerSecond: t.predicted_per_second,
              promptTokens: t.prompt_n,
              predictedTokens: t.predicted_n,
            };
          yield chunk;
        }
      } finally {
        if (engine.current === ac) engine.current = undefined;
      }
    })();
  }

  interruptGenerate(): void {
    this.current?.abort();
  }

  details(): EngineDetails {
    const t = this.lastTimings;
    return {
      ...this.info,
      promptPerSecond: t?.promptPerSecond,
      decodePerSecond: t?.predictedPerSecond,
      promptTokens: t?.promptTokens,
      decodeTokens: t?.predictedTokens,
    };
  }

  async unload(): Promise<void> {
    this.current?.abort();
    const w = this.wllama;
    this.wllama = undefined;
    await w?.exit();
  }
}

function manager(): ModelManager {
  return new ModelManager({ logger: LoggerWithoutDebug, allowOffline: true });
}

/** Size in bytes of the cached GGUF for this request, or undefined when it is not cached. */
async function cachedCpuModelSize(req: LoadRequest): Promise<number | undefined> {
  const url = absoluteUrl(cpuModelUrl(req));
  const model = (await manager().getModels()).find((m) => m.url === url);
  return model ? model.size : undefined;
}

export const cpuEngineDeps: EngineModule = {
  async prepareEngine(current, req, onProgress) {
    if (current instanceof WllamaEngine) {
      current.retarget(req, onProgress);
      return current;
    }
    return new WllamaEngine(req, onProgress);
  },
  grammar: async (schema) => stepGbnf(schema),
  async isCached(req) {
    return (await cachedCpuModelSize(req)) !== undefined;
  },
  async deleteCached(req) {
    const url = absoluteUrl(cpuModelUrl(req));
    for (const m of await manager().getModels()) if (m.url === url) await m.remove();
  },
};
