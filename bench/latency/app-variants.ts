/**
 * The app's variants in `bench/latency --app`, each a developer switch of the test build (read only
 * when AGENTCADE_LAB=1): before (`?rules-first=off`: no pre-executed steps, the rules never speak
 * first), cutAborted (`?colour-cut=abort`: rules first, but a model step the colour window cut is
 * aborted — the app before a cut step finished muted), mutedWatched (`?muted=watched`: a cut step
 * finishes muted but keeps the stall watch of a step someone waits for, and is asked again from cold
 * after it — the app before muted steps ran in the background), noPrewarm (`?remote-prewarm=off`:
 * the home computer's brain is not prewarmed — the app before src/llm/remote-prewarm.ts; the paced
 * server stands for that brain), noTraits (the app not told what the engine the paced server
 * stands for does with a prompt: every muted step is cancelled by the next turn, the main agent is
 * prewarmed only while the arcade is idle — the app before it read EngineTraits), chatByModel
 * (`?main-in-game=model`: told the engine, but the main agent's model decides chat in a game on
 * every engine — the app before its rules routed it on one that forgets on a switch, or on a brain
 * measured too slow for the turn budget), noAhead (`?ask-ahead=off`: the model's step after a drawing
 * is asked only once the robot has drawn — the app before it was asked while the robot draws),
 * apartLines (`?noted-lines=off`: the rules' line after a result is a `say` step and a result of its
 * own — the app before that line was noted in the result it tells), slowAsked
 * (`?slow-brain-games=model`: a brain measured too slow for the turn budget is still asked in games —
 * the app before the games played by their rules there) and after (the app as it ships, told the profile's engine
 * and the rates it was measured at on the device: `?engine-traits=webllm|llamacpp&engine-rates=…`,
 * engineQuery).
 */
import type { PacedProfile } from './paced-server.ts';
export const APP_RUN_VARIANTS = ['before', 'cutAborted', 'mutedWatched', 'noPrewarm', 'noTraits', 'chatByModel', 'noAhead', 'apartLines', 'slowAsked', 'after'] as const;
export type AppRunVariant = (typeof APP_RUN_VARIANTS)[number];
export const VARIANT_QUERY: Record<AppRunVariant, string> = {
  before: '&rules-first=off',
  cutAborted: '&colour-cut=abort',
  mutedWatched: '&muted=watched',
  noPrewarm: '&remote-prewarm=off',
  noTraits: '',
  chatByModel: '&main-in-game=model',
  noAhead: '&ask-ahead=off',
  apartLines: '&noted-lines=off',
  slowAsked: '&slow-brain-games=model',
  after: '',
};

/**
 * The test build's switches that tell the app which engine the paced server stands for, and at what
 * rates that engine was measured on the device (every variant but noTraits; `before` is told no rates:
 * it is the app before the measured speed decided who answers chat in a game).
 */
export function engineQuery(variant: AppRunVariant, p: Pick<PacedProfile, 'rule' | 'prefillTps' | 'decodeTps'>): string {
  if (variant === 'noTraits') return '';
  const traits = `&engine-traits=${p.rule === 'webllm' ? 'webllm' : 'llamacpp'}`;
  return variant === 'before' ? traits : `${traits}&engine-rates=${p.prefillTps},${p.decodeTps}`;
}
