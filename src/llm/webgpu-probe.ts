/**
 * Is there a GPU WebLLM can use? Run before creating the engine (WebLLM would otherwise download
 * its config and model library first). A fallback adapter (SwiftShader, CPU emulation) counts as
 * no GPU; without shader-f16 the q4f32 weights must be used.
 */
import type { DeviceHints } from '../core/llm/models.ts';

/** The little of WebGPU we read (no @webgpu/types dependency). */
export interface GpuAdapterLike {
  features: { has(name: string): boolean };
  limits: { maxStorageBufferBindingSize?: number; maxBufferSize?: number };
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
}
export interface GpuLike {
  requestAdapter(opts?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapterLike | null>;
}

export type ProbeReason = 'insecure-context' | 'no-webgpu-api' | 'no-adapter' | 'fallback-adapter' | 'error';

export interface WebGpuProbe {
  usable: boolean;
  reason?: ProbeReason;
  f16: boolean;
  adapter?: string;
  maxStorageBufferBindingSize?: number;
  maxBufferSize?: number;
  error?: string;
}

export interface ProbeEnv {
  isSecureContext: boolean;
  gpu?: GpuLike;
}

function currentEnv(): ProbeEnv {
  const g = globalThis as { isSecureContext?: boolean; navigator?: { gpu?: GpuLike } };
  return { isSecureContext: g.isSecureContext === true, gpu: g.navigator?.gpu };
}

export async function probeWebGPU(env: ProbeEnv = currentEnv()): Promise<WebGpuProbe> {
  if (!env.isSecureContext) return { usable: false, reason: 'insecure-context', f16: false };
  if (!env.gpu) return { usable: false, reason: 'no-webgpu-api', f16: false };
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await env.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (err) {
    return { usable: false, reason: 'error', f16: false, error: String(err) };
  }
  if (!adapter) return { usable: false, reason: 'no-adapter', f16: false };
  const info = adapter.info ?? {};
  const fallback = info.isFallbackAdapter === true || adapter.isFallbackAdapter === true;
  const result: WebGpuProbe = {
    usable: !fallback,
    f16: adapter.features.has('shader-f16'),
    adapter: [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || undefined,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
  };
  if (fallback) result.reason = 'fallback-adapter';
  return result;
}

/** The parent-facing sentence for the settings screen. */
export function probeSummary(p: WebGpuProbe): string {
  switch (p.reason) {
    case 'insecure-context':
      return '页面不是通过 https 打开的，浏览器不提供 WebGPU，无法在本机运行模型。';
    case 'no-webgpu-api':
      return '这个浏览器不支持 WebGPU，无法在本机运行模型。';
    case 'no-adapter':
      return '浏览器支持 WebGPU，但没有找到可用的显卡，无法在本机运行模型。';
    case 'fallback-adapter':
      return '只找到软件模拟的显卡（没有真正的 GPU），在本机运行模型会非常慢，不可用。';
    case 'error':
      return `检测显卡时出错：${p.error ?? ''}`;
    default:
      return `显卡可用${p.adapter ? `（${p.adapter}）` : ''}，${p.f16 ? '支持 16 位浮点（shader-f16）' : '不支持 16 位浮点，将使用 q4f32 版本'}。`;
  }
}

/** The error code to show when the local model cannot run, or undefined when it can. */
export function probeErrorCode(p: WebGpuProbe): 'model_insecure_context' | 'model_no_webgpu' | undefined {
  if (p.usable) return undefined;
  return p.reason === 'insecure-context' ? 'model_insecure_context' : 'model_no_webgpu';
}

/** What the browser tells about the device (memory, iOS) for the default model choice. */
export function currentDeviceHints(): DeviceHints {
  const nav = (globalThis as { navigator?: { deviceMemory?: number; userAgent?: string; maxTouchPoints?: number; platform?: string } })
    .navigator;
  if (!nav) return {};
  const ua = nav.userAgent ?? '';
  const ios = /iPad|iPhone|iPod/.test(ua) || (nav.platform === 'MacIntel' && (nav.maxTouchPoints ?? 0) > 1);
  return { deviceMemoryGB: nav.deviceMemory, ios };
}
