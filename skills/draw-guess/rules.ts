/**
 * 你画我猜 rules, pure: which animals this game asks, the current question, attempts, hints and
 * score. The runtime owns all of this; the model only sees `snapshot()`, which never names the
 * current animal before its question is over (answered, out of tries, skipped or ended).
 */
import type { Drawing } from '../../src/core/robot/types.ts';

/** One question card (skills/draw-guess/animals.ts provides the catalog). */
export interface Card {
  id: string;
  name: string;
  aliases: string[];
  /** Increasing help; never containing the card's own name. */
  hints: string[];
  drawing: Drawing;
}

type QuestionStatus = 'open' | 'correct' | 'missed' | 'skipped';
type Phase = 'ready' | 'playing' | 'over' | 'ended';

export interface DrawGuessConfig {
  questions: number;
  attempts: number;
}

export const DEFAULT_CONFIG: DrawGuessConfig = { questions: 3, attempts: 3 };

interface Question {
  card: Card;
  status: QuestionStatus;
  wrong: number;
  hints: number;
  shown: boolean;
}

export class DrawGuessGame {
  phase: Phase = 'ready';
  private questions: Question[] = [];
  private index = 0;

  constructor(
    private readonly deck: readonly Card[],
    readonly config: DrawGuessConfig,
    private readonly random: () => number,
  ) {
    if (deck.length < config.questions) throw new Error(`draw-guess: the deck has ${deck.length} cards, fewer than ${config.questions}`);
  }

  /** Picks distinct cards for this game (Fisher–Yates on the injected random source). */
  start(): void {
    const pool = [...this.deck];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    this.questions = pool.slice(0, this.config.questions).map((card) => ({ card, status: 'open', wrong: 0, hints: 0, shown: false }));
    this.index = 0;
    this.phase = 'playing';
  }

  private get q(): Question {
    if (this.phase === 'ready') throw new Error('no game is running');
    return this.questions[this.index];
  }

  get number(): number {
    return this.index + 1;
  }

  get total(): number {
    return this.config.questions;
  }

  get score(): number {
    return this.questions.filter((q) => q.status === 'correct').length;
  }

  get status(): QuestionStatus {
    return this.q.status;
  }

  get isLast(): boolean {
    return this.index === this.questions.length - 1;
  }

  get attemptsLeft(): number {
    return this.config.attempts - this.q.wrong;
  }

  /** The questions asked so far (the current one included), in order: for the runtime's truth rules, never for a prompt. */
  get asked(): ReadonlyArray<{ number: number; card: Card; status: QuestionStatus }> {
    return this.phase === 'ready' ? [] : this.questions.slice(0, this.index + 1).map((q, i) => ({ number: i + 1, card: q.card, status: q.status }));
  }

  /** The card being asked. Only for the device (drawing) and the judge — never for a prompt. */
  get card(): Card {
    return this.q.card;
  }

  /** The current answer may be said once its question is no longer open. */
  get revealedAnswer(): string | null {
    return this.phase !== 'ready' && this.q.status !== 'open' ? this.q.card.name : null;
  }

  markShown(): void {
    this.q.shown = true;
  }

  /** Records a judged answer; returns the new question status. */
  answer(correct: boolean): QuestionStatus {
    const q = this.q;
    if (q.status !== 'open') throw new Error('question already over');
    if (correct) q.status = 'correct';
    else if (++q.wrong >= this.config.attempts) q.status = 'missed';
    this.afterResolve();
    return q.status;
  }

  skip(): void {
    if (this.q.status !== 'open') throw new Error('question already over');
    this.q.status = 'skipped';
    this.afterResolve();
  }

  private afterResolve(): void {
    if (this.q.status !== 'open' && this.isLast) this.phase = 'over';
  }

  next(): void {
    if (this.q.status === 'open') throw new Error('question still open');
    if (this.isLast) throw new Error('no more questions');
    this.index++;
  }

  /** The next hint of the current card (its own names masked), or null when all are used. */
  hint(): string | null {
    const q = this.q;
    if (q.hints >= q.card.hints.length) return null;
    return maskNames(q.card.hints[q.hints++], [q.card.name, ...q.card.aliases]);
  }

  get hintsLeft(): number {
    return this.q.card.hints.length - this.q.hints;
  }

  end(): void {
    if (this.phase === 'playing') this.phase = 'ended';
    if (this.phase === 'ended' && this.q.status === 'open') this.q.status = 'skipped';
  }

  /** The state snapshot for the system prompt. Answers only of questions that are over. */
  snapshot(): Record<string, unknown> {
    if (this.phase === 'ready') return { phase: 'ready', questions: this.total, attempts_per_question: this.config.attempts };
    const q = this.q;
    return {
      phase: this.phase,
      question: this.number,
      total: this.total,
      score: this.score,
      current: {
        status: q.status,
        attempts_left: this.attemptsLeft,
        hints_used: q.hints,
        hints_left: this.hintsLeft,
        drawing_shown: q.shown,
        ...(q.status !== 'open' ? { answer: q.card.name } : {}),
      },
      finished: this.questions
        .slice(0, this.index)
        .map((d, i) => ({ question: i + 1, result: d.status, answer: d.card.name })),
    };
  }
}

/** Replaces a card's own names in a sentence with 它 (a hint must never give the answer away). */
export function maskNames(text: string, names: string[]): string {
  let out = text;
  for (const n of [...names].filter(Boolean).sort((a, b) => b.length - a.length)) out = out.split(n).join('它');
  return out;
}
