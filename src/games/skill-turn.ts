/**
 * One turn of a game (src/games/skill-agent.ts): the rules' steps first, then the model's through
 * the agent tool loop, each sentence checked (truth, safety, already said) before it is said; the
 * colour window after the rules' truthful line, the turn's deadline, and what is remembered of the
 * round — as generated, as far as it went when cut, or as the rules took it while a step the colour
 * window cut finishes muted (src/games/muted-step.ts). The agent's doc comment tells the whole story.
 */
import { cutRound, remember } from '../core/agent/memory.ts';
import { stepMessage } from '../core/agent/messages.ts';
import { runToolLoop, type LoopOutcome, type StepRecord } from '../core/agent/tool-loop.ts';
import { alreadySaid, repeatsClaims } from '../core/games/already-said.ts';
import { rebuiltTurn } from '../core/games/blocked-turn.ts';
import { readTurn } from '../core/games/demo-kit.ts';
import { EngineFailure, type EngineReply, type EngineTurn } from '../core/games/engine.ts';
import { inputMessage, isInputMessage, REPLY_ACTION, SAY_ACTION } from '../core/games/game-prompt.ts';
import { rulesStep, type GameRules } from '../core/games/reader.ts';
import { stateLine } from '../core/games/state-line.ts';
import { Turn } from '../core/games/turn.ts';
import { checkSentence, TruthGate, type TruthProblem, type TruthRules, type TurnResult } from '../core/games/truth.ts';
import type { ChatMessage, ChatModel, ToolSpec } from '../core/llm/types.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { NOTHING_MORE, SentenceStream } from '../core/speech/sentence-stream.ts';
import { sentencesOf } from '../core/speech/split.ts';
import { MutedStepStopped } from './muted-step.ts';
import { withoutOwnRound } from '../core/games/muted-round.ts';
import { stepTools, type GameTool, type TurnSpeech } from './turn-tools.ts';
import { UNSAFE, type UnsafeFinding } from './unsafe-line.ts';

/** The turn's deadline passed: the engine answers with what its rules decided. */
class DeadlineReached extends Error {
  override name = 'DeadlineReached';
}

/** The rules spoke first and the model's reply was not ready within the colour window. */
class ColourWindowPassed extends Error {
  override name = 'ColourWindowPassed';
}

/** The end of the colour window, as the turn sees it. */
const COLOUR_CUT = Symbol('colour window passed');

/** What a turn needs from its game agent. */
export interface TurnHost {
  readonly source: string;
  readonly model: ChatModel;
  readonly maxSteps: number;
  readonly now: () => number;
  /** The agent's colour window (a turn may carry its own). */
  readonly colourMs: number;
  /** False: a step the colour window cut is aborted instead of finishing muted. */
  readonly finishMuted: boolean;
  /** False: a muted step keeps the stall watch of a step someone waits for. */
  readonly mutedInBackground: boolean;
  /** False: the model's step after a device step of the rules is not asked while the device works. */
  readonly askAhead: boolean;
  /** False: the rules' line after a result is a `say` step of its own, not noted in that result. */
  readonly notedLines: boolean;
  /** The game's reader, or null: the model decides every step. */
  readonly gameRules: GameRules | null;
  /** The remembered rounds (read and replaced by the turn). */
  memory: ChatMessage[];
  systemPrompt(): string;
  state(): Record<string, unknown>;
  truth(results: readonly TurnResult[], heard: string): TruthRules | null;
  tools(turn: Turn): GameTool[];
  record(kind: 'model_step' | 'error', name: string, data: unknown): void;
  recordBlocked(original: string, finding: UnsafeFinding | null, said: string): void;
  onStep(r: StepRecord): void;
  /**
   * Muted steps of earlier turns still finishing on an engine that reads a begun prefill to the end
   * (src/games/muted-step.ts): this turn's model step waits for them, then starts from the memory
   * they leave. Absent: none.
   */
  readonly finishing?: Promise<void>;
  /** The step the colour window cut goes on muted; `rulesRound`: the round the rules kept for it (in memory); `begun`: its request has gone to the model. */
  muteStep(loop: Promise<LoopOutcome>, stop: AbortController, historyLength: number, rulesRound: readonly ChatMessage[], heard: string, cleanup: () => void, begun: () => boolean): void;
  /** The game goes on: the start of its next request is read into the engine's cache. */
  prewarmNext(): void;
  /** `messages`, the start of the turn's next request, are read into the engine's cache. */
  prewarm(messages: readonly ChatMessage[]): void;
}

export class SkillTurn {
  private readonly turn: Turn;
  /** What the tools decided in this turn: the truth rules read it. */
  private readonly results: TurnResult[] = [];
  /** Built once per state of the turn: only a tool's result (which comes with its change of state) changes them. */
  private built: { results: number; rules: TruthRules | null } | undefined;
  /** After the colour window nothing more of the model's output is said. */
  private muted = false;
  /** The turn stops when it is cancelled, when its deadline passes, or when its muted step is stopped. */
  private readonly stop = new AbortController();
  /** Aborted once the turn is muted: no one waits for the model's words from then on. */
  private readonly background = new AbortController();
  private readonly speech: TurnSpeech;
  /** The conversation when the rules handed over to the model (after the pre-executed steps). */
  private handover: readonly ChatMessage[] | undefined;
  private readonly gate = new TruthGate();
  private redirected = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private colour: ReturnType<typeof setTimeout> | undefined;
  private colourPassed: (() => void) | undefined;
  private readonly colourCut = new Promise<typeof COLOUR_CUT>((resolve) => (this.colourPassed = () => resolve(COLOUR_CUT)));
  /** The turn has ended at the colour window while its model step finishes muted (cleanup waits for it). */
  private finishing = false;
  /** The round as far as it went (input, steps, results), remembered when it is cut. */
  private partial: readonly ChatMessage[] = [];
  /** The round the rules kept when the colour window cut this turn (in memory while the step finishes muted). */
  private ownRound: ChatMessage[] | undefined;
  /** Whether this turn's model request has gone out (not while it waits for the muted steps still finishing). */
  private begun: boolean;
  private readonly onCancel = () => this.stop.abort(this.t.signal.reason);

  constructor(
    private readonly host: TurnHost,
    private readonly t: EngineTurn,
    private readonly unsafe: (sentence: string) => UnsafeFinding | null,
  ) {
    this.begun = !host.finishing;
    this.turn = new Turn(t.kind, t.text, (s) => t.say(s), t.signal);
    const out = (s: string) => {
      if (!this.muted) this.turn.say(s);
    };
    const check = (s: string) => this.check(s);
    const repeated = (s: string) => this.repeated(s);
    this.speech = { saying: new SentenceStream(out, false, check, repeated), replying: new SentenceStream(out, true, check, repeated) };
  }

  private rules(): TruthRules | null {
    if (this.built?.results !== this.results.length) this.built = { results: this.results.length, rules: this.host.truth(this.results, this.t.text) };
    return this.built.rules;
  }

  private check(sentence: string): TruthProblem | null {
    // A line the child-safety check would block is never sent: the turn is rebuilt from the rules instead.
    if (this.unsafe(sentence)) return { sentence, claim: { kind: UNSAFE, words: sentence }, reason: '这句话不适合小朋友' };
    const r = this.rules();
    return r ? checkSentence(sentence, r) : null;
  }

  /** While muted: stops the step (it would change the game, or say what may not be said); null before. */
  private mutedStop(): ((why: string) => void) | null {
    return this.muted ? (why: string) => this.stop.abort(new MutedStepStopped(why)) : null;
  }

  /** The already-said check: a sentence that says again what this turn said is dropped. */
  private repeated(sentence: string): boolean {
    const said = this.turn.said;
    if (!said.length) return false;
    if (alreadySaid(sentence, said)) return true;
    const r = this.rules();
    return r !== null && repeatsClaims(sentence, said, (x) => r.claims(x));
  }

  private viewOf(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []) {
    return readTurn({ agent: this.host.source, messages: [...messages], tools: [...tools] });
  }

  /** The rules' line built from the tool results, without the sentences this turn already said (a `say` told the skip). */
  private rulesLine(): string | null {
    const line = this.rules()?.fallback();
    if (!line) return null;
    const unsaid = sentencesOf(line).filter((x) => !this.turn.said.includes(x.trim()));
    if (unsaid.length) return unsaid.join('');
    // Everything true was said already (the rules spoke first): the rules' next prompt ends the turn.
    const gameRules = this.host.gameRules;
    return gameRules && this.handover ? gameRules.nextPrompt(this.viewOf(this.handover)) : line;
  }

  /** A sentence the checks refused: null → back to the model; a line → said instead; '' → the turn fails. */
  private refused(p: TruthProblem, whole?: string): string | null {
    const drop = this.mutedStop();
    if (drop) {
      // Muted: nothing is said; a refused reply is not kept (the round stays as the rules took it).
      if (p.claim.kind === UNSAFE || !this.gate.retry()) drop(`a muted reply was refused (${p.claim.kind})`);
      return null;
    }
    if (p.claim.kind === UNSAFE) {
      // The redirect, then the rest of the turn from the tool results (never the model's words again).
      const line = rebuiltTurn({ redirect: this.redirected ? '' : REDIRECT.game, rulesLine: this.rules()?.fallback() ?? null, continues: !this.turn.sessionEnding && this.t.kind !== 'end', said: this.turn.said });
      // What was held back: the blocked sentence and the rest of the model's words after it.
      const at = whole?.indexOf(p.sentence) ?? -1;
      this.host.recordBlocked(at >= 0 ? whole!.slice(at) : p.sentence, this.unsafe(p.sentence), line);
      this.redirected = true;
      return line || REDIRECT.game;
    }
    // The refused words stay under `secret` (hidden in the trace view until the answer is told): they may name it.
    this.host.record('error', 'truth', { claim: p.claim.kind, reason: p.reason, refusal: this.gate.refusals + 1, secret: { sentence: p.sentence, words: p.claim.words } });
    if (this.gate.retry()) return null;
    return this.rulesLine() ?? '';
  }

  private get ended(): boolean {
    return this.turn.sessionEnding || this.t.kind === 'end';
  }

  /** What the tools decided, said truly, when the model did not get to say it (or null). */
  private instead(why: string): EngineReply | null {
    const line = this.rulesLine();
    if (!line) return null;
    this.host.record('error', 'model_step', { error: why, instead: line });
    this.speech.replying.restart();
    // Remembered as far as it went, with the line said instead as its reply.
    this.host.memory = remember(this.host.memory, cutRound(this.partial, line), isInputMessage);
    return { text: this.speech.replying.finish(line) || NOTHING_MORE, ended: this.ended };
  }

  private cleanup(): void {
    clearTimeout(this.timer);
    clearTimeout(this.colour);
    this.t.signal.removeEventListener('abort', this.onCancel);
  }

  /** The rules spoke: the model has the colour window to add its reply. */
  private startColour(messages: readonly ChatMessage[]): void {
    this.handover = messages;
    if (!this.turn.said.length) return;
    this.colour = setTimeout(() => {
      this.muted = true;
      if (this.host.finishMuted && this.host.mutedInBackground) {
        // No one waits for it: not the turn's deadline either (the next turn, an end, close or any other step stops it).
        clearTimeout(this.timer);
        this.background.abort();
      }
      this.colourPassed?.();
    }, this.t.colourMs ?? this.host.colourMs);
  }

  private loop(history: readonly ChatMessage[], input: ChatMessage): Promise<LoopOutcome> {
    const gameRules = this.host.gameRules;
    return runToolLoop({
      agent: this.host.source,
      model: this.host.finishing ? this.afterFinishing(history.length, this.host.finishing) : this.host.model,
      messages: [...history, input],
      tools: () => stepTools({ gameTools: () => this.host.tools(this.turn), notedLines: this.host.notedLines, speech: this.speech, refused: (p, whole) => this.refused(p, whole), mutedStop: () => this.mutedStop(), recordBlocked: (...a) => this.host.recordBlocked(...a), unsafe: this.unsafe }),
      maxSteps: this.host.maxSteps,
      now: this.host.now,
      signal: this.stop.signal,
      deadline: this.t.deadline,
      background: this.background.signal,
      askAhead: this.host.askAhead,
      ...(gameRules
        ? {
            pre: (messages: readonly ChatMessage[], tools: readonly ToolSpec[]) => rulesStep(gameRules, this.viewOf(messages, tools), true),
            onHandover: (messages: readonly ChatMessage[]) => this.startColour(messages),
            // While the robot works, the engine reads the conversation so far: the model's request after the
            // device step continues it and reads only what came since. Not while muted steps still finish:
            // the request then starts from the memory they leave, not from these messages.
            ...(this.host.finishing ? {} : { onDeviceWait: (messages: readonly ChatMessage[]) => this.host.prewarm(messages) }),
          }
        : {}),
      onMessages: (m) => (this.partial = m.slice(history.length)),
      onStep: (r) => {
        this.host.onStep(r);
        if (r.kind === 'loop' && !r.refused && r.step.action !== SAY_ACTION) this.results.push({ name: r.step.action, args: r.step.args, result: r.result });
      },
    });
  }

  /**
   * The model once the muted steps still finishing are over: the first request waits for them
   * (the rules have spoken meanwhile), and every request starts with the memory they left — their
   * rounds as generated — instead of the rounds the rules kept, so it continues what the engine
   * holds. This turn's own round (kept by the rules when the colour window cut it) is not part of it.
   */
  private afterFinishing(historyLength: number, finishing: Promise<void>): ChatModel {
    const host = this.host;
    let start: ChatMessage[] | undefined;
    const stop = this.stop.signal;
    const waited = new Promise<void>((resolve, reject) => {
      const onStop = () => reject(stop.reason);
      if (stop.aborted) onStop();
      stop.addEventListener('abort', onStop, { once: true });
      void finishing.then(() => {
        stop.removeEventListener('abort', onStop);
        resolve();
      });
    });
    waited.catch(() => undefined);
    return {
      label: host.model.label,
      step: async (req) => {
        if (!start) {
          await waited;
          start = [{ role: 'system', content: host.systemPrompt() }, ...withoutOwnRound(host.memory, this.ownRound)];
          this.begun = true;
        }
        return host.model.step({ ...req, messages: [...start, ...req.messages.slice(historyLength)] });
      },
    };
  }

  /** Plays the turn. Intermediate replies go out through `t.say`; rejects with the abort reason when cancelled. */
  async play(): Promise<EngineReply> {
    const t = this.t;
    if (t.signal.aborted) this.onCancel();
    else t.signal.addEventListener('abort', this.onCancel, { once: true });
    if (t.deadline !== undefined) this.timer = setTimeout(() => this.stop.abort(new DeadlineReached(`the turn's deadline passed`)), Math.max(0, t.deadline - this.host.now()));
    // The state line: only what changed since the state the remembered rounds told (state-line.ts).
    const input = inputMessage(t.kind, t.text, stateLine(this.host.memory, this.host.state()));
    this.partial = [input];
    const history = [{ role: 'system' as const, content: this.host.systemPrompt() }, ...this.host.memory];
    try {
      const loop = this.loop(history, input);
      const outcome = await Promise.race([loop, this.colourCut]);
      if (outcome === COLOUR_CUT) return this.cutAtColour(loop, history.length);
      return this.finished(outcome, history.length);
    } catch (e) {
      return this.failed(e);
    } finally {
      if (!this.finishing) {
        this.cleanup();
        if (!this.turn.sessionEnding && t.kind !== 'end' && !t.signal.aborted) this.host.prewarmNext();
      }
    }
  }

  /**
   * The colour window passed: the rules' next prompt ends the turn; the late output is not said.
   * The round is kept as far as the rules took it, with the prompt as its reply, until the muted
   * step finishes.
   */
  private cutAtColour(loop: Promise<LoopOutcome>, historyLength: number): EngineReply {
    const gameRules = this.host.gameRules;
    const handover = this.handover;
    if (!gameRules || !handover) throw new ColourWindowPassed('the colour window passed');
    const text = gameRules.nextPrompt(this.viewOf(handover));
    this.host.record('error', 'model_step', { error: new ColourWindowPassed('the colour window passed').message, instead: text });
    this.ownRound = [...handover.slice(historyLength), stepMessage({ action: REPLY_ACTION, args: { text } })];
    this.host.memory = remember(this.host.memory, this.ownRound, isInputMessage);
    if (this.host.finishMuted) {
      this.finishing = true;
      this.host.muteStep(loop, this.stop, historyLength, this.ownRound, text, () => this.cleanup(), () => this.begun);
    } else {
      this.stop.abort(new ColourWindowPassed('the colour window passed'));
      loop.catch(() => undefined);
    }
    return { text, ended: this.ended };
  }

  private finished(outcome: LoopOutcome, historyLength: number): EngineReply {
    if (outcome.kind === 'exhausted') {
      const why = `no reply within ${this.host.maxSteps} steps`;
      const told = this.instead(why);
      if (told) return told;
      this.host.record('error', 'model_step', { error: why });
      throw new EngineFailure(why, { sessionOver: this.turn.sessionEnding });
    }
    if (outcome.result === '') {
      // The truth check refused every reply and the rules had no line of their own.
      throw new EngineFailure('every reply was refused by the truth check', { sessionOver: this.turn.sessionEnding });
    }
    // The round exactly as it was sent and generated: input, every step and tool result, the reply.
    this.host.memory = remember(this.host.memory, outcome.messages.slice(historyLength), isInputMessage);
    return { text: outcome.result as string, ended: this.ended };
  }

  private failed(e: unknown): EngineReply {
    if (this.t.signal.aborted) throw this.t.signal.reason;
    if (e instanceof EngineFailure) throw e;
    // Out of time: no model error to name (GameSessions says the fallback of the input's kind).
    const code = this.stop.signal.aborted ? undefined : (e as { code?: unknown }).code;
    const told = this.instead(String((e as Error)?.message ?? e));
    if (told) return told;
    this.host.record('error', 'model_step', { error: String(e), code });
    // A tool may already have ended the game in this round: the session is over whatever the model did.
    throw new EngineFailure(String((e as Error)?.message ?? e), { sessionOver: this.turn.sessionEnding, code: typeof code === 'string' ? code : undefined });
  }
}
