/**
 * Storage for offline play: ask for persistent storage before the model download (so the
 * browser does not evict 1–2 GB of weights under pressure) and report used / free space.
 */
export interface StorageStatus {
  /** false when the page is not a secure context or the browser lacks the Storage API. */
  supported: boolean;
  usage: number | null;
  quota: number | null;
  free: number | null;
  persisted: boolean | null;
}

type StorageNav = { storage?: Partial<Pick<StorageManager, 'estimate' | 'persist' | 'persisted'>> };

function nav(): StorageNav {
  return (typeof navigator === 'undefined' ? {} : navigator) as StorageNav;
}

export async function storageStatus(n: StorageNav = nav()): Promise<StorageStatus> {
  const s = n.storage;
  if (!s?.estimate) return { supported: false, usage: null, quota: null, free: null, persisted: null };
  const [est, persisted] = await Promise.all([
    s.estimate().catch(() => ({}) as StorageEstimate),
    s.persisted ? s.persisted().catch(() => null) : Promise.resolve(null),
  ]);
  const usage = est.usage ?? null;
  const quota = est.quota ?? null;
  return { supported: true, usage, quota, free: usage !== null && quota !== null ? Math.max(0, quota - usage) : null, persisted };
}

/**
 * Call before a model download (model settings). Asks for persistent storage (Chrome grants it
 * without a prompt to installed or often-used apps; it may say no, and the download still goes on)
 * and returns the status, so the caller can warn when `free` is below the model's size.
 */
export async function ensurePersistentStorage(n: StorageNav = nav()): Promise<StorageStatus> {
  const s = n.storage;
  if (s?.persist) {
    const already = s.persisted ? await s.persisted().catch(() => false) : false;
    if (!already) await s.persist().catch(() => false);
  }
  return storageStatus(n);
}

/** What the browser answered about keeping the storage, in a parent's words (the true answer, whatever it is). */
export function persistenceText(s: Pick<StorageStatus, 'supported' | 'persisted'>): string {
  if (!s.supported || s.persisted === null) return '这个浏览器不告诉我们会不会长期保存游戏和下载的大脑；空间紧张时它可能清掉它们。';
  return s.persisted
    ? '浏览器答应了长期保存这台设备上的游戏、自己做的游戏和下载的大脑，不会自动清理。'
    : '浏览器这次没有答应长期保存：空间紧张时，它可能清掉下载的大脑和自己做的游戏。把游戏厅添加到主屏幕后，可以在「设置 → 存储空间」再申请。';
}

/** 1536 → "1.5 KB", in the units a parent reads (powers of 1024). */
export function formatBytes(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '未知';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}
