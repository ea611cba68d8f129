/**
 * The local models offered in settings (WebLLM prebuilt ids, 0.2.86) and the default choice.
 * Pure: no WebLLM import (the engine and its app config live in the model worker) and no browser
 * API; what the device can do is passed in.
 */

/** What the WebGPU probe found that the model choice depends on. */
export interface GpuFacts {
  /** The adapter has `shader-f16`. */
  f16: boolean;
  maxStorageBufferBindingSize?: number;
}

interface LocalModelChoice {
  /** WebLLM model_id. */
  id: string;
  label: string;
  /** Approximate download, MB. */
  downloadMB: number;
  /** GPU memory needed, MB (prebuiltAppConfig's vram_required_MB). */
  vramMB: number;
  /** Qwen3: send `enable_thinking:false`. */
  thinking?: boolean;
  /** Its name for a family: 小号 (about half a billion weights) or 中号 (one and a half). */
  size: BrainSize;
  /** What sets it apart from the other of its size, in plain words (shown after the name). */
  kind?: string;
}

/** A brain's size as a family reads it. */
export type BrainSize = '小号' | '中号';

export const LOCAL_MODELS: LocalModelChoice[] = [
  { id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', label: 'Qwen2.5-1.5B（q4f16）', size: '中号', kind: '推荐', downloadMB: 880, vramMB: 1630 },
  { id: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC', label: 'Qwen2.5-1.5B（q4f32，无 f16 的显卡）', size: '中号', kind: '给旧显卡', downloadMB: 1100, vramMB: 1889 },
  { id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', label: 'Qwen2.5-0.5B（q4f16）', size: '小号', kind: '较弱的设备', downloadMB: 280, vramMB: 945 },
  { id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', label: 'Qwen2.5-0.5B（q4f32，无 f16 的显卡）', size: '小号', kind: '较弱的设备、旧显卡', downloadMB: 320, vramMB: 1060 },
  { id: 'Qwen3-1.7B-q4f16_1-MLC', label: 'Qwen3-1.7B（q4f16）', size: '中号', kind: '新版', downloadMB: 1000, vramMB: 2037, thinking: true },
  { id: 'Qwen3-0.6B-q4f16_1-MLC', label: 'Qwen3-0.6B（q4f16）', size: '小号', kind: '新版', downloadMB: 350, vramMB: 1403, thinking: true },
];

export const DEFAULT_MODEL_ID = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const WEAK_DEVICE_MODEL_ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

export function isQwen3(modelId: string): boolean {
  return /^qwen3/i.test(modelId) || LOCAL_MODELS.some((m) => m.id === modelId && m.thinking);
}

/** The q4f32 twin of a q4f16 id when the adapter has no shader-f16 (WebLLM doesn't check for Qwen). */
export function adaptToGpu(modelId: string, probe: Pick<GpuFacts, 'f16'>): string {
  return !probe.f16 && modelId.includes('q4f16_1') ? modelId.replace('q4f16_1', 'q4f32_1') : modelId;
}

export interface DeviceHints {
  /** navigator.deviceMemory (GB), when the browser tells. */
  deviceMemoryGB?: number;
  /** iPad/iPhone: WebContent is killed above ~1.5 GB (research §7). */
  ios?: boolean;
}

/** Weak: small GPU buffers (phones), little memory, or iOS. */
function isWeakDevice(probe: GpuFacts, hints: DeviceHints = {}): boolean {
  const sbb = probe.maxStorageBufferBindingSize;
  return (
    (sbb !== undefined && sbb <= 128 * 1024 * 1024) ||
    (hints.deviceMemoryGB !== undefined && hints.deviceMemoryGB <= 4) ||
    hints.ios === true
  );
}

/** The model a fresh install offers on this device (as chosen in settings; q4f16 naming). */
export function defaultChoiceFor(probe: GpuFacts, hints: DeviceHints = {}): string {
  return isWeakDevice(probe, hints) ? WEAK_DEVICE_MODEL_ID : DEFAULT_MODEL_ID;
}

/** The technical name (for 技术细节): the model and its weights' format. */
export function modelLabel(modelId: string): string {
  return LOCAL_MODELS.find((m) => m.id === modelId)?.label ?? modelId;
}

/** The brain's name for a family: 「中号大脑」; a model not in the list (a self-hosted one) is 「自备的大脑」. */
export function modelName(modelId: string): string {
  const m = LOCAL_MODELS.find((x) => x.id === modelId);
  return m ? `${m.size}大脑` : '自备的大脑';
}

/** The choice as the settings list offers it: 「中号大脑（推荐，约 880 MB）」. */
export function modelOption(modelId: string): string {
  const m = LOCAL_MODELS.find((x) => x.id === modelId);
  return m ? `${m.size}大脑（${m.kind ? `${m.kind}，` : ''}约 ${m.downloadMB} MB）` : modelId;
}
