/** The model controller's state (what a screen mirrors) and what it is built from. */
import type { StepTimeouts, TurnBudget } from '../core/arcade/turn-budget.ts';
import type { BrainSpeed } from '../core/llm/brain-speed.ts';
import type { ChatModel, EngineTraits } from '../core/llm/types.ts';
import type { EngineChoice } from '../core/llm/engine-choice.ts';
import type { EngineDetails } from './engine-service.ts';
import type { ModelHub, ProviderKind } from './model-hub.ts';
import type { ModelSettings } from './settings-store.ts';
import type { LocalProvider } from './local-provider.ts';
import type { WebGpuProbe } from './webgpu-probe.ts';
import type { CpuProbe } from './cpu-probe.ts';
import type { EngineView, LocalEngine } from './local-engines.ts';
import type { RemoteTest } from './remote-test.ts';

export interface ControllerState extends EngineView {
  /** The automatic choice for this device and why (shown in settings and the first-run path). */
  choice?: EngineChoice;
  /** The brain in use or to use: the saved one, or the automatic choice under `auto`. */
  provider: ProviderKind;
  /** The loaded CPU engine's threads and last speeds. */
  cpuDetails?: EngineDetails;
  /** Each engine's speed as measured on this device after its chosen model loaded (judged against the current T2). */
  speeds: Partial<Record<LocalEngine, BrainSpeed>>;
  /** Each engine's loaded model by its family name (「本机中号大脑」), while it is loaded. */
  inUse?: Partial<Record<LocalEngine, string>>;
  /** Last problem with the remote API (checked before trying, or from the connection test). */
  remoteProblem?: string;
  remoteTest?: RemoteTest;
  active?: ProviderKind;
  activeLabel: string;
  /** The last time the remote API was reached or not (a step or the connection test); unset until then. */
  remoteContact?: { ok: boolean; reason?: string; code?: string };
}

export interface ControllerDeps {
  hub: ModelHub;
  webllm: () => LocalProvider;
  cpu?: () => LocalProvider;
  /** The demo brain (loaded when first chosen). */
  demoModel: () => Promise<ChatModel>;
  probe?: () => Promise<WebGpuProbe>;
  cpuProbe?: () => CpuProbe;
  load?: () => Promise<ModelSettings>;
  save?: (s: ModelSettings) => Promise<void>;
  /** Per-attempt limits of a remote step, sized to the turn budget (read at every attempt). */
  stepTimeouts?: () => StepTimeouts;
  /** The turn budget in use (a local brain's measured wait is judged against its T2). */
  turnBudget?: () => TurnBudget;
  /** Whether the home computer's brain is prewarmed (remote-prewarm.ts; default yes). */
  remotePrewarm?: () => boolean;
  /** What the home computer's engine does with a prompt, when known (the bench's paced server says it). */
  remoteTraits?: () => EngineTraits | undefined;
  /** Checks a new self-hosted model file at its address (throws a ModelError saying what is wrong). */
  checkModelFile?: (url: string) => Promise<void>;
  /** Checks a new self-hosted WebLLM model folder (and library) at its address. */
  checkWebLlmModel?: (modelUrl: string, libUrl?: string) => Promise<void>;
  /** Checks a WebLLM model just downloaded, in the download cache, shard by shard (its id and its own address, if any). */
  checkDownloadedWebLlm?: (modelId: string, modelUrl?: string) => Promise<void>;
}
