/**
 * 猜数字 rules, pure: the secret, the range, the remaining tries, the judged guesses and the hints.
 * The runtime owns all of this (the model never decides a verdict); the model only sees `snapshot()`,
 * which never contains the secret before it is revealed.
 */
type GuessResult = 'too_big' | 'too_small' | 'correct';
type Phase = 'ready' | 'playing' | 'won' | 'lost' | 'ended';

interface GuessRecord {
  number: number;
  result: GuessResult;
}

export interface GuessConfig {
  min: number;
  max: number;
  maxTries: number;
  maxHints: number;
}

export const DEFAULT_CONFIG: GuessConfig = { min: 1, max: 100, maxTries: 7, maxHints: 3 };

export class GuessNumberGame {
  phase: Phase = 'ready';
  private secret: number | null = null;
  guesses: GuessRecord[] = [];
  hints: string[] = [];

  constructor(
    readonly config: GuessConfig,
    private readonly random: () => number,
  ) {}

  get triesLeft(): number {
    return this.config.maxTries - this.guesses.length;
  }

  /** The secret is known to the child once the game is over (won, lost or ended). */
  get revealed(): boolean {
    return this.phase === 'won' || this.phase === 'lost' || this.phase === 'ended';
  }

  /** The answer, only once revealed. */
  get answer(): number | null {
    return this.revealed ? this.secret : null;
  }

  /** For tests of the runtime only: the secret of the running game. Never put it in a prompt. */
  peekSecret(): number | null {
    return this.secret;
  }

  /** Smallest and largest numbers still possible given every earlier answer. */
  get known(): { low: number; high: number } {
    let low = this.config.min;
    let high = this.config.max;
    for (const g of this.guesses) {
      if (g.result === 'too_small') low = Math.max(low, g.number + 1);
      if (g.result === 'too_big') high = Math.min(high, g.number - 1);
    }
    return { low, high };
  }

  start(): void {
    const { min, max } = this.config;
    this.secret = min + Math.floor(this.random() * (max - min + 1));
    this.phase = 'playing';
    this.guesses = [];
    this.hints = [];
  }

  earlier(n: number): GuessRecord | undefined {
    return this.guesses.find((g) => g.number === n);
  }

  /** Judges one guess (the caller has checked phase, range and repeats). */
  guess(n: number): GuessResult {
    if (this.phase !== 'playing' || this.secret === null) throw new Error('no game is running');
    const result: GuessResult = n === this.secret ? 'correct' : n > this.secret ? 'too_big' : 'too_small';
    this.guesses.push({ number: n, result });
    if (result === 'correct') this.phase = 'won';
    else if (this.triesLeft <= 0) this.phase = 'lost';
    return result;
  }

  /**
   * The next hint, or null when all are used. Every hint is a true statement about the secret
   * stated inside the interval left by earlier answers, so it never contradicts one of them.
   * Numbers in hints are strict bounds: a hint never names the secret itself.
   */
  hint(): string | null {
    if (this.phase !== 'playing' || this.secret === null) throw new Error('no game is running');
    if (this.hints.length >= this.config.maxHints) return null;
    const s = this.secret;
    const { low, high } = this.known;
    let text: string;
    switch (this.hints.length) {
      case 0:
        text = s % 2 === 0 ? '这个数字是双数。' : '这个数字是单数。';
        break;
      case 1: {
        // Halve the interval still open: "比 a 大，比 b 小" with a < s < b.
        const mid = Math.floor((low + high) / 2);
        const [a, b] = s <= mid ? [low - 1, mid + 1] : [mid, high + 1];
        text = `这个数字比 ${a} 大，比 ${b} 小。`;
        break;
      }
      default:
        text = s < 10 ? '这个数字是一位数，比 10 小。' : s === 100 ? '这个数字是三位数。' : `这个数字的十位是 ${Math.floor(s / 10)}。`;
        break;
    }
    this.hints.push(text);
    return text;
  }

  end(): void {
    if (this.phase === 'playing') this.phase = 'ended';
  }

  /** The state snapshot for the system prompt. No secret unless revealed. */
  snapshot(): Record<string, unknown> {
    const snap: Record<string, unknown> = {
      phase: this.phase,
      range: [this.config.min, this.config.max],
      max_tries: this.config.maxTries,
    };
    if (this.phase !== 'ready') {
      snap.tries_left = this.triesLeft;
      snap.guesses = this.guesses;
      snap.hints = this.hints;
      snap.hints_left = this.config.maxHints - this.hints.length;
    }
    if (this.phase === 'playing') {
      const { low, high } = this.known;
      snap.still_possible = `比 ${low - 1} 大，比 ${high + 1} 小`;
    }
    if (this.revealed) snap.answer = this.secret;
    return snap;
  }
}
