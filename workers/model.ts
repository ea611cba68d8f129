/**
 * The model worker: one local engine, shared by every agent (src/llm/engine-service.ts queues
 * their requests). The worker's name picks the engine: `model` runs WebLLM (WebGPU), `model-cpu`
 * runs llama.cpp in WebAssembly (@wllama/wllama). Each engine's code is imported on first use, in
 * its own chunk. Exposed with Comlink; the main thread's provider is its only client.
 */
import * as Comlink from 'comlink';
import { CPU_WORKER_NAME, createEngineService, lazyEngineDeps } from '../src/llm/engine-service.ts';
import { isQwen3 } from '../src/core/llm/models.ts';

const cpu = (self as { name?: string }).name === CPU_WORKER_NAME;
const load = cpu
  ? () => import('../src/llm/cpu-engine.ts').then((m) => m.cpuEngineDeps)
  : () => import('../src/llm/webllm-engine.ts').then((m) => m.webLlmDeps);

Comlink.expose(createEngineService(lazyEngineDeps(load, isQwen3)));
