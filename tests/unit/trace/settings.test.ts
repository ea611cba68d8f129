import { describe, expect, it } from 'vitest';
import { completedTasksToKeep, DEFAULT_TRACE_SETTINGS, normalizeTraceSettings, traceMaxBytes, traceSettings } from '../../../src/trace/trace-settings.ts';
import { formatBytes, storageStatus, ensurePersistentStorage } from '../../../src/trace/storage-persist.ts';

describe('trace settings', () => {
  it('keeps the last 64 completed A2A tasks by default and clamps bad values', () => {
    expect(DEFAULT_TRACE_SETTINGS.completedTasksToKeep).toBe(64);
    expect(normalizeTraceSettings({ completedTasksToKeep: '10', traceMaxMB: -3, keepDays: 9999 })).toEqual({ completedTasksToKeep: 10, traceMaxMB: 1, keepDays: 365 });
    expect(DEFAULT_TRACE_SETTINGS.keepDays).toBe(14);
    expect(normalizeTraceSettings('junk')).toEqual(DEFAULT_TRACE_SETTINGS);
  });

  it('publishes changes to the transport and the store', () => {
    const seen: number[] = [];
    const stop = traceSettings.subscribe((s) => seen.push(s.completedTasksToKeep));
    traceSettings.update({ completedTasksToKeep: 8, traceMaxMB: 2 });
    expect(completedTasksToKeep()).toBe(8);
    expect(traceMaxBytes()).toBe(2 * 1024 * 1024);
    expect(seen.at(-1)).toBe(8);
    stop();
    traceSettings.update({ ...DEFAULT_TRACE_SETTINGS });
  });
});

describe('storage', () => {
  it('asks for persistence before a download and reports free space', async () => {
    let persisted = false;
    const nav = {
      storage: {
        estimate: async () => ({ usage: 300, quota: 1000 }),
        persisted: async () => persisted,
        persist: async () => (persisted = true),
      },
    };
    expect((await storageStatus(nav)).persisted).toBe(false);
    const s = await ensurePersistentStorage(nav);
    expect(s).toEqual({ supported: true, usage: 300, quota: 1000, free: 700, persisted: true });
    expect(await storageStatus({})).toMatchObject({ supported: false, free: null });
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
    expect(formatBytes(null)).toBe('未知');
  });
});
