/** Test double for the scripted model: a policy that plays back fixed steps (or raw texts). */
import type { ScriptPolicy } from '../../../src/core/llm/types.ts';

/** Plays back `steps` in order, then repeats the last one. */
export function playback(steps: ReadonlyArray<Awaited<ReturnType<ScriptPolicy>>>): ScriptPolicy {
  let i = 0;
  return () => {
    if (steps.length === 0) throw new Error('playback: empty script');
    const s = steps[Math.min(i, steps.length - 1)];
    i++;
    return s;
  };
}
