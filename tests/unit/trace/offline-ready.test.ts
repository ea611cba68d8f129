/**
 * "Ready offline" follows the local model's life in the app (followLocalModel): persistent storage
 * asked once as the download starts, ready only after a complete load and with the shell cached,
 * cleared when the chosen model is not on the device.
 */
import { get } from 'svelte/store';
import { describe, expect, it } from 'vitest';
import { followLocalModel, markShellCached, offlineReady, type LocalModelSource } from '../../../src/trace/offline-ready.ts';

function fakeController() {
  const fns = new Set<Parameters<LocalModelSource['subscribe']>[0]>();
  let modelId = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
  return {
    source: { subscribe: (fn) => (fns.add(fn), () => void fns.delete(fn)) } as LocalModelSource,
    set(kind: string, id = modelId) {
      modelId = id;
      for (const fn of fns) fn({ local: { kind }, effectiveModelId: modelId });
    },
  };
}

describe('followLocalModel', () => {
  it('asks for persistent storage once per download and marks the model ready after a complete load', async () => {
    const c = fakeController();
    let asked = 0;
    const stop = followLocalModel(c.source, async () => void asked++);
    markShellCached(true);
    c.set('not-downloaded');
    expect(get(offlineReady).ready).toBe(false);
    c.set('downloading');
    c.set('downloading'); // progress events
    expect(asked).toBe(1);
    expect(get(offlineReady).ready).toBe(false); // a download in progress is not enough
    c.set('ready');
    expect(get(offlineReady)).toMatchObject({ ready: true, modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
    // Without the app shell cached, nothing is ready offline, whatever the model.
    markShellCached(false);
    expect(get(offlineReady).ready).toBe(false);
    markShellCached(true);
    // Deleted (or another model chosen that is not on the device): no longer ready.
    c.set('not-downloaded', 'Qwen3-1.7B-q4f16_1-MLC');
    expect(get(offlineReady)).toMatchObject({ ready: false, modelId: null });
    // A model seen complete before and still cached counts after a restart.
    c.set('cached');
    expect(get(offlineReady)).toMatchObject({ ready: true, modelId: 'Qwen3-1.7B-q4f16_1-MLC' });
    stop();
    c.set('not-downloaded');
    expect(get(offlineReady).ready).toBe(true);
  });

  it('with the CPU engine in use, its model decides', () => {
    const fns = new Set<Parameters<LocalModelSource['subscribe']>[0]>();
    const source = { subscribe: (fn) => (fns.add(fn), () => void fns.delete(fn)) } as LocalModelSource;
    const emit = (cpu: string) =>
      fns.forEach((fn) => fn({ local: { kind: 'unavailable' }, effectiveModelId: 'x', provider: 'cpu', cpu: { kind: cpu }, settings: { cpu: { modelId: 'qwen2.5-0.5b-instruct-q4_k_m' } } }));
    const stop = followLocalModel(source, async () => undefined);
    markShellCached(true);
    emit('not-downloaded');
    expect(get(offlineReady).ready).toBe(false);
    emit('ready');
    expect(get(offlineReady)).toMatchObject({ ready: true, modelId: 'cpu:qwen2.5-0.5b-instruct-q4_k_m' });
    emit('not-downloaded');
    expect(get(offlineReady).ready).toBe(false);
    stop();
  });

  it('a refused persist request (the browser may say no) changes nothing: the load still counts', async () => {
    const c = fakeController();
    markShellCached(true);
    followLocalModel(c.source, () => Promise.reject(new Error('denied')));
    c.set('not-downloaded');
    c.set('downloading');
    await new Promise((r) => setTimeout(r, 0)); // an unhandled rejection would fail the run
    c.set('ready');
    expect(get(offlineReady)).toMatchObject({ ready: true, modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
  });
});
