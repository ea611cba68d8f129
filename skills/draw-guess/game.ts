/**
 * 你画我猜: the game agent. The robot draws an animal, the child guesses; JEV judges each input
 * at most once; the rules and score live in rules.ts; drawings and progress go straight to the
 * robot through the injected DevicePort (never through A2A, never into a prompt).
 */
import skillText from './SKILL.md?raw';
import { judge, type JevTarget } from '../../src/core/jev/index.ts';
import { squash } from '../../src/core/jev/normalize.ts';
import { Skill } from '../../src/core/games/skill.ts';
import { SkillAgent, ToolError, type AgentDeps, type GameTool, type SessionAnswer } from '../../src/games/skill-agent.ts';
import type { Turn } from '../../src/core/games/turn.ts';
import type { TruthRules, TurnResult } from '../../src/core/games/truth.ts';
import type { DeviceResult, Drawing } from '../../src/core/robot/types.ts';
import { ANIMALS } from './animals.ts';
import { DEFAULT_CONFIG, DrawGuessGame, type Card, type DrawGuessConfig } from './rules.ts';
import { animalsIn, truth } from './truth.ts';
import { rules } from './reader.ts';
import type { GameRules } from '../../src/core/games/reader.ts';

const skill = Skill.load('/skills/draw-guess/SKILL.md', skillText);

const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };

/** A drawing the robot could not finish (its screen was cleared, the link is up): worth one more try. */
const REDRAWABLE = 'robot_picture_incomplete';

/** show_drawing's result: what the robot did with the question's picture. */
function drawingResult(question: number, result: DeviceResult, redrawn: boolean): Record<string, unknown> {
  return {
    device_completed: result.device_completed,
    question,
    ...(redrawn ? { redrawn: true } : {}),
    ...(result.error ? { error: result.error } : {}),
    // Never "画好啦" over a picture the child cannot see.
    ...(result.device_completed ? {} : { drawing_visible: false, next: 'get_hint' }),
  };
}

/** What the robot says before drawing it again (true: it did get stuck, and it is starting over). */
export const STUCK_LINE = '画到一半卡住了，我重新画一次';

/** Compares texts the way "the same words" is meant: ignoring spaces, punctuation and width. */
export function sameWords(a: string, b: string): boolean {
  const words = squash(a);
  return words !== '' && words === squash(b);
}

interface DrawGuessOptions {
  deck?: readonly Card[];
  config?: DrawGuessConfig;
}

export class DrawGuessAgent extends SkillAgent {
  readonly skill = skill;
  readonly game: DrawGuessGame;
  private readonly vocabulary: JevTarget[];

  constructor(deps: AgentDeps, opts: DrawGuessOptions = {}) {
    super(deps);
    const deck = opts.deck ?? (ANIMALS as readonly Card[]);
    this.game = new DrawGuessGame(deck, opts.config ?? DEFAULT_CONFIG, this.random);
    // The judge knows every animal of the catalog, so "是猫" is a wrong answer, not an unknown word.
    const all = new Map<string, JevTarget>();
    for (const c of [...(ANIMALS as readonly Card[]), ...deck]) all.set(c.name, { name: c.name, aliases: [...c.aliases] });
    this.vocabulary = [...all.values()];
  }

  state(): Record<string, unknown> {
    return this.game.snapshot();
  }

  /** What the rules read without doubt is done before the model is asked (reader.ts). */
  protected override reader(): GameRules {
    return rules;
  }

  protected override truth(results: readonly TurnResult[], heard: string): TruthRules {
    return truth({ results, state: { game: this.game, animals: this.vocabulary }, heard });
  }

  /** Every question asked in this session (a new start while playing keeps the earlier ones): its animal, unless the child found it. */
  protected override answers(): SessionAnswer[] {
    const last = this.askedInSession.length - 1;
    return this.askedInSession.map((q, i) => ({
      id: `question-${i + 1}`,
      known: q.found,
      toldIn: (sentence) => animalsIn(sentence, this.vocabulary).some((a) => a.animal === q.animal),
      line: i === last ? `这一题的答案是${q.animal}。` : `刚才有一题是${q.animal}。`,
    }));
  }

  /** The questions asked in this session, in order. */
  private readonly askedInSession: Array<{ animal: string; found: boolean }> = [];

  private asked(): void {
    this.askedInSession.push({ animal: this.game.card.name, found: false });
    this.recordSecret('question', { question: this.game.number, answer: this.game.card.name });
  }

  /** What the robot draws: the card's strokes; the label (the answer!) only once revealed. */
  private drawingNow(): Drawing {
    const card = this.game.card;
    const { label: _label, ...strokes } = card.drawing;
    const revealed = this.game.revealedAnswer;
    return { ...strokes, id: card.drawing.id || card.id, ...(revealed ? { label: revealed } : {}) };
  }

  /** Result fields once the current question is over (answer revealed; maybe the game too). */
  private resolution(turn: Turn): Record<string, unknown> {
    const g = this.game;
    const out: Record<string, unknown> = { question_over: true, answer: g.revealedAnswer, score: g.score };
    this.recordReveal('answer', { question: g.number, status: g.status, answer: g.revealedAnswer });
    if (g.phase === 'over') {
      out.game_over = true;
      out.total = g.total;
      turn.end_session();
    } else out.next = 'next_question';
    return out;
  }

  tools(turn: Turn): GameTool[] {
    const g = this.game;
    const [startGame, endGame] = this.sessionTools(turn);
    if (g.phase !== 'playing') return [startGame, endGame];
    const [showDrawing, showProgress] = this.screenTools(turn);
    if (g.status !== 'open') return [this.nextQuestionTool(), showDrawing, showProgress, endGame];
    return [this.submitAnswerTool(turn), ...this.helpTools(turn), showDrawing, showProgress, startGame, endGame];
  }

  /** A new game (a restart while one is on), and the end with the score. */
  private sessionTools(turn: Turn): [GameTool, GameTool] {
    const g = this.game;
    const startGame: GameTool = {
      name: 'start_game',
      description: `开一局新游戏（${g.total} 题）。`,
      parameters: NO_ARGS,
      perform: () => {
        const restarted = g.phase === 'playing';
        g.start();
        this.asked();
        this.putProgress();
        return { started: true, restarted, question: g.number, total: g.total, attempts: g.config.attempts, next: 'show_drawing' };
      },
    };
    const endGame: GameTool = {
      name: 'end_game',
      description: '结束这局游戏，说出得分。',
      parameters: NO_ARGS,
      perform: () => {
        if (g.phase === 'ready') {
          turn.end_session();
          return { ended: true, score: 0 };
        }
        const wasOpen = g.phase === 'playing' && g.status === 'open';
        g.end();
        turn.end_session();
        if (wasOpen) this.recordReveal('end_game', { answer: g.revealedAnswer });
        return { ended: true, score: g.score, total: g.total, ...(wasOpen ? { unanswered: g.revealedAnswer } : {}) };
      },
    };
    return [startGame, endGame];
  }

  /** The progress card (question and score) on the robot's screen: the one device call both tools make. */
  private showProgressCard(): Promise<DeviceResult> {
    const g = this.game;
    return this.device.showProgress({ current: g.number, total: g.total, label: `第 ${g.number} 题 · ${g.score} 分` });
  }

  /**
   * A new question's progress on the robot's screen, put there by the tool that starts it
   * (start_game, next_question: one step less before the drawing). It is not waited for: the
   * device runs pictures one at a time in call order, so the drawing still comes after it, and the
   * start's line is said while it is drawn. A robot that could not show it never stops the game:
   * the failure goes to the trace.
   */
  private putProgress(): void {
    this.showProgressCard().then(
      (r) => {
        if (!r.device_completed) this.record('error', 'show_progress', { error: r.error ?? 'not_completed' });
      },
      (e: unknown) => this.record('error', 'show_progress', { error: String(e) }),
    );
  }

  /** The question's picture and the progress on the robot's screen. */
  private screenTools(turn: Turn): [GameTool, GameTool] {
    const g = this.game;
    const showDrawing: GameTool = {
      name: 'show_drawing',
      description: '在机器人屏幕上画出这一题的图（要一会儿，先用 say 说一句）。',
      parameters: NO_ARGS,
      awaitsDevice: true,
      perform: async () => {
        let result = await this.device.showDrawing(this.drawingNow());
        let redrawn = false;
        if (!result.device_completed && result.error?.startsWith(REDRAWABLE)) {
          // The robot got stuck half-way and its screen was cleared: say what the child sees, then draw it once more.
          turn.say(STUCK_LINE);
          this.record('game_tool', 'redraw', { question: g.number, first: result });
          result = await this.device.showDrawing(this.drawingNow());
          redrawn = true;
        }
        if (result.device_completed) g.markShown();
        return drawingResult(g.number, result, redrawn);
      },
      // The model's step after a drawing may be asked while the robot draws (src/core/agent/ahead.ts).
      expected: () => drawingResult(g.number, { device_completed: true }, false),
    };
    const showProgress: GameTool = {
      name: 'show_progress',
      description: '在屏幕上显示第几题和得分。',
      parameters: NO_ARGS,
      perform: async () => {
        const result = await this.showProgressCard();
        // The question, total and score are the state's (the round's state line): only what the robot did.
        return { device_completed: result.device_completed, ...(result.error ? { error: result.error } : {}) };
      },
    };
    return [showDrawing, showProgress];
  }

  /** After a question is resolved: the next one. */
  private nextQuestionTool(): GameTool {
    const g = this.game;
    const nextQuestion: GameTool = {
      name: 'next_question',
      description: '进入下一题。',
      parameters: NO_ARGS,
      perform: () => {
        g.next();
        this.asked();
        this.putProgress();
        return { question: g.number, next: 'show_drawing' };
      },
    };
    return nextQuestion;
  }

  /** The child's answer, judged once by JEV from the child's own words. */
  private submitAnswerTool(turn: Turn): GameTool {
    const g = this.game;
    const submitAnswer: GameTool = {
      name: 'submit_answer',
      description: '判定小朋友这一句的答案；text 必须是 user_text 的完整原话。',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1, maxLength: 500 } },
        required: ['text'],
        additionalProperties: false,
      },
      perform: async (args) => {
        const text = String(args.text);
        if (turn.kind !== 'message') throw new ToolError('只有小朋友在局里说的话才能判定（这一轮不是他的回答）。');
        const earlier = turn.judgedAs('answer');
        if (earlier !== undefined) throw new ToolError(`这句话已经判过一次了，结果是 ${JSON.stringify(earlier)}；每句话只判一次，请直接回复小朋友。`);
        if (!sameWords(text, turn.text))
          throw new ToolError(`submit_answer 只接受小朋友这一句的完整原话「${turn.text}」，不能改写、截取或补充。`);
        const card = g.card;
        const verdict = judge(turn.text, { name: card.name, aliases: [...card.aliases] }, this.vocabulary);
        const own = new Set([card.name, ...card.aliases]);
        // Recorded before any reveal below. The judge's reasoning for the parent; the answer itself stays under `secret` until revealed.
        this.record('game_tool', 'jev', { verdict: verdict.verdict, heard: verdict.mentioned.filter((m) => !own.has(m)), secret: { matched: verdict.matched, reason: verdict.reason } });
        const result: Record<string, unknown> = { verdict: verdict.verdict };
        if (verdict.verdict === 'correct') {
          g.answer(true);
          this.askedInSession[this.askedInSession.length - 1].found = true;
          Object.assign(result, this.resolution(turn));
          await this.react('happy', 'nod');
        } else if (verdict.verdict === 'wrong') {
          g.answer(false);
          // What the child chose (another animal); never the current answer.
          if (verdict.matched && !own.has(verdict.matched)) result.heard = verdict.matched;
          result.attempts_left = g.attemptsLeft;
          if (g.status !== 'open') Object.assign(result, this.resolution(turn));
          await this.react('sorry', 'shake');
        } else {
          result.not_counted = true;
          result.attempts_left = g.attemptsLeft;
        }
        turn.markJudged('answer', { verdict: verdict.verdict });
        return result;
      },
    };
    return submitAnswer;
  }

  /** While a question is open: a hint, or skipping it. */
  private helpTools(turn: Turn): [GameTool, GameTool] {
    const g = this.game;
    const getHint: GameTool = {
      name: 'get_hint',
      description: '给小朋友一条提示（越往后越容易）。',
      parameters: NO_ARGS,
      perform: () => {
        const hint = g.hint();
        return hint === null ? { hint: null, message: '提示用完了，可以鼓励他再猜，或者跳过这一题' } : { hint, hints_left: g.hintsLeft };
      },
    };
    const skipQuestion: GameTool = {
      name: 'skip_question',
      description: '跳过这一题（揭晓答案）。',
      parameters: NO_ARGS,
      perform: () => {
        g.skip();
        return { skipped: true, ...this.resolution(turn) };
      },
    };
    return [getHint, skipQuestion];
  }

}

export function createAgent(deps: AgentDeps): DrawGuessAgent {
  return new DrawGuessAgent(deps);
}
