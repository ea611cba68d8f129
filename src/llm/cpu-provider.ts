/**
 * The CPU engine's provider, main-thread side: checks that this browser's WebAssembly can run
 * llama.cpp (SIMD, exception handling, 64-bit memory), then runs the shared local provider over
 * the model worker named `model-cpu` (workers/model.ts imports the CPU engine there).
 */
import { cpuModelName } from '../core/llm/cpu-models.ts';
import { CPU_WORKER_NAME } from './engine-service.ts';
import { createLocalProvider, type LocalProvider } from './local-provider.ts';
import { modelError } from './errors.ts';
import { cpuProbeSummary, probeCpu, type CpuProbe } from './cpu-probe.ts';

export interface CpuProviderOptions {
  createWorker?: () => Worker;
  probe?: () => CpuProbe;
}

function defaultWorker(): Worker {
  return new Worker(new URL('../../workers/model.ts', import.meta.url), { type: 'module', name: CPU_WORKER_NAME });
}

export function createCpuProvider(opts: CpuProviderOptions = {}): LocalProvider {
  return createLocalProvider({
    createWorker: opts.createWorker ?? defaultWorker,
    async prepare(req) {
      const probe = (opts.probe ?? probeCpu)();
      if (!probe.usable) throw modelError('model_cpu_unsupported', cpuProbeSummary(probe));
      return req;
    },
    label: (id) => (id ? `本机${cpuModelName(id)}` : '本机慢速大脑（未加载）'),
    // llama.cpp stops between 32-token batches (engine-choice.ts) and keeps the main agent's prompt apart from a game's.
    traits: { cutsPrefill: true, keepsPromptsApart: true },
  });
}
