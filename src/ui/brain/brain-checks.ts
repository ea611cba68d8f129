/**
 * The first-run brain screens' way to what they check: this device's graphics (WebGPU) in the
 * parent's words (src/llm/webgpu-probe.ts) and a home computer's brain answering
 * (src/llm/connection-test.ts).
 */
export { probeSummary } from '../../llm/webgpu-probe.ts';
export { testConnection, type ConnectionReport } from '../../llm/connection-test.ts';
