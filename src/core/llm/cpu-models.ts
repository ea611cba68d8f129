/**
 * The models the CPU engine (llama.cpp in WebAssembly) offers: GGUF files, one file each, loaded
 * by URL (a parent may point to a self-hosted copy, e.g. on the robot). Pure: what the device
 * can do is passed in.
 */
import type { BrainSize } from './models.ts';

export interface CpuModelChoice {
  /** Our id for the choice (also the engine's model id). */
  id: string;
  /** The technical name (for 技术细节). */
  label: string;
  /** Its name for a family (小号 / 中号). */
  size: BrainSize;
  /** What sets it apart, in plain words. */
  kind: string;
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
    label: 'Qwen2.5-0.5B（GGUF Q4_K_M）',
    size: '小号',
    kind: '推荐',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    downloadMB: 491,
    ramMB: 900,
  },
  {
    id: 'qwen2.5-1.5b-instruct-q4_k_m',
    label: 'Qwen2.5-1.5B（GGUF Q4_K_M）',
    size: '中号',
    kind: '更聪明，但还要慢约 3 倍',
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

/** The technical name (for 技术细节). */
export function cpuModelLabel(id: string): string {
  return cpuModel(id)?.label ?? id;
}

/** The CPU engine's brain for a family: 「小号慢速大脑」; a file of the parent's own is 「自备的慢速大脑」. */
export function cpuModelName(id: string, selfHosted = false): string {
  const m = cpuModel(id);
  return m && !selfHosted ? `${m.size}慢速大脑` : '自备的慢速大脑';
}

/** The choice as the settings list offers it: 「小号慢速大脑（推荐，下载约 491 MB，要约 900 MB 内存）」. */
export function cpuModelOption(id: string): string {
  const m = cpuModel(id);
  return m ? `${m.size}慢速大脑（${m.kind}，下载约 ${m.downloadMB} MB，要约 ${m.ramMB} MB 内存）` : id;
}
