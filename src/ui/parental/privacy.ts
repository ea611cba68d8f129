/**
 * 隐私's words for the parts whose answer depends on how things are now: the brain answering (or,
 * none yet, the one to use), where speech is recognised, which voice reads aloud. Each says whether
 * anything leaves this device.
 */
import type { StatusFacts } from '../../core/status/readiness.ts';
import { remoteHost } from '../../core/llm/remote-endpoint.ts';
import type { ControllerState } from '../../llm/model-controller.ts';

export interface PrivacyLine {
  leaves: boolean;
  text: string;
}

export function brainPrivacy(model: Pick<ControllerState, 'active' | 'provider' | 'settings'>): PrivacyLine {
  // The brain answering now, or (none yet) the one to use: the automatic choice under 「自动」.
  const provider = model.active ?? model.provider;
  if (provider === 'remote') {
    const host = remoteHost(model.settings.remote.baseUrl);
    return { leaves: true, text: `远程大脑（${host || '还没填地址'}）：孩子说的话和游戏里的内容会发到这台电脑或服务器，由它来回答。` };
  }
  if (provider === 'webllm' || provider === 'cpu')
    return { leaves: false, text: '本机模型：在这台设备上想和回答，说的话不离开设备。第一次用时会从模型网站（huggingface.co）下载模型文件——只下载文件，不上传你们说的话。' };
  return { leaves: false, text: '规则大脑：在这台设备上运行，什么都不发出去。' };
}

export function listeningPrivacy(place: StatusFacts['listening']['place']): PrivacyLine {
  if (place === 'none') return { leaves: false, text: '这个浏览器不能识别说话，只能打字；没有声音会发出去。' };
  if (place === 'on-device') return { leaves: false, text: '在这台设备上把声音变成文字，声音不离开设备。' };
  return { leaves: true, text: '用浏览器自带的在线识别：按下麦克风时，孩子的声音会发到浏览器厂商（比如 Google）的服务器去变成文字。想让声音留在设备上，可以只用文字框。' };
}

export function speakingPrivacy(voice: StatusFacts['speaking']): PrivacyLine {
  if (voice.state === 'ready' && !voice.local) return { leaves: true, text: `现在的声音（${voice.voice}）是在线声音：机器人要说的话会发到浏览器厂商的服务器去读出来。在“声音和麦克风”里可以换成本机的声音。` };
  if (voice.state === 'ready') return { leaves: false, text: `用这台设备自己的声音（${voice.voice}）朗读。` };
  return { leaves: false, text: '没有中文声音：机器人说的话只显示成字幕。' };
}
