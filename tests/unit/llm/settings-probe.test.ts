import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  defaultModelSettings,
  loadModelSettings,
  migrateModelSettings,
  saveModelSettings,
  settingsDb,
  SETTINGS_STORE,
} from '../../../src/llm/settings-store.ts';
import { probeWebGPU, probeSummary, type GpuAdapterLike } from '../../../src/llm/webgpu-probe.ts';
import { adaptToGpu, defaultChoiceFor, type DeviceHints, type GpuFacts } from '../../../src/core/llm/models.ts';

const defaultModelFor = (probe: GpuFacts, hints: DeviceHints = {}) => adaptToGpu(defaultChoiceFor(probe, hints), probe);
import { classifyModelErrorText, toModelError } from '../../../src/llm/errors.ts';
import { describe as describeCode } from '../../../src/core/errors/catalogue.ts';

describe('settings store', () => {
  it('persists the provider and model choices', async () => {
    // A new install follows the automatic choice.
    expect((await loadModelSettings()).provider).toBe('auto');
    const s = defaultModelSettings();
    s.provider = 'remote';
    s.localModelId = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
    s.remote = {
      baseUrl: 'http://localhost:11434',
      model: 'qwen2.5:1.5b',
      apiKey: '',
      timeoutMs: 30_000,
      disableThinking: true,
      preset: 'ollama',
      mode: 'ollama_format',
      probedFor: 'http://localhost:11434|qwen2.5:1.5b',
    };
    s.cpu = { modelId: 'qwen2.5-1.5b-instruct-q4_k_m', modelUrl: 'https://robot.local/models/q.gguf' };
    await saveModelSettings(s);
    expect(await loadModelSettings()).toEqual(s);
  });

  it('a version-1 record keeps its provider and fields, and gains the CPU engine and remote preset', () => {
    const v1 = {
      version: 1,
      provider: 'remote',
      localModelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      localModelUrl: '',
      localModelLibUrl: '',
      remote: { baseUrl: 'https://robot.local:8443/v1', model: 'qwen2.5:1.5b', apiKey: 'k', timeoutMs: 30_000, disableThinking: false },
      readyOffline: ['Qwen2.5-0.5B-Instruct-q4f16_1-MLC'],
    };
    expect(migrateModelSettings(v1)).toEqual({
      ...v1,
      version: 2,
      remote: { ...v1.remote, preset: 'custom' },
      cpu: defaultModelSettings().cpu,
    });
    // A mode without the server it was probed for is dropped, and an unknown mode too.
    expect(migrateModelSettings({ ...v1, remote: { ...v1.remote, mode: 'gbnf' } }).remote.mode).toBeUndefined();
    expect(migrateModelSettings({ ...v1, remote: { ...v1.remote, mode: 'telepathy', probedFor: 'x' } }).remote.mode).toBeUndefined();
  });

  it('fills an old or damaged record with defaults instead of failing', async () => {
    expect(migrateModelSettings({ provider: 'quantum', remote: { baseUrl: 7 }, readyOffline: ['a', 3] })).toEqual({
      ...defaultModelSettings(),
      readyOffline: ['a'],
    });
    const db = await settingsDb();
    await db.put(SETTINGS_STORE, 'not an object', 'model');
    expect(await loadModelSettings()).toEqual(defaultModelSettings());
  });
});

const adapter = (o: { f16?: boolean; fallback?: boolean; sbb?: number }): GpuAdapterLike => ({
  features: { has: (f) => f === 'shader-f16' && !!o.f16 },
  limits: { maxStorageBufferBindingSize: o.sbb ?? 1 << 30 },
  info: { vendor: 'test', architecture: o.fallback ? 'swiftshader' : 'gen', isFallbackAdapter: !!o.fallback },
});

describe('WebGPU probe and model choice', () => {
  it('no secure context, no API, no adapter, a fallback adapter: not usable, each said plainly', async () => {
    const insecure = await probeWebGPU({ isSecureContext: false });
    expect(insecure).toMatchObject({ usable: false, reason: 'insecure-context' });
    expect(probeSummary(insecure)).toContain('https');
    expect(await probeWebGPU({ isSecureContext: true })).toMatchObject({ usable: false, reason: 'no-webgpu-api' });
    expect(await probeWebGPU({ isSecureContext: true, gpu: { requestAdapter: async () => null } })).toMatchObject({ reason: 'no-adapter' });
    const sw = await probeWebGPU({ isSecureContext: true, gpu: { requestAdapter: async () => adapter({ fallback: true }) } });
    expect(sw).toMatchObject({ usable: false, reason: 'fallback-adapter' });
    expect(probeSummary(sw)).toContain('软件模拟');
  });

  it('a real adapter: usable, f16 decides q4f16 or q4f32; weak devices get 0.5B', async () => {
    const f16 = await probeWebGPU({ isSecureContext: true, gpu: { requestAdapter: async () => adapter({ f16: true }) } });
    expect(f16).toMatchObject({ usable: true, f16: true });
    expect(defaultModelFor(f16)).toBe('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    const noF16 = await probeWebGPU({ isSecureContext: true, gpu: { requestAdapter: async () => adapter({}) } });
    expect(defaultModelFor(noF16)).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(adaptToGpu('Qwen3-1.7B-q4f16_1-MLC', noF16)).toBe('Qwen3-1.7B-q4f32_1-MLC');
    const phone = await probeWebGPU({ isSecureContext: true, gpu: { requestAdapter: async () => adapter({ f16: true, sbb: 128 << 20 }) } });
    expect(defaultModelFor(phone)).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(defaultModelFor(f16, { ios: true })).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
  });
});

describe('error mapping', () => {
  it.each([
    ['Error: WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.', 'model_no_webgpu'],
    ['Unable to find a compatible GPU. This issue might be because your computer', 'model_no_webgpu'],
    ['Error: Device was lost. This can happen due to insufficient memory or other GPU constraints.', 'model_out_of_memory'],
    ['QuotaExceededError: The quota has been exceeded.', 'model_storage_full'],
    ['Something odd', 'unknown'],
  ])('%s → %s', (text, code) => {
    expect(classifyModelErrorText(text)).toBe(code);
  });

  it('every model code has Chinese child text and parent detail in the catalogue', () => {
    for (const code of ['model_no_webgpu', 'model_out_of_memory', 'model_download_failed', 'model_offline_not_cached', 'model_invalid_output', 'model_remote_http', 'model_remote_network', 'model_remote_timeout', 'model_remote_mixed_content'] as const) {
      const e = describeCode(code);
      expect(e).not.toBe(describeCode('unknown'));
      expect(e.child).toMatch(/[\u4e00-\u9fff]/);
      expect(e.parent.length).toBeGreaterThan(10);
    }
    expect(toModelError('Error: Device was lost').code).toBe('model_out_of_memory');
  });
});
