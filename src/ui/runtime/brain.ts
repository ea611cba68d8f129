/**
 * The app's brain: the model controller over the hub (restores the saved provider, loads, measures)
 * with one turn budget for the whole app (T1 "still thinking", T2 a real answer: the remote step
 * timeouts are sized from it), and the rules brain a hand-made game plays by while no brain is chosen.
 */
import { createModelController, type ModelController } from '../../llm/model-controller.ts';
import type { ModelHub } from '../../llm/model-hub.ts';
import { turnBudget } from '../../arcade/turn-budget-setting.ts';
import { stepTimeouts } from '../../core/arcade/turn-budget.ts';
import { brainSpeed } from '../../core/llm/brain-speed.ts';
import type { ChatModel, EngineTraits } from '../../core/llm/types.ts';
import type { GameDeclaration } from '../../core/protocol/declaration.ts';
import { followLocalModel } from '../../trace/offline-ready.ts';
import { testSwitch } from './browser.ts';

export interface Brain {
  controller: ModelController;
  /** The rules brain (the demo policies), loaded on first use. */
  rulesAlone(): Promise<ChatModel>;
  /** A game designed in the Studio plays by its rules alone while no brain is chosen. */
  playsWithoutBrain(d: GameDeclaration | undefined): boolean;
  /** The brain in use was measured on this device, and one turn's wait does not fit the turn budget's T2. */
  tooSlowHere(): boolean;
}

/** The engines a test build's home computer may stand for (`?engine-traits=`). */
const LAB_TRAITS: Record<string, EngineTraits | undefined> = {
  webllm: { cutsPrefill: false, keepsPromptsApart: false },
  llamacpp: { cutsPrefill: true, keepsPromptsApart: true },
};

export function createBrain(hub: ModelHub): Brain {
  const controller = createModelController(hub, () => import('../demo-brain.ts').then((m) => m.createDemoModel()), {
    stepTimeouts: () => stepTimeouts(turnBudget()),
    turnBudget,
    // `?remote-prewarm=off`: the home computer is not prewarmed, as before it was.
    remotePrewarm: () => !(__TEST_BUILD__ && testSwitch('remote-prewarm') === 'off'),
    // `?engine-traits=webllm|llamacpp`: the home computer stands for that engine (the bench's paced server).
    remoteTraits: () => (__TEST_BUILD__ ? LAB_TRAITS[testSwitch('engine-traits') ?? ''] : undefined),
  });
  let rulesModel: Promise<ChatModel> | null = null;
  void controller.init().catch((e) => console.error('model settings', e));
  followLocalModel(controller); // persistent storage when a model starts downloading
  return {
    controller,
    rulesAlone: () => (rulesModel ??= import('../demo-brain.ts').then((m) => m.createDemoModel())),
    playsWithoutBrain: (d) => d?.engine === 'studio',
    tooSlowHere: () => {
      const kind = hub.kind;
      if (kind === 'webllm' || kind === 'cpu') return controller.snapshot.speeds[kind]?.fits === false;
      // `?engine-rates=<prefill>,<decode>` (tokens/s): the home computer standing for an engine was measured at these rates.
      const rates = __TEST_BUILD__ && kind === 'remote' ? testSwitch('engine-rates')?.split(',').map(Number) : undefined;
      return rates?.length === 2 ? !brainSpeed({ prefillPerS: rates[0], decodePerS: rates[1] }, turnBudget().answerMs).fits : false;
    },
  };
}
