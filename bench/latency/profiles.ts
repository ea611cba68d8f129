/**
 * Device profiles for the latency estimate: published WebLLM rates, not measurements of ours.
 * - AMD 680M (laptop iGPU) and Pixel 8 Pro: web-llm issue #759 (github.com/mlc-ai/web-llm/issues/759),
 *   prefill ≈112 / decode ≈18 tok/s and ≈5.4 / 5.1 tok/s, for 1–2 B models (the issue's Qwen 1B/1.7B
 *   figures are "similar" to its Llama-3.2 ones); used here for Qwen2.5-1.5B.
 * - The 0.5B variants scale those by the 0.5B/1.5B speed ratio of Qwen2.5 Q4_K_M measured on one
 *   device with llama.cpp (github.com/emigazp/companion-alzheimer/issues/7: prompt 16.6 vs 5.44 tok/s,
 *   generation 10.4 vs 3.55 tok/s → prefill ×3.05, decode ×2.93).
 */
export interface DeviceProfile {
  id: string;
  label: string;
  prefillTps: number;
  decodeTps: number;
  source: string;
}

const PREFILL_05B = 16.6 / 5.44;
const DECODE_05B = 10.4 / 3.55;
const ISSUE_759 = 'web-llm issue #759';
const RATIO = 'scaled by the Qwen2.5 0.5B/1.5B ratio of companion-alzheimer issue #7';

export const PROFILES: DeviceProfile[] = [
  { id: 'amd680m-1.5b', label: 'AMD 680M laptop · Qwen2.5-1.5B', prefillTps: 112, decodeTps: 18, source: ISSUE_759 },
  { id: 'pixel8pro-1.5b', label: 'Pixel 8 Pro · Qwen2.5-1.5B', prefillTps: 5.4, decodeTps: 5.1, source: ISSUE_759 },
  { id: 'amd680m-0.5b', label: 'AMD 680M laptop · Qwen2.5-0.5B', prefillTps: 112 * PREFILL_05B, decodeTps: 18 * DECODE_05B, source: `${ISSUE_759}, ${RATIO}` },
  { id: 'pixel8pro-0.5b', label: 'Pixel 8 Pro · Qwen2.5-0.5B', prefillTps: 5.4 * PREFILL_05B, decodeTps: 5.1 * DECODE_05B, source: `${ISSUE_759}, ${RATIO}` },
];
