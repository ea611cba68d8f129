/**
 * The app itself on the device: true once the service worker controls the page or reported its
 * precache complete (every screen, worker and game chunk then loads without the network). Whether
 * the brain works offline is the brain's own fact (src/llm/brain-status.ts); the verdict over every
 * part is src/core/status/readiness.ts. Also asks the browser to keep our storage when a local
 * model starts downloading (`followLocalModel`).
 */
import { writable, type Readable } from 'svelte/store';
import { ensurePersistentStorage } from './storage-persist.ts';

function controlled(): boolean {
  try {
    return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
  } catch {
    return false;
  }
}

const cached = writable<boolean>(controlled());

/** The app shell is cached (the status line and 设置 follow it). */
export const appCached: Readable<boolean> = { subscribe: cached.subscribe };

/** Called by the service worker registration (UpdatePrompt) when the shell is cached. */
export function markShellCached(value = true): void {
  cached.set(value);
}

/** Whether this page can be kept at all: a service worker in a secure context. */
export function canCacheApp(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && globalThis.isSecureContext === true;
}

/** What `followLocalModel` reads of the model controller (src/llm/model-controller.ts). */
export interface LocalModelSource {
  subscribe(fn: (s: { local: { kind: string }; provider?: string; cpu?: { kind: string } }) => void): () => void;
}

/** Asks the browser to keep our storage (persistent storage) once per download of a local model. */
export function followLocalModel(source: LocalModelSource, persist: () => Promise<unknown> = ensurePersistentStorage): () => void {
  let last: string | undefined;
  return source.subscribe((s) => {
    // The local engine in use: the CPU engine's model, or WebLLM's.
    const kind = s.provider === 'cpu' && s.cpu ? s.cpu.kind : s.local.kind;
    if (kind === last) return;
    last = kind;
    if (last === 'downloading') void persist().catch(() => undefined);
  });
}
