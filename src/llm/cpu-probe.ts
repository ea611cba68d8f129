/**
 * Can this browser run the CPU engine (llama.cpp in WebAssembly), and how fast a setup does it get?
 * The engine's build needs WebAssembly SIMD, exception handling and 64-bit memory (Chrome 133+,
 * Firefox 134+); several threads need a cross-origin-isolated page (SharedArrayBuffer).
 * Synchronous and small: the settings screen and the engine choice read it at start.
 */
import { cpuThreadsText } from '../core/llm/engine-choice.ts';

export type CpuProbeReason = 'no-wasm' | 'no-wasm-simd' | 'no-wasm-exceptions' | 'no-wasm-memory64';

export interface CpuProbe {
  usable: boolean;
  reason?: CpuProbeReason;
  /** The page is cross-origin isolated, so the engine may use several threads. */
  isolated: boolean;
  cores: number;
  /** navigator.deviceMemory (GB, rounded down to a power of two by the browser), when told. */
  deviceMemoryGB?: number;
}

const SIMD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
const EXCEPTIONS = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11];

export interface CpuProbeEnv {
  wasm?: { validate(bytes: Uint8Array): boolean; Memory: new (d: object) => unknown };
  crossOriginIsolated?: boolean;
  hardwareConcurrency?: number;
  deviceMemory?: number;
}

function currentEnv(): CpuProbeEnv {
  const g = globalThis as { WebAssembly?: CpuProbeEnv['wasm']; crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number; deviceMemory?: number } };
  return { wasm: g.WebAssembly, crossOriginIsolated: g.crossOriginIsolated, hardwareConcurrency: g.navigator?.hardwareConcurrency, deviceMemory: g.navigator?.deviceMemory };
}

function memory64(wasm: NonNullable<CpuProbeEnv['wasm']>): boolean {
  try {
    new wasm.Memory({ address: 'i64', initial: 1n });
    return true;
  } catch {
    return false;
  }
}

export function probeCpu(env: CpuProbeEnv = currentEnv()): CpuProbe {
  const base = { isolated: env.crossOriginIsolated === true, cores: env.hardwareConcurrency ?? 1, deviceMemoryGB: env.deviceMemory };
  const wasm = env.wasm;
  if (!wasm) return { ...base, usable: false, reason: 'no-wasm' };
  if (!wasm.validate(new Uint8Array(SIMD))) return { ...base, usable: false, reason: 'no-wasm-simd' };
  if (!wasm.validate(new Uint8Array(EXCEPTIONS))) return { ...base, usable: false, reason: 'no-wasm-exceptions' };
  if (!memory64(wasm)) return { ...base, usable: false, reason: 'no-wasm-memory64' };
  return { ...base, usable: true };
}

/** The parent-facing sentence about the CPU engine on this device. */
export function cpuProbeSummary(p: CpuProbe): string {
  if (!p.usable) {
    const why: Record<CpuProbeReason, string> = {
      'no-wasm': '这个浏览器不支持 WebAssembly',
      'no-wasm-simd': '这个浏览器的 WebAssembly 不支持 SIMD',
      'no-wasm-exceptions': '这个浏览器的 WebAssembly 不支持异常处理',
      'no-wasm-memory64': '这个浏览器的 WebAssembly 不支持 64 位内存（需要 Chrome 133 或更新版本）',
    };
    return `${why[p.reason!]}，无法在本机用 CPU 运行模型。请把浏览器更新到最新版。`;
  }
  return `可以用 CPU 运行模型（${cpuThreadsText(p.isolated, p.cores)}）。`;
}
