/**
 * Which brain this device should use, decided from what it has, and why in plain Chinese:
 * a usable WebGPU → the local WebLLM model; else the CPU engine (llama.cpp in WebAssembly) when the
 * browser can run it and the device has the memory; else the remote API when one is set up; else
 * the demo script. Pure: the facts are passed in.
 */
export type EngineKind = 'webllm' | 'cpu' | 'remote' | 'scripted';

export interface EngineFacts {
  gpuUsable: boolean;
  cpuUsable: boolean;
  /** The page may use several threads (cross-origin isolated). */
  isolated: boolean;
  cores: number;
  /** navigator.deviceMemory (GB, a power of two the browser rounds down to), when told. */
  deviceMemoryGB?: number;
  remoteConfigured: boolean;
  /** Memory the default CPU model needs, MB. */
  cpuModelRamMB: number;
  /** Its download, MB. */
  cpuModelDownloadMB: number;
}

export interface EngineChoice {
  engine: EngineKind;
  /** One or two sentences for the parent: what was chosen and why. */
  why: string;
  /** The chosen engine is noticeably slower than a GPU (said honestly). */
  slower: boolean;
}

/**
 * Browsers report deviceMemory rounded down to a power of two (a 3 GB tablet says 2), so 2 GB
 * means "2 to 4 GB": enough for the 0.5B model (≈0.9 GB) when other pages are closed.
 */
const MIN_DEVICE_MEMORY_GB = 2;

/**
 * Threads the CPU engine uses: several only when the page is cross-origin isolated (memory shared
 * between threads), half the cores (the big cores of a phone or tablet), at most 4 (more slow
 * llama.cpp down); or what the settings ask for.
 */
export function cpuThreadCount(isolated: boolean, cores: number, requested?: number): number {
  if (!isolated) return 1;
  if (requested && requested > 0) return requested;
  return Math.max(1, Math.min(4, Math.floor(cores / 2)));
}

/** How the CPU engine will run here, in words (threads). */
export function cpuThreadsText(isolated: boolean, cores: number): string {
  if (!isolated) return '本页面没有跨源隔离，只能用 1 个线程，会更慢';
  const n = cpuThreadCount(isolated, cores);
  return n > 1 ? `可以同时用 ${n} 个线程` : `这台设备只有 ${cores} 个核心，只用 1 个线程`;
}

export function chooseEngine(f: EngineFacts): EngineChoice {
  if (f.gpuUsable)
    return { engine: 'webllm', slower: false, why: '这台设备有可用的显卡（WebGPU），用本机模型：下载一次后离线也能玩，回答最快。' };
  const memoryOk = f.deviceMemoryGB === undefined || f.deviceMemoryGB >= MIN_DEVICE_MEMORY_GB;
  if (f.cpuUsable && memoryOk) {
    const threads = cpuThreadsText(f.isolated, f.cores);
    return {
      engine: 'cpu',
      slower: true,
      why: `这台设备没有可用的显卡（WebGPU），改用 CPU 引擎在本机运行小模型：下载一次（约 ${f.cpuModelDownloadMB} MB）后离线也能玩，但比显卡慢很多：估计每轮回答要等 10 到 40 秒（${threads}）。`,
    };
  }
  const because = !f.cpuUsable
    ? '这台设备没有可用的显卡，浏览器也不能运行 CPU 引擎'
    : `这台设备没有可用的显卡，内存（约 ${f.deviceMemoryGB} GB）也不够在本机运行模型（需要约 ${(f.cpuModelRamMB / 1024).toFixed(1)} GB 空闲内存）`;
  if (f.remoteConfigured) return { engine: 'remote', slower: false, why: `${because}，所以用已经设置好的远程接口（需要局域网或网络）。` };
  return {
    engine: 'scripted',
    slower: false,
    why: `${because}。请在设置里连上局域网或云端的远程接口（例如电脑上的 Ollama）；在那之前只能用演示脚本（回答是预先写好的）。`,
  };
}
