/** The screens' way to the device's storage: asking to keep the app's data, and how much is used and free (src/trace/storage-persist.ts). */
export { ensurePersistentStorage, formatBytes, persistenceText, storageStatus, type StorageStatus } from '../trace/storage-persist.ts';
