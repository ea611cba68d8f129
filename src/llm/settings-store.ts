/**
 * The model settings, persisted in IndexedDB (`agentcade-settings`, store `kv`, key `model`).
 * The record carries its own version; older or partial records are filled with defaults, and a
 * damaged one falls back to the defaults instead of failing the app. Version 2 added the CPU
 * engine, the automatic choice (`provider: 'auto'`, the default of a new install; a version-1
 * record keeps the provider it named), and the remote server's preset and probed output mode.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DEFAULT_MODEL_ID } from '../core/llm/models.ts';
import { DEFAULT_CPU_MODEL_ID } from '../core/llm/cpu-models.ts';
import type { ProviderKind } from './model-hub.ts';
import { isOutputMode, type OutputMode } from '../core/llm/output-modes.ts';
import type { BrainSpeed } from '../core/llm/brain-speed.ts';

export const SETTINGS_DB = 'agentcade-settings';
export const SETTINGS_DB_VERSION = 1;
export const SETTINGS_STORE = 'kv';
export const MODEL_SETTINGS_KEY = 'model';
export const MODEL_SETTINGS_VERSION = 2;

export interface RemoteSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
  disableThinking: boolean;
  /** The preset the parent started from (src/core/llm/remote-presets.ts). */
  preset: string;
  /** The structured-output mode the probe chose for `probedFor`. */
  mode?: OutputMode;
  /** `baseUrl|model` the mode was probed for (another server or model is probed again). */
  probedFor?: string;
}

export interface CpuSettings {
  /** A CPU_MODELS id. */
  modelId: string;
  /** A self-hosted GGUF address (optional; made absolute before loading). */
  modelUrl: string;
  /** Threads chosen by measurement on this device (unset: not measured yet). */
  threads?: number;
}

/** `auto`: the engine chosen from what the device has (core/llm/engine-choice.ts). */
export type ProviderSetting = ProviderKind | 'auto';

export interface ModelSettings {
  version: number;
  provider: ProviderSetting;
  /** WebLLM model id chosen by the parent (the q4f32 twin is used automatically without f16). */
  localModelId: string;
  /** Self-hosted model folder / library URLs (optional; made absolute before loading). */
  localModelUrl: string;
  localModelLibUrl: string;
  remote: RemoteSettings;
  cpu: CpuSettings;
  /** Model ids (WebLLM and CPU engine) that completed one full load here, so they work offline. */
  readyOffline: string[];
  /** Speeds measured on this device after a load, by the same key as `readyOffline`. */
  speeds?: Record<string, BrainSpeed>;
}

export function probedKey(r: Pick<RemoteSettings, 'baseUrl' | 'model'>): string {
  return `${r.baseUrl.trim()}|${r.model.trim()}`;
}

export function defaultModelSettings(): ModelSettings {
  return {
    version: MODEL_SETTINGS_VERSION,
    provider: 'auto',
    localModelId: DEFAULT_MODEL_ID,
    localModelUrl: '',
    localModelLibUrl: '',
    remote: { baseUrl: '', model: '', apiKey: '', timeoutMs: 60_000, disableThinking: false, preset: 'ollama' },
    cpu: { modelId: DEFAULT_CPU_MODEL_ID, modelUrl: '' },
    readyOffline: [],
  };
}

const PROVIDERS: ProviderSetting[] = ['auto', 'webllm', 'cpu', 'remote', 'scripted'];

/** Any stored value → valid settings (unknown fields dropped, missing ones defaulted). */
export function migrateModelSettings(stored: unknown): ModelSettings {
  const d = defaultModelSettings();
  if (typeof stored !== 'object' || stored === null) return d;
  const s = stored as Omit<Partial<ModelSettings>, 'remote' | 'cpu'> & { remote?: Partial<RemoteSettings>; cpu?: Partial<CpuSettings> };
  const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  const r: Partial<RemoteSettings> = s.remote ?? {};
  const c: Partial<CpuSettings> = s.cpu ?? {};
  const baseUrl = str(r.baseUrl, '');
  return {
    version: MODEL_SETTINGS_VERSION,
    provider: PROVIDERS.includes(s.provider as ProviderSetting) ? (s.provider as ProviderSetting) : d.provider,
    localModelId: str(s.localModelId, d.localModelId) || d.localModelId,
    localModelUrl: str(s.localModelUrl, ''),
    localModelLibUrl: str(s.localModelLibUrl, ''),
    remote: {
      baseUrl,
      model: str(r.model, ''),
      apiKey: str(r.apiKey, ''),
      timeoutMs: typeof r.timeoutMs === 'number' && r.timeoutMs > 0 ? r.timeoutMs : d.remote.timeoutMs,
      disableThinking: r.disableThinking === true,
      // A version-1 record with an address typed by hand: its preset is "other".
      preset: str(r.preset, baseUrl ? 'custom' : d.remote.preset) || d.remote.preset,
      ...(isOutputMode(r.mode) && typeof r.probedFor === 'string' ? { mode: r.mode, probedFor: r.probedFor } : {}),
    },
    cpu: {
      modelId: str(c.modelId, d.cpu.modelId) || d.cpu.modelId,
      modelUrl: str(c.modelUrl, ''),
      ...(typeof c.threads === 'number' && c.threads >= 1 && c.threads <= 16 ? { threads: Math.round(c.threads) } : {}),
    },
    readyOffline: Array.isArray(s.readyOffline) ? s.readyOffline.filter((x): x is string => typeof x === 'string') : [],
    ...(speedsOf(s.speeds) ? { speeds: speedsOf(s.speeds) } : {}),
  };
}

function isSpeed(v: unknown): v is BrainSpeed {
  const o = v as Partial<BrainSpeed> | null;
  return typeof o === 'object' && o !== null && [o.prefillPerS, o.decodePerS, o.turnWaitS, o.answerMs].every((n) => typeof n === 'number' && n > 0) && typeof o.fits === 'boolean';
}

function speedsOf(v: unknown): Record<string, BrainSpeed> | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const kept = Object.entries(v).filter(([, x]) => isSpeed(x));
  return kept.length ? Object.fromEntries(kept) : undefined;
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
