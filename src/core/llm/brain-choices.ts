/**
 * The brains a family can choose on first run, in the order to offer them on this device, the
 * best one marked: with a usable GPU, the local model (downloaded once, then offline); without one,
 * the CPU engine when this browser runs it and the device has the memory (offline too, but much
 * slower), else the home computer; the demo script always, last. A choice is one entry of this list and one panel
 * in src/ui/brain/ (registered by its id), so another engine is one more entry. Pure.
 */

export type BrainChoiceId = 'local' | 'cpu' | 'remote' | 'demo';

export interface BrainChoice {
  id: BrainChoiceId;
  title: string;
  /** What it means for the family, in one or two plain sentences. */
  blurb: string;
  /** Works without the network once set up. */
  offline: boolean;
  recommended: boolean;
}

export interface BrainDevice {
  /** WebGPU with a real GPU (the local model can run). */
  gpu: boolean;
  /** The CPU engine runs in this browser and the device has the memory for its model. */
  cpu: boolean;
  /** The local model's download in MB (for the blurb). */
  localDownloadMB: number;
  /** The CPU engine's model download in MB. */
  cpuDownloadMB: number;
}

export function brainChoices(d: BrainDevice): BrainChoice[] {
  const local: BrainChoice = {
    id: 'local',
    title: '下载本机大脑',
    blurb: `下载一次（约 ${d.localDownloadMB} MB），之后不联网也能玩。`,
    offline: true,
    recommended: true,
  };
  const cpu: BrainChoice = {
    id: 'cpu',
    title: '下载本机 CPU 慢速大脑',
    blurb: `不需要显卡：下载一次（约 ${d.cpuDownloadMB} MB），之后不联网也能玩；但比显卡慢很多，每轮回答估计要等 10 到 40 秒。`,
    offline: true,
    recommended: !d.gpu,
  };
  const remote: BrainChoice = {
    id: 'remote',
    title: '用家里的电脑当大脑',
    blurb: '在家里的电脑上运行 Ollama、llama.cpp 或 LM Studio，平板通过家里的 Wi-Fi 用它。电脑要开着。',
    offline: false,
    recommended: !d.gpu && !d.cpu,
  };
  const demo: BrainChoice = {
    id: 'demo',
    title: '先用演示脚本玩',
    blurb: '不用下载也不用电脑，马上能玩；机器人的回答是写好的，不会随孩子的话变。',
    offline: true,
    recommended: false,
  };
  if (d.gpu) return [local, remote, demo];
  return d.cpu ? [cpu, remote, demo] : [remote, demo];
}
