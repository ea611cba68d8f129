/**
 * The app-cached fact follows the service worker, and persistent storage is asked once as a local
 * model starts downloading (followLocalModel); a refused request changes nothing.
 */
import { get } from 'svelte/store';
import { describe, expect, it } from 'vitest';
import { appCached, followLocalModel, markShellCached, type LocalModelSource } from '../../../src/trace/offline-ready.ts';

function fakeController() {
  const fns = new Set<Parameters<LocalModelSource['subscribe']>[0]>();
  return {
    source: { subscribe: (fn) => (fns.add(fn), () => void fns.delete(fn)) } as LocalModelSource,
    set(kind: string) {
      for (const fn of fns) fn({ local: { kind } });
    },
  };
}

describe('the app on the device', () => {
  it('is cached once the service worker says so, and not after it says otherwise', () => {
    markShellCached(false);
    expect(get(appCached)).toBe(false);
    markShellCached();
    expect(get(appCached)).toBe(true);
    markShellCached(false);
    expect(get(appCached)).toBe(false);
  });
});

describe('followLocalModel', () => {
  it('asks for persistent storage once per download', () => {
    const c = fakeController();
    let asked = 0;
    const stop = followLocalModel(c.source, async () => void asked++);
    c.set('not-downloaded');
    expect(asked).toBe(0);
    c.set('downloading');
    c.set('downloading'); // progress events
    expect(asked).toBe(1);
    c.set('ready');
    c.set('downloading'); // another model
    expect(asked).toBe(2);
    stop();
    c.set('not-downloaded');
    c.set('downloading');
    expect(asked).toBe(2);
  });

  it('with the CPU engine in use, the download of its model asks to keep the storage', () => {
    const fns = new Set<Parameters<LocalModelSource['subscribe']>[0]>();
    const source = { subscribe: (fn) => (fns.add(fn), () => void fns.delete(fn)) } as LocalModelSource;
    const emit = (cpu: string) => fns.forEach((fn) => fn({ local: { kind: 'unavailable' }, provider: 'cpu', cpu: { kind: cpu } }));
    let asked = 0;
    const stop = followLocalModel(source, async () => void asked++);
    emit('not-downloaded');
    expect(asked).toBe(0);
    emit('downloading');
    emit('downloading');
    expect(asked).toBe(1);
    stop();
  });

  it('a refused persist request (the browser may say no) changes nothing', async () => {
    const c = fakeController();
    followLocalModel(c.source, () => Promise.reject(new Error('denied')));
    c.set('downloading');
    await new Promise((r) => setTimeout(r, 0)); // an unhandled rejection would fail the run
    c.set('ready');
  });
});
