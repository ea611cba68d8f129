/** A model on this device as the settings and the header see it: not there, downloading, checked, ready, failed. */
import type { LoadProgress } from './engine-service.ts';

export type LocalState =
  | { kind: 'unknown' }
  | { kind: 'unavailable' }
  | { kind: 'not-downloaded' }
  | { kind: 'downloading'; percent: number; text: string; loaded?: number; total?: number }
  | { kind: 'cached' }
  /** Loaded for the first time; it is answering one step in the step format before it is called ready. */
  | { kind: 'checking' }
  /** Loaded; the calibration step is measuring this device's speed. */
  | { kind: 'measuring' }
  | { kind: 'ready' }
  | { kind: 'failed'; code: string; reason: string };

const MB = 1e6;

/** Chinese status line for a local model: 未下载 / 下载中 n% / 已可离线使用 / 失败：原因. */
export function localStateText(s: LocalState): string {
  switch (s.kind) {
    case 'unknown':
      return '检查中…';
    case 'unavailable':
      return '本机不能运行模型';
    case 'not-downloaded':
      return '未下载';
    case 'downloading':
      return s.total ? `下载中 ${s.percent}%（${(s.loaded! / MB).toFixed(1)} / ${(s.total / MB).toFixed(1)} MB）` : `下载中 ${s.percent}%`;
    case 'cached':
      return '已可离线使用（未加载）';
    case 'checking':
      return '下载好了，正在试答一步…';
    case 'measuring':
      return '正在测这台设备上的速度…';
    case 'ready':
      return '已可离线使用';
    case 'failed':
      return `失败：${s.reason}`;
  }
}

/** A download's progress as the model's state. */
export function downloading(p: LoadProgress): LocalState {
  return { kind: 'downloading', percent: Math.floor(p.progress * 100), text: p.text, loaded: p.loaded, total: p.total };
}
