/**
 * The model worker: the one WebLLM engine, shared by every agent (src/llm/engine-service.ts
 * queues their requests). Exposed with Comlink; the main thread's model hub is its only client.
 */
import * as Comlink from 'comlink';
import { createEngineService } from '../src/llm/engine-service.ts';
import { webLlmDeps } from '../src/llm/webllm-engine.ts';

Comlink.expose(createEngineService(webLlmDeps));
