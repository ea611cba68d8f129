/**
 * The brain the device should use under 「自动」: the facts of the settings and the probes handed to
 * the pure choice (src/core/llm/engine-choice.ts), with each engine's speed as measured here and
 * judged against the turn's answer time in use now.
 */
import { rejudge, type BrainSpeed } from '../core/llm/brain-speed.ts';
import { cpuModel, DEFAULT_CPU_MODEL_ID } from '../core/llm/cpu-models.ts';
import { chooseEngine, type EngineChoice } from '../core/llm/engine-choice.ts';
import type { ProviderKind } from './model-hub.ts';
import type { ModelSettings } from './settings-store.ts';
import type { WebGpuProbe } from './webgpu-probe.ts';
import type { CpuProbe } from './cpu-probe.ts';
import { ENGINES, LOCAL_ENGINES, type EngineView, type LocalEngine } from './local-engines.ts';

/** The brain in use or to use: the saved one, or the automatic choice under `auto`. */
export function effectiveProvider(settings: ModelSettings, choice: EngineChoice | undefined): ProviderKind {
  if (settings.provider !== 'auto') return settings.provider;
  return choice?.engine ?? 'webllm';
}

/** The measured speed of each engine's chosen model, judged against `answerMs` (the T2 in use). */
export function measuredSpeeds(s: EngineView, answerMs: number): Partial<Record<LocalEngine, BrainSpeed>> {
  const out: Partial<Record<LocalEngine, BrainSpeed>> = {};
  for (const engine of LOCAL_ENGINES) {
    const m = s.settings.speeds?.[ENGINES[engine].offlineKey(s)];
    if (m) out[engine] = rejudge(m, answerMs);
  }
  return out;
}

/** The automatic choice for these settings on this device. */
export function automaticChoice(view: EngineView, probe: WebGpuProbe, cpu: CpuProbe, answerMs: number): EngineChoice {
  const { settings } = view;
  const m = cpuModel(settings.cpu.modelId) ?? cpuModel(DEFAULT_CPU_MODEL_ID)!;
  return chooseEngine({
    gpuUsable: probe.usable,
    cpuUsable: cpu.usable,
    isolated: cpu.isolated,
    cores: cpu.cores,
    deviceMemoryGB: cpu.deviceMemoryGB,
    remoteConfigured: !!(settings.remote.baseUrl && settings.remote.model),
    cpuModelRamMB: m.ramMB,
    cpuModelDownloadMB: m.downloadMB,
    speeds: measuredSpeeds(view, answerMs),
  });
}
