/**
 * What the Studio's play manager says to the child in one turn (`reply` / `finish`), sentence by
 * sentence while it is written: each sentence checked by the safety check and by the turn's truth
 * rules before it is said. A line the safety check blocks becomes the redirect and what the rules
 * decided; an untrue line is refused back to the manager while the `TruthGate`'s retries last, then
 * the rules' own line is said. Words that end the game (`finish`) claim no 「接着玩」. One stream
 * across the turn's steps: a new step starts over without saying again what was said.
 */
import { ToolError } from '../core/agent/tool-loop.ts';
import { rebuiltTurn } from '../core/games/blocked-turn.ts';
import { classClaims } from '../core/games/claim-kinds.ts';
import { checkSentence, truthCorrection, TruthGate, type TruthProblem, type TruthRules } from '../core/games/truth.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { NOTHING_MORE, SentenceStream } from '../core/speech/sentence-stream.ts';
import type { DesignTraceEntry } from '../core/studio/types.ts';
import { FINDS_NOTHING, UNSAFE, type UnsafeCheck, type UnsafeFinding } from '../games/unsafe-line.ts';

export interface PlayWordsIo {
  /** A sentence said at once (the conversation, then the turn's listener). */
  say(sentence: string): void;
  log(kind: DesignTraceEntry['kind'], data: Record<string, unknown>): void;
}

/** What the session gives the play words (the same fields of its SessionDeps). */
export interface PlayWordsDeps {
  /** A line of the manager the safety check blocked before it was said (for the parent's 安全提醒). */
  blocked?: (original: string, finding: UnsafeFinding | null, said: string) => void;
  /** The child-safety check of a line about to be said (absent: the speaking path's alone). */
  unsafe?: UnsafeCheck;
  /** The truth rules of this play turn, if the game has any. */
  truth?: () => TruthRules | null;
}

export class PlayWords {
  private stream: SentenceStream<TruthProblem> | null = null;
  /** The truth rules of the manager's current step. */
  private rules: TruthRules | null = null;
  private gate = new TruthGate();
  private readonly unsafe: UnsafeCheck;
  /** Whether the game goes on after the words being written (`reply`), or they end it (`finish`). */
  private continues = true;

  constructor(
    private readonly deps: PlayWordsDeps,
    private readonly io: PlayWordsIo,
  ) {
    this.unsafe = deps.unsafe ?? FINDS_NOTHING;
  }

  /** A new turn: nothing said yet, the retries full again. */
  newTurn(): void {
    this.stream = null;
    this.gate = new TruthGate();
    this.continues = true;
  }

  /**
   * The stream of this turn for the step now. The truth rules are built once per step: the board
   * does not change while the manager writes.
   */
  step(): SentenceStream<TruthProblem> {
    this.rules = this.deps.truth?.() ?? null;
    const check = (sentence: string): TruthProblem | null => {
      if (this.unsafe(sentence)) return { sentence, claim: { kind: UNSAFE, words: sentence }, reason: '这句话不适合小朋友' };
      const goesOn = this.continues ? undefined : classClaims(sentence).find((c) => c.kind === 'continue');
      if (goesOn) return { sentence, claim: goesOn, reason: '游戏这就结束了，不能说接着玩' };
      return this.rules ? checkSentence(sentence, this.rules) : null;
    };
    this.stream ??= new SentenceStream<TruthProblem>((sentence) => this.io.say(sentence), true, check);
    this.stream.restart();
    return this.stream;
  }

  /** The manager's words so far for a speaking tool (`continues`: `reply`, not `finish`), each finished sentence checked and said. */
  update(stream: SentenceStream<TruthProblem>, text: string, attempt: number, continues: boolean): void {
    this.continues = continues;
    stream.update(text, attempt);
  }

  /**
   * The text a speaking tool finally takes: the rest of the manager's words if true (throws
   * `ToolError` to refuse them). `continues`: the game goes on after these words (`reply`), not `finish`.
   */
  finalText(stream: SentenceStream<TruthProblem>, text: string, continues: boolean): string {
    this.continues = continues;
    return stream.finish(this.trueWords(stream, text, continues)) || (stream.sent.length ? NOTHING_MORE : '');
  }

  /** The manager's words if true; refused back (a tool error) while retries last, then the rules' own line. */
  private trueWords(stream: SentenceStream<TruthProblem>, text: string, continues: boolean): string {
    const problem = stream.problemIn(text);
    if (!problem) return text;
    if (problem.problem.claim.kind === UNSAFE) {
      // A blocked line never swallows the turn: the redirect, then what the rules decided this turn.
      this.io.log('tool_call', { tool: 'safety', kind: 'invalid' });
      stream.restart();
      const line = rebuiltTurn({ redirect: REDIRECT.game, rulesLine: this.rules?.fallback() ?? null, continues, said: stream.sent });
      const at = text.indexOf(problem.sentence);
      this.deps.blocked?.(at >= 0 ? text.slice(at) : problem.sentence, this.unsafe(problem.sentence), line);
      return line;
    }
    this.io.log('tool_call', { tool: 'truth', claim: problem.problem.claim.kind, reason: problem.problem.reason, kind: 'invalid' });
    if (this.gate.retry()) {
      stream.restart();
      throw new ToolError(truthCorrection(problem.problem));
    }
    stream.restart();
    return this.rules?.fallback() ?? (continues ? '我们继续玩吧！' : '今天就玩到这里，下次再来玩吧！');
  }
}
