/**
 * A game's model step the colour window cut, while it finishes muted after its turn ended
 * (src/games/skill-turn.ts; the rounds it keeps: src/core/games/muted-round.ts). It runs in the
 * background — no deadline, no stall watch — and is cancelled by the next turn, an end or the
 * session's close (and by the hub when any other step comes). Finished with a reply, the round as generated + the note of what the child heard
 * replaces the round the rules kept; stopped (the next turn, a game tool, a refused reply, the
 * deadline, a model error), the round stays as the rules took it.
 *
 * On an engine that reads a begun prefill to the end whatever happens (EngineTraits.cutsPrefill
 * false: WebLLM), a step whose request has been sent is not cancelled by the next turn: cancelling
 * would free nothing and leave the engine's cache cold. The next turn speaks its rules' line at
 * once, and its model step waits until the muted one is over (`waitedOn`), then continues what it
 * left (src/games/skill-turn.ts).
 */
import type { LoopOutcome } from '../core/agent/tool-loop.ts';
import { REPLY_ACTION } from '../core/games/game-prompt.ts';
import { mutedRound } from '../core/games/muted-round.ts';
import type { ChatMessage } from '../core/llm/types.ts';

/** A muted step (after the colour window) stopped: the next turn came, the step would change the game, or the session closed. */
export class MutedStepStopped extends Error {
  override name = 'MutedStepStopped';
}

/** A model step still finishing muted after its turn ended. */
export interface MutedStep {
  stop: AbortController;
  /** Cancelled by the next turn, an end or close (nothing is prewarmed then). */
  cancelled: boolean;
  /** Settles (never rejects) once the step is over and memory holds what is kept. */
  done: Promise<void>;
  /** Whether its request has gone to the model (false while it still waits for an earlier muted step). */
  begun(): boolean;
  /** A next turn's model step waits for it: nothing is prewarmed when it is over (that step comes at once). */
  waitedOn: boolean;
}

export interface MutedHooks {
  /** The step finished with a reply: the round to remember instead of the one the rules kept. */
  keep(round: ChatMessage[]): void;
  /** What became of it, for the trace. */
  record(data: Record<string, unknown>): void;
  /** It is over, kept or not (after `keep`). */
  over(step: MutedStep): void;
}

/** Lets the cut step's loop go on muted; `historyLength`: the messages before the round, `heard`: what the child was told instead. */
export function finishMuted(loop: Promise<LoopOutcome>, stop: AbortController, historyLength: number, heard: string, hooks: MutedHooks, begun: () => boolean = () => true): MutedStep {
  const muted: MutedStep = { stop, cancelled: false, done: Promise.resolve(), begun, waitedOn: false };
  muted.done = loop
    .then(
      (outcome) => {
        const round = outcome.kind === 'boundary' && outcome.step.action === REPLY_ACTION ? mutedRound(outcome.messages.slice(historyLength), heard) : null;
        if (round) hooks.keep(round);
        hooks.record({ kept: round !== null, steps: outcome.steps });
      },
      (e: unknown) => hooks.record({ kept: false, why: String((e as Error)?.message ?? e) }),
    )
    .then(() => hooks.over(muted));
  return muted;
}

/** Cancels a muted step still running and waits until it is over. */
export async function stopMuted(m: MutedStep | undefined, why: string): Promise<void> {
  if (!m) return;
  m.cancelled = true;
  m.stop.abort(new MutedStepStopped(why));
  await m.done;
}
