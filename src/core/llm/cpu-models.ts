/**
 * The models the CPU engine (llama.cpp in WebAssembly) offers: GGUF files, one file each, loaded
 * by URL (a parent may point to a self-hosted copy, e.g. on the robot). Pure: what the device
 * can do is passed in.
 */
export interface CpuModelChoice {
  /** Our id for the choice (also the engine's model id). */
  id: string;
  label: string;
  /** Where the GGUF is downloaded from by default. */
  url: string;
  /** Approximate download, MB (the real size is shown from the download itself). */
  downloadMB: number;
  /** Memory the engine needs with a 4096-token context, MB (weights, KV cache, compute buffers). */
  ramMB: number;
}

export const CPU_MODELS: CpuModelChoice[] = [
  {
    id: 'qwen2.5-0.5b-instruct-q4_k_m',
    label: 'Qwen2.5-0.5B（Q4_K_M，推荐）',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    downloadMB: 491,
    ramMB: 900,
  },
  {
    id: 'qwen2.5-1.5b-instruct-q4_k_m',
    label: 'Qwen2.5-1.5B（Q4_K_M，更聪明但慢约 3 倍）',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    downloadMB: 1120,
    ramMB: 1800,
  },
];

export const DEFAULT_CPU_MODEL_ID = CPU_MODELS[0].id;

export function cpuModel(id: string): CpuModelChoice | undefined {
  return CPU_MODELS.find((m) => m.id === id);
}

/** The GGUF URL to load: the parent's own address when set, else the choice's default. */
export function cpuModelUrl(req: { modelId: string; modelUrl?: string }): string {
  if (req.modelUrl) return req.modelUrl;
  const m = cpuModel(req.modelId);
  if (!m) throw new Error(`Cannot find model record for ${req.modelId}: give the GGUF address`);
  return m.url;
}

export function cpuModelLabel(id: string): string {
  return cpuModel(id)?.label ?? id;
}
