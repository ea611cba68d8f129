/**
 * The brain as the status line and the first-run path see it (`BrainFacts`, src/core/status/readiness.ts),
 * from the model controller's state and the hub: which brain, whether it answers now, whether it
 * answers with the network off. One case per engine; a new engine adds its case here.
 */
import type { BrainFacts } from '../core/status/readiness.ts';
import { remoteHost } from '../core/llm/remote-endpoint.ts';
import { localStateText, engineName, type ControllerState, type LocalState } from './model-controller.ts';

/** Failures of a remote step that mean the server did not answer in time (rather than could not be reached). */
const NO_ANSWER_IN_TIME = new Set(['model_remote_timeout', 'model_too_slow']);

/** A brain on this device (WebLLM or the CPU engine) that does not answer yet: downloading, loading, failed. */
function localWaiting(label: string, state: LocalState): BrainFacts | undefined {
  if (state.kind === 'downloading') return { chosen: true, label, ready: false, offline: false, note: `下载中 ${state.percent}%`, waiting: `下载中 ${state.percent}%` };
  if (state.kind === 'cached') return { chosen: true, label, ready: false, offline: true, note: '已下载，正在加载', waiting: '正在加载' };
  if (state.kind === 'checking') return { chosen: true, label, ready: false, offline: true, note: localStateText(state), waiting: '正在试答' };
  if (state.kind === 'measuring') return { chosen: true, label, ready: false, offline: true, note: localStateText(state), waiting: '正在测速度' };
  if (state.kind === 'failed') return { chosen: true, label, ready: false, offline: false, note: localStateText(state), waiting: '没下载成功' };
  return undefined;
}

/** A brain on this device chosen by hand that is not on it yet (or cannot run here). */
function notLoaded(label: string, state: LocalState): BrainFacts {
  const waiting = state.kind === 'unavailable' ? '这台设备用不了' : state.kind === 'unknown' ? '检查中' : '还没下载';
  return { chosen: true, label, ready: false, offline: false, note: localStateText(state), waiting };
}

export function brainFacts(s: ControllerState): BrainFacts {
  // The chosen model's family name; the one in use is the model the engine really loaded.
  const local = engineName(s, 'webllm');
  const cpu = engineName(s, 'cpu');
  switch (s.active) {
    case 'scripted':
      return { chosen: true, label: '规则大脑', ready: true, offline: true, note: '按游戏规则马上回答，聊天用固定的句子' };
    case 'webllm':
      return { chosen: true, label: s.inUse?.webllm ?? local, ready: true, offline: true };
    case 'cpu':
      return { chosen: true, label: s.inUse?.cpu ?? cpu, ready: true, offline: true, note: '比显卡慢，每轮回答要等一会儿' };
    case 'remote': {
      const contact = s.remoteContact;
      const note = `${remoteHost(s.settings.remote.baseUrl)}，${!contact ? '还没连过' : contact.ok ? '上次连接成功' : `上次连不上：${contact.reason}`}`;
      // Its last real state: a server reached that did not answer in time is not "unreachable".
      const waiting = contact?.code && NO_ANSWER_IN_TIME.has(contact.code) ? '没有及时回答' : '连不上';
      return { chosen: true, label: '家里的电脑', ready: !contact || contact.ok, offline: false, note, waiting };
    }
  }
  // No brain answers yet: what was chosen (or, left to the automatic choice, what it picked), and what it waits for.
  const notChosen: BrainFacts = { chosen: false, label: '', ready: false, offline: false, note: s.probe?.usable ? '可以下载本机大脑。' : '点「选大脑」选一个。' };
  switch (s.settings.provider) {
    case 'scripted':
      return { chosen: true, label: '规则大脑', ready: false, offline: true, note: '正在准备', waiting: '正在准备' };
    case 'remote':
      return { chosen: true, label: '家里的电脑', ready: false, offline: false, note: s.remoteProblem ?? '还没填家里电脑的地址', waiting: s.remoteProblem ? '地址用不了' : '还没填地址' };
    case 'webllm':
      return localWaiting(local, s.local) ?? notLoaded(local, s.local);
    case 'cpu':
      return localWaiting(cpu, s.cpu) ?? notLoaded(cpu, s.cpu);
    case 'auto':
      // The untouched default is not a choice until a local model is on its way.
      if (s.provider === 'webllm') return localWaiting(local, s.local) ?? notChosen;
      if (s.provider === 'cpu') return localWaiting(cpu, s.cpu) ?? notChosen;
      return notChosen;
  }
}
