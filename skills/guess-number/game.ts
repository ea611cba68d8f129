/**
 * 猜数字: the game agent. Tools `start_game`, `get_hint`, `submit_guess(number)`, `end_game`
 * over the pure rules in rules.ts. The runtime (SkillAgent) runs the model; this file only says
 * what each tool does to the game state and when the robot reacts.
 */
import skillText from './SKILL.md?raw';
import { Skill } from '../../src/core/games/skill.ts';
import { SkillAgent, ToolError, type AgentDeps, type GameTool, type SessionAnswer } from '../../src/games/skill-agent.ts';
import type { Turn } from '../../src/core/games/turn.ts';
import type { TruthRules, TurnResult } from '../../src/core/games/truth.ts';
import { numeralMentions } from '../../src/core/speech/numbers.ts';
import { guessIn } from './numbers.ts';
import { DEFAULT_CONFIG, GuessNumberGame, type GuessConfig } from './rules.ts';
import { truth } from './truth.ts';
import { rules } from './reader.ts';
import type { GameRules } from '../../src/core/games/reader.ts';

const skill = Skill.load('/skills/guess-number/SKILL.md', skillText);

const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };

export class GuessNumberAgent extends SkillAgent {
  readonly skill = skill;
  readonly game: GuessNumberGame;

  constructor(deps: AgentDeps, config: GuessConfig = DEFAULT_CONFIG) {
    super(deps);
    this.game = new GuessNumberGame(config, this.random);
  }

  /** Every secret number of this session (a start while playing draws a new one), and whether the child found it. */
  private readonly secrets: Array<{ number: number; found: boolean }> = [];

  state(): Record<string, unknown> {
    return this.game.snapshot();
  }

  /** What the rules read without doubt is done before the model is asked (reader.ts). */
  protected override reader(): GameRules {
    return rules;
  }

  protected override truth(results: readonly TurnResult[], heard: string): TruthRules {
    return truth({ results, state: this.game, heard });
  }

  protected override answers(): SessionAnswer[] {
    const many = this.secrets.length > 1;
    return this.secrets.map((s, i) => ({
      id: `game-${i + 1}`,
      known: s.found,
      toldIn: (sentence) => numeralMentions(sentence).some((m) => m.value === s.number && !m.approximate),
      line: many ? `第 ${i + 1} 局我想的数字是 ${s.number}。` : `这局我想的数字是 ${s.number}。`,
    }));
  }

  tools(turn: Turn): GameTool[] {
    if (this.game.phase !== 'playing') return [this.startTool(), this.endTool(turn)];
    return [this.guessTool(turn), this.hintTool(), this.startTool(), this.endTool(turn)];
  }

  private startTool(): GameTool {
    const g = this.game;
    const { min, max } = g.config;
    return {
      name: 'start_game',
      description: `开一局新游戏：想好一个 ${min} 到 ${max} 的数字。`,
      parameters: NO_ARGS,
      perform: () => {
        const restarted = g.phase === 'playing';
        g.start();
        this.secrets.push({ number: g.peekSecret()!, found: false });
        this.recordSecret('secret', { number: g.peekSecret() });
        return { started: true, restarted, range: [min, max], tries_left: g.triesLeft };
      },
    };
  }

  private endTool(turn: Turn): GameTool {
    const g = this.game;
    return {
      name: 'end_game',
      description: '结束这局游戏，揭晓答案。',
      parameters: NO_ARGS,
      perform: () => {
        const wasPlaying = g.phase === 'playing';
        g.end();
        turn.end_session();
        if (wasPlaying) this.recordReveal('end_game', { answer: g.answer });
        return wasPlaying
          ? { ended: true, answer: g.answer, guesses_used: g.guesses.length }
          : { ended: true, phase: g.phase, answer: g.answer };
      },
    };
  }

  private guessTool(turn: Turn): GameTool {
    return {
      name: 'submit_guess',
      description: '用小朋友这句话里说的数字判定一次（一句话只判一次）。',
      parameters: {
        type: 'object',
        properties: { number: { type: 'integer' } },
        required: ['number'],
        additionalProperties: false,
      },
      perform: (args) => this.judgeGuess(turn, args.number as number),
    };
  }

  /** Refuses a guess the child did not say, or one this sentence already had judged (ToolError). */
  private checkGuess(turn: Turn, n: number): void {
    const { min, max } = this.game.config;
    const earlierVerdict = turn.judgedAs('guess');
    if (earlierVerdict !== undefined)
      throw new ToolError(`这句话已经判过一次了，结果是 ${JSON.stringify(earlierVerdict)}，请直接回复小朋友。`);
    const guess = guessIn(turn.text);
    if (guess.kind === 'none') throw new ToolError('小朋友这句话里没有猜数字（比如“一个”“一次”“想一想”都不是数字），不能判定；请他说一个数字。');
    if (guess.kind === 'ask')
      throw new ToolError(
        guess.why === 'several'
          ? `小朋友说了不止一个数字${guess.said.length ? `（${guess.said.join('、')}）` : ''}，不能判定；请问他猜的是哪一个。`
          : `小朋友说的「${guess.said.join('、')}」不是一个确切的数字，不能判定；请问他具体是几。`,
      );
    if (guess.number !== n) throw new ToolError(`小朋友没有说 ${n}，他说的是 ${guess.number}；只能用他说的数字。`);
    if (n < min || n > max) throw new ToolError(`${n} 不在 ${min} 到 ${max} 之间，这次不算，请小朋友猜 ${min} 到 ${max} 之间的数字。`);
  }

  private async judgeGuess(turn: Turn, n: number): Promise<Record<string, unknown>> {
    const g = this.game;
    this.checkGuess(turn, n);
    const earlier = g.earlier(n);
    if (earlier) {
      const verdict = { result: 'already_guessed', number: n, earlier: earlier.result, tries_left: g.triesLeft, not_counted: true };
      turn.markJudged('guess', verdict);
      return verdict;
    }
    const result = g.guess(n);
    const verdict: Record<string, unknown> = { result, number: n, tries_left: g.triesLeft };
    turn.markJudged('guess', verdict);
    if (result === 'correct') {
      verdict.tries_used = g.guesses.length;
      this.secrets[this.secrets.length - 1].found = true;
      this.recordReveal('correct', { answer: n });
      await this.react('happy', 'nod');
      turn.end_session();
    } else {
      await this.react('sorry', 'shake');
      if (g.phase === 'lost') {
        verdict.game_over = true;
        verdict.answer = g.answer;
        this.recordReveal('tries_used_up', { answer: g.answer });
        turn.end_session();
      }
    }
    return verdict;
  }

  private hintTool(): GameTool {
    const g = this.game;
    return {
      name: 'get_hint',
      description: '给小朋友一条提示（不消耗次数）。',
      parameters: NO_ARGS,
      perform: () => {
        const hint = g.hint();
        if (hint === null) return { hint: null, message: '提示已经用完了', still_possible: g.snapshot().still_possible };
        return { hint, hints_left: g.config.maxHints - g.hints.length };
      },
    };
  }
}

/** The game module contract (src/game/agent-factory.ts): one agent per session. */
export function createAgent(deps: AgentDeps): GuessNumberAgent {
  return new GuessNumberAgent(deps);
}
