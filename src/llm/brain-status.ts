/**
 * The brain as the status line and the first-run path see it (`BrainFacts`, src/core/status/readiness.ts),
 * from the model controller's state and the hub: which brain, whether it answers now, whether it
 * answers with the network off. One case per engine; a new engine adds its case here.
 */
import type { BrainFacts } from '../core/status/readiness.ts';
import { modelLabel } from '../core/llm/models.ts';
import type { ControllerState } from './model-controller.ts';
import { localStateText } from './model-controller.ts';

/** The host a parent typed for the home computer (「192.168.1.20」), or the address as typed. */
export function remoteHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export function brainFacts(s: ControllerState): BrainFacts {
  const local = `本机大脑 ${modelLabel(s.effectiveModelId).replace(/（.*$/, '')}`;
  switch (s.active) {
    case 'scripted':
      return { chosen: true, label: '演示脚本', ready: true, offline: true, note: '回答是写好的，不会随孩子的话变' };
    case 'webllm':
      return { chosen: true, label: local, ready: true, offline: true };
    case 'remote': {
      const contact = s.remoteContact;
      const note = `${remoteHost(s.settings.remote.baseUrl)}，${!contact ? '还没连过' : contact.ok ? '上次连接成功' : `上次连不上：${contact.reason}`}`;
      return { chosen: true, label: '家里的电脑', ready: !contact || contact.ok, offline: false, note, waiting: '连不上' };
    }
  }
  // No brain answers yet: what was chosen, and what it waits for.
  switch (s.settings.provider) {
    case 'scripted':
      return { chosen: true, label: '演示脚本', ready: false, offline: true, note: '正在准备', waiting: '正在准备' };
    case 'remote':
      return { chosen: true, label: '家里的电脑', ready: false, offline: false, note: s.remoteProblem ?? '还没填家里电脑的地址', waiting: s.remoteProblem ? '地址用不了' : '还没填地址' };
    case 'webllm':
      if (s.local.kind === 'downloading')
        return { chosen: true, label: local, ready: false, offline: false, note: `下载中 ${s.local.percent}%`, waiting: `下载中 ${s.local.percent}%` };
      if (s.local.kind === 'cached') return { chosen: true, label: local, ready: false, offline: true, note: '已下载，正在加载', waiting: '正在加载' };
      if (s.local.kind === 'failed') return { chosen: true, label: local, ready: false, offline: false, note: localStateText(s.local), waiting: '没下载成功' };
      // The untouched default is not a choice.
      return { chosen: false, label: '', ready: false, offline: false, note: s.probe?.usable ? '可以下载本机大脑。' : '点「选大脑」选一个。' };
  }
}
