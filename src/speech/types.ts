/**
 * Speech behind small interfaces: the browser's engines (speechSynthesis, SpeechRecognition) are
 * adapters; the queue, the half-duplex loop and the recognizer's restart logic are plain code.
 */
import type { SpeakerRole } from '../core/arcade/types.ts';

/** One piece handed to the engine; the engine reports back through the callbacks, exactly once for end/error. */
export interface PieceCallbacks {
  onStart(): void;
  onEnd(): void;
  onError(error: string): void;
}

export interface SynthOptions {
  rate: number;
  volume: number;
}

/** The TTS engine (window.speechSynthesis in the browser, a fake in tests). */
export interface SynthEngine {
  speak(piece: string, opts: SynthOptions, cb: PieceCallbacks): void;
  /** Stops the current piece (its callbacks may still fire; the queue ignores late ones). */
  cancel(): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Speech progress: what the robot output module and the microphone loop follow.
 * An utterance is one `say(text)` (one reply sentence of the game or the main agent).
 */
export type SpeechEvent =
  | { type: 'speaking' } // the queue went from idle to busy
  | { type: 'utterance-start'; id: number; text: string; role: SpeakerRole; yields?: boolean }
  | { type: 'piece-start'; id: number; piece: string }
  | { type: 'piece-playing'; id: number } // the engine began to play the piece (its onstart)
  | { type: 'utterance-end'; id: number; text: string; role: SpeakerRole; completed: boolean; reason?: string; yields?: boolean }
  | { type: 'idle' }; // the queue drained

export interface SpeechProgress {
  /** true from the first utterance's start until the queue drains. */
  readonly busy: boolean;
  subscribe(fn: (e: SpeechEvent) => void): () => void;
}
