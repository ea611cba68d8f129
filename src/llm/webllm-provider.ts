/**
 * The WebLLM provider, main-thread side: probes WebGPU (once) before loading, and loads the q4f32
 * twin when the GPU lacks shader-f16; the rest is the shared local provider (local-provider.ts).
 */
import { adaptToGpu, modelName } from '../core/llm/models.ts';
import { createLocalProvider, type LocalProvider } from './local-provider.ts';
import { modelError } from './errors.ts';
import { probeErrorCode, probeSummary, probeWebGPU, type WebGpuProbe } from './webgpu-probe.ts';

export interface WebLlmProviderOptions {
  /** Creates the model worker (default: workers/model.ts as a module worker). */
  createWorker?: () => Worker;
  probe?: () => Promise<WebGpuProbe>;
}

export type WebLlmProvider = LocalProvider;

function defaultWorker(): Worker {
  return new Worker(new URL('../../workers/model.ts', import.meta.url), { type: 'module', name: 'model' });
}

export function createWebLlmProvider(opts: WebLlmProviderOptions = {}): WebLlmProvider {
  // Asked once: every load / cache check / delete needs the same answer, and each probe requests a GPU adapter.
  let probed: Promise<WebGpuProbe> | undefined;
  const gpu = () => (probed ??= (opts.probe ?? probeWebGPU)());
  return createLocalProvider({
    createWorker: opts.createWorker ?? defaultWorker,
    async prepare(req) {
      const probe = await gpu();
      const code = probeErrorCode(probe);
      if (code) throw modelError(code, probeSummary(probe));
      return { ...req, modelId: adaptToGpu(req.modelId, probe) };
    },
    label: (id) => (id ? `本机${modelName(id)}` : '本机大脑（未加载）'),
    // WebLLM reads a prefill it began to the end and holds one conversation for every agent.
    traits: { cutsPrefill: false, keepsPromptsApart: false },
  });
}
