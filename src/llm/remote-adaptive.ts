/**
 * The remote provider that keeps to the server's dialect: it sends each step in the saved mode,
 * and when the server refuses a request (an HTTP error that is not about the key), it probes the
 * server once (dialect-probe.ts), switches to the mode that works, tells the owner (who saves it
 * with the settings) and sends the step again in the new mode. Connection problems are not
 * dialect problems and pass through unchanged.
 */
import { createChatModel, type ChatModelOptions, type StepProvider } from './decide-step.ts';
import { probeOutputMode, type ProbeResult } from './dialect-probe.ts';
import { createRemoteProvider, remoteStepOptions, type RemoteConfig, type RemoteDeps } from './remote-openai.ts';
import { DEFAULT_MODE, type OutputMode } from '../core/llm/output-modes.ts';
import type { ChatMessage, ChatModel, ModelError } from '../core/llm/types.ts';

export interface AdaptiveOptions {
  /** Called after a probe chose another mode (save it with the settings). */
  onModeChange?: (mode: OutputMode, result: ProbeResult) => void;
  probe?: typeof probeOutputMode;
}

export interface AdaptiveRemoteProvider extends StepProvider {
  readonly mode: OutputMode;
}

function refusedRequest(err: unknown): boolean {
  const e = err as ModelError | undefined;
  return e?.code === 'model_remote_http' && e.status !== undefined && e.status >= 400 && e.status !== 404 && e.status !== 429;
}

export function createAdaptiveRemoteProvider(config: RemoteConfig, deps: RemoteDeps = {}, opts: AdaptiveOptions = {}): AdaptiveRemoteProvider {
  let mode = config.mode ?? DEFAULT_MODE;
  let provider = createRemoteProvider({ ...config, mode }, deps);
  let probed = false;
  return {
    get label() {
      return provider.label;
    },
    get mode() {
      return mode;
    },
    ...(config.traits ? { traits: config.traits } : {}),
    // In the mode used now (after a switch to a mode that has none, nothing is sent); a failed prewarm is never probed.
    ...(provider.prewarm ? { prewarm: async (messages: ChatMessage[], signal: AbortSignal) => provider.prewarm?.(messages, signal) } : {}),
    async complete(req) {
      try {
        return await provider.complete(req);
      } catch (err) {
        if (probed || !refusedRequest(err) || req.signal?.aborted) throw err;
        probed = true;
        let result: ProbeResult;
        try {
          result = await (opts.probe ?? probeOutputMode)(config, deps, { signal: req.signal });
        } catch {
          throw err;
        }
        if (result.mode === mode) throw err;
        mode = result.mode;
        provider = createRemoteProvider({ ...config, mode }, deps);
        opts.onModeChange?.(mode, result);
        return provider.complete(req);
      }
    },
  };
}

export function createAdaptiveRemoteModel(config: RemoteConfig, opts: AdaptiveOptions & ChatModelOptions = {}, deps?: RemoteDeps): ChatModel {
  return createChatModel(createAdaptiveRemoteProvider(config, deps, opts), remoteStepOptions(opts));
}
