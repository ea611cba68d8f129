/**
 * The instant cue: the moment the child's words arrive (voice or text), before any model call,
 * the robot — USB and on-screen — shows its thinking face, and a soft sound plays if the parent
 * turned it on. The face is held by the output module until the first sentence has been spoken.
 * Done in code, never by a model tool; recorded in the trace under the child's round.
 */
import type { Expression, Gesture } from '../core/robot/types.ts';
import type { TraceEvent } from '../core/trace/types.ts';

export interface CueDeps {
  /** The robot (its output module: every robot in charge, USB and on-screen). */
  robot: { react(expression: Expression, gesture: Gesture): Promise<void> };
  /** The soft sound, when the parent wants it; returns whether it played. */
  sound?: () => boolean;
  record(e: Omit<TraceEvent, 'source' | 'at'>): void;
}

export class ThinkingCue {
  constructor(private readonly deps: CueDeps) {}

  /** The child's words have arrived for this round. */
  begin(roundId: string): void {
    let sound: boolean;
    try {
      sound = this.deps.sound?.() ?? false;
    } catch {
      sound = false;
    }
    void this.deps.robot.react('thinking', 'none').catch((e: unknown) => this.deps.record({ kind: 'error', roundId, name: 'thinking_cue', data: { error: String(e) } }));
    this.deps.record({ kind: 'device', roundId, name: 'thinking_cue', data: { expression: 'thinking', sound } });
  }
}
