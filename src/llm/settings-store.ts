/**
 * The model settings, persisted in IndexedDB (`agentcade-settings`, store `kv`, key `model`).
 * The record carries its own version; older or partial records are filled with defaults, and a
 * damaged one falls back to the defaults instead of failing the app.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DEFAULT_MODEL_ID } from '../core/llm/models.ts';
import type { ProviderKind } from './model-hub.ts';

export const SETTINGS_DB = 'agentcade-settings';
export const SETTINGS_DB_VERSION = 1;
export const SETTINGS_STORE = 'kv';
export const MODEL_SETTINGS_KEY = 'model';
export const MODEL_SETTINGS_VERSION = 1;

export interface RemoteSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
  disableThinking: boolean;
}

export interface ModelSettings {
  version: number;
  provider: ProviderKind;
  /** WebLLM model id chosen by the parent (the q4f32 twin is used automatically without f16). */
  localModelId: string;
  /** Self-hosted model folder / library URLs (optional; made absolute before loading). */
  localModelUrl: string;
  localModelLibUrl: string;
  remote: RemoteSettings;
  /** Model ids that completed one full load here, so they work offline. */
  readyOffline: string[];
}

export function defaultModelSettings(): ModelSettings {
  return {
    version: MODEL_SETTINGS_VERSION,
    provider: 'webllm',
    localModelId: DEFAULT_MODEL_ID,
    localModelUrl: '',
    localModelLibUrl: '',
    remote: { baseUrl: '', model: '', apiKey: '', timeoutMs: 60_000, disableThinking: false },
    readyOffline: [],
  };
}

const PROVIDERS: ProviderKind[] = ['webllm', 'remote', 'scripted'];

/** Any stored value → valid settings (unknown fields dropped, missing ones defaulted). */
export function migrateModelSettings(stored: unknown): ModelSettings {
  const d = defaultModelSettings();
  if (typeof stored !== 'object' || stored === null) return d;
  const s = stored as Omit<Partial<ModelSettings>, 'remote'> & { remote?: Partial<RemoteSettings> };
  const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  const r: Partial<RemoteSettings> = s.remote ?? {};
  return {
    version: MODEL_SETTINGS_VERSION,
    provider: PROVIDERS.includes(s.provider as ProviderKind) ? (s.provider as ProviderKind) : d.provider,
    localModelId: str(s.localModelId, d.localModelId) || d.localModelId,
    localModelUrl: str(s.localModelUrl, ''),
    localModelLibUrl: str(s.localModelLibUrl, ''),
    remote: {
      baseUrl: str(r.baseUrl, ''),
      model: str(r.model, ''),
      apiKey: str(r.apiKey, ''),
      timeoutMs: typeof r.timeoutMs === 'number' && r.timeoutMs > 0 ? r.timeoutMs : d.remote.timeoutMs,
      disableThinking: r.disableThinking === true,
    },
    readyOffline: Array.isArray(s.readyOffline) ? s.readyOffline.filter((x): x is string => typeof x === 'string') : [],
  };
}

let dbPromise: Promise<IDBPDatabase> | undefined;

/** The shared settings database (other areas may keep their own keys in the same `kv` store). */
export function settingsDb(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(SETTINGS_DB, SETTINGS_DB_VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(SETTINGS_STORE)) db.createObjectStore(SETTINGS_STORE);
    },
  });
  return dbPromise;
}

export async function loadModelSettings(): Promise<ModelSettings> {
  try {
    const db = await settingsDb();
    return migrateModelSettings(await db.get(SETTINGS_STORE, MODEL_SETTINGS_KEY));
  } catch {
    return defaultModelSettings();
  }
}

export async function saveModelSettings(settings: ModelSettings): Promise<void> {
  const db = await settingsDb();
  await db.put(SETTINGS_STORE, structuredClone(migrateModelSettings(settings)), MODEL_SETTINGS_KEY);
}
