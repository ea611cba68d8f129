/** The screens' way to the device's storage: asking to keep the app's data, and how much is used and free (src/trace/storage-persist.ts). */
export { ensurePersistentStorage, formatBytes, persistenceText, storageStatus, type StorageStatus } from '../trace/storage-persist.ts';
/** Whether the app's own files are kept for offline use (src/trace/offline-ready.ts): shown in 设置, set when the service worker has them. */
export { appCached, markShellCached } from '../trace/offline-ready.ts';
