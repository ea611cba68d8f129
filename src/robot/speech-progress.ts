/**
 * What the output module needs to know about speech (implemented by src/speech's speaking
 * queue): when a sentence starts and ends, and whether anything is still to be said.
 * The robot keeps an expression until the next sentence has been spoken, and goes idle only
 * after the last one (seed 000, §游戏 Agent).
 */
export interface SpeechProgress {
  /** A sentence started playing (fires for every sentence of every reply, in order). */
  onSentenceStart(cb: (text: string) => void): () => void;
  /** A sentence finished playing (ended, errored or cut off by the watchdog). */
  onSentenceSpoken(cb: (text: string) => void): () => void;
  /** True while a sentence plays or more are queued. Already true inside onSentenceSpoken if another is queued. */
  isSpeaking(): boolean;
  /** Resolves once nothing is playing or queued. */
  whenIdle(): Promise<void>;
}
