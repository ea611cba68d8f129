/**
 * "Ready offline": true only when the app shell is in the service worker's cache AND a model
 * finished loading completely (so its weights, config and wasm are in WebLLM's caches).
 * The model helper calls `markModelLoaded(modelId)` after a successful full load, and
 * `markModelMissing()` when the cache is deleted or a load fails. With the remote API provider
 * nothing can be promised offline (the settings screen says so).
 */
import { derived, writable, type Readable } from 'svelte/store';
import { ensurePersistentStorage } from './storage-persist.ts';

interface OfflineState {
  /** The model whose complete load was seen last (persisted). */
  modelId: string | null;
  loadedAt: number | null;
  /** The service worker controls the page / reported its precache complete. */
  shellCached: boolean;
}

interface OfflineReady extends OfflineState {
  ready: boolean;
}

const KEY = 'agentcade.offline-model';

function loadModel(): Pick<OfflineState, 'modelId' | 'loadedAt'> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { modelId?: unknown; loadedAt?: unknown } | null;
    if (v && typeof v.modelId === 'string') return { modelId: v.modelId, loadedAt: typeof v.loadedAt === 'number' ? v.loadedAt : null };
  } catch {
    // no storage: nothing known
  }
  return { modelId: null, loadedAt: null };
}

function controlled(): boolean {
  try {
    return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
  } catch {
    return false;
  }
}

const state = writable<OfflineState>({ ...loadModel(), shellCached: controlled() });

/** The flag the settings screen shows. */
export const offlineReady: Readable<OfflineReady> = derived(state, (s) => ({ ...s, ready: s.shellCached && s.modelId !== null }));

export function markModelLoaded(modelId: string, at = Date.now()): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ modelId, loadedAt: at }));
  } catch {
    // still true for this session
  }
  state.update((s) => ({ ...s, modelId, loadedAt: at }));
}

function markModelMissing(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
  state.update((s) => ({ ...s, modelId: null, loadedAt: null }));
}

/** Called by the service worker registration (UpdatePrompt) when the shell is cached. */
export function markShellCached(cached = true): void {
  state.update((s) => ({ ...s, shellCached: cached }));
}

/** What `followLocalModel` reads of the model controller (src/llm/model-controller.ts). */
export interface LocalModelSource {
  subscribe(
    fn: (s: { local: { kind: string }; effectiveModelId: string; provider?: string; cpu?: { kind: string }; settings?: { cpu?: { modelId: string } } }) => void,
  ): () => void;
}

/**
 * Keeps "ready offline" and persistent storage in step with the local model (the app calls this
 * once with its model controller): storage is asked to persist as a download starts, a complete
 * load (`ready`, or `cached` = a complete load seen before and its files still there) marks the
 * model ready offline, and a chosen model that is not on the device (`not-downloaded`, e.g. after
 * deleting it) clears the flag.
 */
export function followLocalModel(source: LocalModelSource, persist: () => Promise<unknown> = ensurePersistentStorage): () => void {
  let last: string | undefined;
  return source.subscribe((s) => {
    // The local engine in use: the CPU engine's model, or WebLLM's.
    const cpu = s.provider === 'cpu' && s.cpu;
    const kind = cpu ? s.cpu!.kind : s.local.kind;
    if (kind === last) return;
    last = kind;
    if (last === 'downloading') void persist().catch(() => undefined);
    else if (last === 'ready' || last === 'cached') markModelLoaded(cpu ? `cpu:${s.settings?.cpu?.modelId ?? ''}` : s.effectiveModelId);
    else if (last === 'not-downloaded') markModelMissing();
  });
}
