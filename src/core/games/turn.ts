/**
 * One input being handled (seed 000: `turn` 提供 `kind`、`text`、`say(text)` 和 `end_session()`).
 * Tools receive the Turn: they read the user's original words from it, speak an intermediate
 * sentence, or end the session when the game ends naturally.
 */
import { fitReplyText, type GameInputKind } from '../protocol/game-protocol.ts';

export class Turn {
  private sessionEnded = false;
  private readonly judged = new Map<string, unknown>();
  /** Sentences sent as intermediate replies in this turn, in order. */
  readonly said: string[] = [];

  constructor(
    readonly kind: GameInputKind,
    /** The user's original words of this input, unchanged. */
    readonly text: string,
    private readonly sayOut: (text: string) => void,
    readonly signal: AbortSignal = new AbortController().signal,
  ) {}

  /** Sends a sentence at once as an intermediate reply (always `session: active`). */
  say(text: string): void {
    const fitted = fitReplyText(text);
    if (fitted === '') throw new Error('say: empty sentence');
    this.said.push(fitted);
    this.sayOut(fitted);
  }

  /** The game has ended naturally: this turn's final reply is `session: ended`. */
  end_session(): void {
    this.sessionEnded = true;
  }

  get sessionEnding(): boolean {
    return this.sessionEnded;
  }

  /**
   * Judge-once bookkeeping for rule tools (each input is judged at most once): returns the
   * earlier verdict under `key`, or undefined when this input has not been judged yet.
   */
  judgedAs(key: string): unknown {
    return this.judged.get(key);
  }

  markJudged(key: string, verdict: unknown): void {
    this.judged.set(key, verdict);
  }
}
