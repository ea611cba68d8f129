/**
 * The home computer as the hub's brain, built from the saved fields: an address the page cannot
 * reach is explained instead (mixed content, not a web address), and the server's output mode is
 * used only when it was found for this server and model.
 */
import type { StepTimeouts } from '../core/arcade/turn-budget.ts';
import type { ChatModel, EngineTraits } from '../core/llm/types.ts';
import type { OutputMode } from '../core/llm/output-modes.ts';
import { endpointProblem } from '../core/llm/remote-endpoint.ts';
import { describeModelError } from './describe.ts';
import { modelError } from './errors.ts';
import { probedKey, type RemoteSettings } from './settings-store.ts';

export interface RemoteBrainOptions {
  /** The model found another output mode while answering. */
  onModeChange: (mode: OutputMode) => void;
  timeouts?: () => StepTimeouts;
  /** Prewarm a home computer (remote-prewarm.ts; default yes). */
  prewarm?: boolean;
  /** What the computer's engine does with a prompt, when known. */
  traits?: EngineTraits;
}

export async function remoteBrain(r: RemoteSettings, opts: RemoteBrainOptions): Promise<{ model: ChatModel } | { problem: string }> {
  const problem = endpointProblem(r.baseUrl, typeof location !== 'undefined' ? location.href : undefined);
  if (problem) return { problem: describeModelError(modelError(problem.code, problem.detail)).parent };
  const { createAdaptiveRemoteModel } = await import('./remote-adaptive.ts');
  const mode = r.probedFor === probedKey(r) ? r.mode : undefined;
  return { model: createAdaptiveRemoteModel({ ...r, mode, prewarm: opts.prewarm ?? true, ...(opts.traits ? { traits: opts.traits } : {}) }, { onModeChange: opts.onModeChange, ...(opts.timeouts ? { timeouts: opts.timeouts } : {}) }) };
}
