/**
 * Which brain this device should use, decided from what it has, and why in plain Chinese:
 * a usable WebGPU → the local WebLLM model, unless it was measured here and its wait does not fit
 * the turn budget; else the CPU engine (llama.cpp in WebAssembly) only when it was measured here and
 * fits (the browser can run it and the device has the memory); else the remote API when one is set
 * up; else the rules brain (the games' own rules and fixed lines, no model). Pure: the facts are
 * passed in.
 */
import { speedText, type BrainSpeed } from './brain-speed.ts';

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
  /** Speeds measured on this device (after a load), judged against the turn budget in use. */
  speeds?: { webllm?: BrainSpeed; cpu?: BrainSpeed };
}

export interface EngineChoice {
  engine: EngineKind;
  /** One or two sentences for the parent: what was chosen and why, in family words. */
  why: string;
  /** The technical side of the choice (for 技术细节): the engine, threads, memory. */
  detail?: string;
  /** The chosen engine is noticeably slower than a GPU (said honestly). */
  slower: boolean;
  /** The CPU engine runs in this browser and the device has the memory for its model (it may be offered). */
  cpuRuns?: boolean;
  /**
   * Nothing but the rules brain can play here now: no model on this device can answer within the
   * turn (none runs, or each that runs was measured too slow) and no home computer is set up. The
   * first run then takes the rules brain without asking (the parent can change it later).
   */
  rulesOnly?: boolean;
}

/**
 * Browsers report deviceMemory rounded down to a power of two (a 3 GB tablet says 2), so 2 GB
 * means "2 to 4 GB": enough for the 0.5B model (≈0.9 GB) when other pages are closed.
 */
const MIN_DEVICE_MEMORY_GB = 2;

/**
 * Threads the CPU engine uses: several only when the page is cross-origin isolated (memory shared
 * between threads); the count measured fastest on this device (the model controller measures each
 * candidate after the first load, brain-speed.ts), or before that as many as the cores, at most 4.
 */
export function cpuThreadCount(isolated: boolean, cores: number, requested?: number): number {
  if (!isolated) return 1;
  if (requested && requested > 0) return requested;
  return Math.max(1, Math.min(4, cores));
}

/**
 * Prompt tokens llama.cpp reads per engine step. wllama runs one step per poll of a request and
 * checks the abort signal between polls, so a cancelled request stops after at most this many
 * more prompt tokens (llama.cpp's default, 2048, lets a whole prompt run on after its turn was
 * given up). Measured on Qwen2.5-0.5B's shapes in Chromium (bench/cpu-engine --qwen): see
 * docs/notes/llm.md.
 */
export const CPU_PREFILL_CHUNK = 32;

/** How the CPU engine will run here, in words (threads). */
export function cpuThreadsText(isolated: boolean, cores: number): string {
  if (!isolated) return '本页面没有跨源隔离，只能用 1 个线程，会更慢';
  return cores > 1 ? `最多可以同时用 ${Math.min(4, cores)} 个线程，用几个由实测决定` : '这台设备只有 1 个核心，只用 1 个线程';
}

export function chooseEngine(f: EngineFacts): EngineChoice {
  const memoryOk = f.deviceMemoryGB === undefined || f.deviceMemoryGB >= MIN_DEVICE_MEMORY_GB;
  const choice = decide(f, memoryOk);
  const cpuRuns = f.cpuUsable && memoryOk;
  // A CPU engine that runs but was never measured may yet fit: the parent decides.
  const rulesOnly = choice.engine === 'scripted' && !(cpuRuns && !f.speeds?.cpu);
  return { ...choice, cpuRuns, rulesOnly };
}

function decide(f: EngineFacts, memoryOk: boolean): EngineChoice {
  const gpu = f.speeds?.webllm;
  if (f.gpuUsable && (!gpu || gpu.fits))
    return {
      engine: 'webllm',
      slower: false,
      why: gpu
        ? `这台设备有可用的显卡，用本机大脑：下载一次后离线也能玩。${speedText(gpu)}`
        : '这台设备有可用的显卡，用本机大脑：下载一次后离线也能玩；下载后先在这台设备上测一下每轮要等多久。',
      detail: 'WebLLM（WebGPU）',
    };
  const cpu = f.speeds?.cpu;
  if (f.cpuUsable && memoryOk && cpu?.fits)
    return {
      engine: 'cpu',
      slower: true,
      why: `这台设备没有可用的显卡，用本机慢速大脑（在处理器上运行）。${speedText(cpu)}`,
      detail: `llama.cpp（WebAssembly，CPU）：${cpuThreadsText(f.isolated, f.cores)}`,
    };
  const because = gpu
    ? `本机模型太慢：${speedText(gpu)}`
    : cpu
      ? `这台设备没有可用的显卡；本机慢速大脑太慢：${speedText(cpu)}`
      : !f.cpuUsable
        ? '这台设备没有可用的显卡，浏览器也不能在处理器上运行大脑'
        : !memoryOk
          ? `这台设备没有可用的显卡，内存也不够在本机运行大脑（要约 ${f.cpuModelRamMB} MB 空闲内存）`
          : `这台设备没有可用的显卡；本机慢速大脑可以下载（约 ${f.cpuModelDownloadMB} MB），但要先在这台设备上测过够快才会用它`;
  const detail = [
    `WebGPU：${f.gpuUsable ? '可用' : '不可用'}`,
    `llama.cpp（WebAssembly，CPU）：${f.cpuUsable ? cpuThreadsText(f.isolated, f.cores) : '不能运行'}`,
    ...(f.deviceMemoryGB !== undefined ? [`deviceMemory ≈ ${f.deviceMemoryGB} GB`] : []),
  ].join('；');
  const sep = /[。！]$/.test(because) ? '' : '。';
  if (f.remoteConfigured) return { engine: 'remote', slower: false, why: `${because}${sep}所以用已经设置好的家里电脑（需要局域网或网络）。`, detail };
  return {
    engine: 'scripted',
    slower: false,
    why: `${because}${sep}现在用规则大脑：每轮马上回答，不用联网，每个游戏都能玩到底，聊天用固定的友好句子。也可以在设置里连上家里的电脑。`,
    detail,
  };
}
