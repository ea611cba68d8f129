/**
 * The brains a family can choose on first run, in the order to offer them on this device, the
 * ones to recommend marked. A local model (the GPU one, or the CPU engine without a GPU) is
 * recommended only once it was measured on this device and its wait per turn fits the turn
 * budget; otherwise the rules brain (the games' own rules and their true lines, no model: instant,
 * offline, every built-in and hand-made game, fixed friendly chat) and the home computer are.
 * A choice is one entry of this list and one panel in src/ui/brain/ (registered by its id), so
 * another engine is one more entry. Pure.
 */
import { speedText, type BrainSpeed } from './brain-speed.ts';

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
  /** Speeds measured here after a load (judged against the turn budget in use). */
  speeds?: { local?: BrainSpeed; cpu?: BrainSpeed };
}

/** The title of the rules brain wherever a brain is named. */
export const RULES_BRAIN_TITLE = '规则大脑';

export function brainChoices(d: BrainDevice): BrainChoice[] {
  const measured = (m: BrainSpeed | undefined, before: string) => (m ? speedText(m) : before);
  const localFits = d.gpu && d.speeds?.local?.fits === true;
  const cpuFits = !d.gpu && d.cpu && d.speeds?.cpu?.fits === true;
  const local: BrainChoice = {
    id: 'local',
    title: '下载本机大脑',
    blurb: `下载一次（约 ${d.localDownloadMB} MB），之后不联网也能玩。${measured(d.speeds?.local, '下载后会先在这台设备上测一下每轮要等多久。')}`,
    offline: true,
    recommended: localFits,
  };
  const cpu: BrainChoice = {
    id: 'cpu',
    title: '下载本机慢速大脑',
    blurb: `不需要显卡：下载一次（约 ${d.cpuDownloadMB} MB），之后不联网也能玩；但比显卡慢很多。${measured(d.speeds?.cpu, '下载后会先在这台设备上测一下每轮要等多久，够快才推荐。')}`,
    offline: true,
    recommended: cpuFits,
  };
  const fits = localFits || cpuFits;
  const remote: BrainChoice = {
    id: 'remote',
    title: '用家里的电脑当大脑',
    blurb: '在家里的电脑上运行一个大脑程序（例如 Ollama 或 LM Studio），平板通过家里的 Wi-Fi 用它。电脑要开着。',
    offline: false,
    recommended: !fits,
  };
  const rules: BrainChoice = {
    id: 'demo',
    title: RULES_BRAIN_TITLE,
    blurb: '不用下载，也不用电脑：每轮马上回答，断网也能用，内置游戏和自己设计的游戏都能玩到底。它按游戏规则判断对错、说真话；聊天只会说固定的友好句子。',
    offline: true,
    recommended: !fits,
  };
  const model = d.gpu ? local : d.cpu ? cpu : undefined;
  if (!model) return [rules, remote];
  return fits ? [model, remote, rules] : [rules, remote, model];
}
