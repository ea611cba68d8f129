/**
 * Doubles for the Studio's controller (src/studio/studio-controller.ts): the parent's microphone,
 * reading aloud, the place settings are kept, the brain's name and a safety check that lets every
 * text through.
 */
import type { CheckLine } from '../../src/core/safety/classify.ts';
import type { MicStatus } from '../../src/speech/recognizer.ts';
import type { LoopState } from '../../src/speech/voice-loop.ts';
import type { StudioMic } from '../../src/studio/studio-state.ts';

/** A push-to-talk microphone the test speaks into (`hear`) and whose loop state it sets. */
export class FakeMic implements StudioMic {
  presses = 0;
  disposed = false;
  private readonly states = new Set<(s: LoopState) => void>();
  private readonly statuses = new Set<(s: MicStatus) => void>();

  constructor(private readonly onWords: (text: string) => Promise<unknown>) {}

  pushToTalk(): void {
    this.presses++;
  }
  onState(fn: (s: LoopState) => void): () => void {
    this.states.add(fn);
    return () => this.states.delete(fn);
  }
  onStatus(fn: (s: MicStatus) => void): () => void {
    this.statuses.add(fn);
    return () => this.statuses.delete(fn);
  }
  dispose(): void {
    this.disposed = true;
  }

  /** The parent's words, as the recognizer hands them over. */
  hear(text: string): Promise<unknown> {
    return this.onWords(text);
  }
  setState(s: LoopState): void {
    for (const fn of this.states) fn(s);
  }
  setStatus(s: MicStatus): void {
    for (const fn of this.statuses) fn(s);
  }
}

/** What the Studio read aloud, and how often it was told to stop talking. */
export function fakeSpeech() {
  const said: string[] = [];
  const speech = { said, stops: 0, say: (text: string) => void said.push(text), stopTalking: () => void speech.stops++ };
  return speech;
}

/** localStorage's two methods over a Map. */
export function memorySettings(): Pick<Storage, 'getItem' | 'setItem'> & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) };
}

/** The brain as the hub reports it: its name, and whether one is chosen (`kind`). */
export function fakeBrain(label: string, kind: unknown) {
  const fns = new Set<(s: { label: string; kind?: unknown }) => void>();
  let now = { label, kind };
  return {
    subscribe(fn: (s: { label: string; kind?: unknown }) => void) {
      fns.add(fn);
      fn(now);
      return () => fns.delete(fn);
    },
    set(label: string, kind: unknown) {
      now = { label, kind };
      for (const fn of fns) fn(now);
    },
  };
}

/** A safety check with nothing to flag. */
export const passingCheck = async (): Promise<CheckLine> => () => ({ verdict: 'ok' });
