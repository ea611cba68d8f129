/**
 * The main agent's model loop (seed 000 §职责): the agent tool loop over its tool registry —
 * `list_games` (a loop tool: its result goes back to the model) and the boundary tools that end the
 * round: `start_game(game_id)`, `end_game`, `send_message` (always the child's original words,
 * never the model's paraphrase) and `reply` (plain chat; with the parent's 「只玩游戏」 `games_only`
 * instead, a kind fixed sentence). The prompt and tool specs are in
 * src/core/arcade/prompt.ts.
 *
 * The round's deadline (the turn budget's T2) bounds the thinking: every step gets it, and when it
 * passes before a boundary tool was chosen, the child hears a true "too slow" line (the tool that
 * runs after — a game request — has its own). The main agent decides no game outcome: a reply that
 * claims one (猜对了, 答案是…) is refused back to the model like malformed output (the truth check).
 */
import { runToolLoop, ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import { cutRound } from '../core/agent/memory.ts';
import { buildMessages, listGamesResult, mainTools, type ChatMode } from '../core/arcade/prompt.ts';
import type { ArcadeGame, HistoryEntry, SpokenOutcome } from '../core/arcade/types.ts';
import { describe } from '../core/errors/catalogue.ts';
import { checkSentence, truthCorrection, type TruthProblem, type TruthRules } from '../core/games/truth.ts';
import { declaredRules, NO_OWN_RULES } from '../core/games/claim-kinds.ts';
import { faultCode } from '../core/arcade/fault-line.ts';
import { clearlySwitches } from '../core/arcade/intents.ts';
import { childSentence } from '../core/errors/catalogue.ts';
import { DEFAULT_TRAITS, forgetsOnSwitch, ModelError, type ChatMessage, type ChatModel, type Step, type StepRequest } from '../core/llm/types.ts';
import { SentenceStream } from '../core/speech/sentence-stream.ts';
import { mainRulesStep } from './demo-policy.ts';
import { SAY, gamesOnlyText, unavailableText } from './errors.ts';
import type { GameRequests } from './game-requests.ts';
import type { RulesInGame } from './main-agent-deps.ts';

/**
 * The main agent decides no game result (大/小, 对/错, score, answer, end, restart, next question),
 * with or without a game running: only the game does. It may say the game goes on while one runs.
 */
export function mainAgentRules(gameRunning: boolean): TruthRules {
  return declaredRules(NO_OWN_RULES, { who: '主助手', can: ['continue'], facts: { continues: gameRunning }, instead: '游戏的结果只有游戏能判定，请用 send_message 把小朋友的原话交给游戏' });
}

/** Longest decoded step of the main agent (a routing call or a one-sentence reply). */
const MAX_TOKENS = 160;

export interface ModelLoopDeps {
  model: () => ChatModel;
  requests: GameRequests;
  sayMain(text: string, roundId: string): Promise<void>;
  /** One sentence of the main agent's reply, spoken while the rest is still being written (not yet in history). */
  saySentence(text: string, roundId: string): Promise<SpokenOutcome>;
  /** The main agent's whole reply, once said, into the history. */
  remember(text: string): void;
  record(e: { kind: 'main_tool' | 'model_step' | 'error'; roundId: string; name: string; data?: unknown; durationMs?: number }): void;
  now(): number;
  /** Model steps per round before giving up (list_games then reply needs 2). */
  maxSteps: number;
  /** When the round's model steps must be decided by (the turn budget, minus the time to speak). */
  deadlineOf(roundId: string): number;
  /** The child's sentence for a catalogue code, in turn among its variants (`fallback` when the code is not catalogued). */
  line(code: string, fallback: string): string;
  /** The parent's 「只玩游戏」: no free chat (read each round). */
  gamesOnly?: () => boolean;
  /** MainAgentDeps.rulesInGame. */
  rulesInGame?: () => RulesInGame;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface ModelRound {
  /** The tool the round ended with: 'reply' | 'start_game' | 'end_game' | 'send_message' | 'error' | 'aborted'. */
  action: string;
  modelCalls: number;
  /** A round decided by a boundary tool, or cut (kept as far as it went, the line said as its reply): its messages as sent and generated, from the input on. */
  sent?: ChatMessage[];
}

/** What a round has said so far, shared by every step of the round. */
interface RoundSpeech {
  /** Each spoken sentence, resolving to what the child heard. */
  readonly spoken: Array<Promise<string>>;
  readonly sayOne: (sentence: string) => void;
  readonly replying: SentenceStream<TruthProblem>;
}

export class MainModelLoop {
  /** Rounds in a row that ended in a model fault (a short outage is not a settings problem). */
  private faults = 0;

  constructor(private readonly deps: ModelLoopDeps) {}

  /** Whether the main agent's rules decide this round instead of its model (MainAgentDeps.rulesInGame). */
  private async byRules(): Promise<boolean> {
    if (this.deps.requests.session === null) return false;
    const routing = this.deps.rulesInGame?.() ?? 'on-switch';
    if (routing !== 'on-switch') return routing === 'always';
    return forgetsOnSwitch((await this.deps.model().traits?.()) ?? DEFAULT_TRAITS);
  }

  /**
   * The child's words decided by the model, step by step, until a boundary tool — by the main
   * agent's rules instead (./demo-policy.ts), with no model call, in a game on an engine that would
   * forget the game's conversation for this round's request (`forgetsOnSwitch`), or whose brain is
   * too slow on this device for the turn budget (MainAgentDeps.rulesInGame).
   */
  async think(words: string, roundId: string, games: readonly ArcadeGame[], history: readonly HistoryEntry[], signal: AbortSignal): Promise<ModelRound> {
    const { requests } = this.deps;
    const byRules = await this.byRules();
    let calls = 0;
    const model = byRules ? this.rules(roundId) : this.counted(roundId, () => calls++);
    // The thinking stops when the child stops it, or when the round's deadline passes first.
    const deadline = this.deps.deadlineOf(roundId);
    const stop = new AbortController();
    const onStop = () => stop.abort(signal.reason);
    if (signal.aborted) onStop();
    else signal.addEventListener('abort', onStop, { once: true });
    let timer: unknown = this.deps.setTimer(() => stop.abort(new Error('the round ran out of time')), Math.max(0, deadline - this.deps.now()));
    // A boundary tool acts on its own time (a game request has its own deadline).
    const acting = () => {
      if (timer !== null) this.deps.clearTimer(timer);
      timer = null;
    };
    const mode = { gamesOnly: this.deps.gamesOnly?.() ?? false };
    // The reply is spoken sentence by sentence as the model writes it, each sentence checked first;
    // each resolves to what the child heard. One stream for the whole round, so a reply written
    // again after a refusal does not say again what was said.
    const spoken: Array<Promise<string>> = [];
    const sayOne = (s: string) => spoken.push(this.deps.saySentence(s, roundId).then((o) => o?.said ?? s));
    const rules = mainAgentRules(requests.session !== null);
    const check = (sentence: string): TruthProblem | null => checkSentence(sentence, rules);
    const speech: RoundSpeech = { spoken, sayOne, replying: new SentenceStream((s) => sayOne(s), true, check) };
    const tools = (): AgentTool[] => this.registry(words, roundId, games, mode, acting, speech);
    const messages = buildMessages(games, history, requests.session, requests.busy, words, [], mode);
    // The round as far as it went (the input as sent, each step with its result).
    let partial: ChatMessage[] = messages.slice(-1);
    try {
      const out = await runToolLoop({
        agent: 'main',
        model,
        messages,
        tools,
        maxSteps: this.deps.maxSteps,
        now: this.deps.now,
        signal: stop.signal,
        deadline,
        maxTokens: MAX_TOKENS,
        onMessages: (m) => (partial = m.slice(messages.length - 1)),
        // A tool that ran recorded itself before it acted; a refused step is recorded here.
        onStep: (r) => {
          if (r.refused) this.deps.record({ kind: 'main_tool', roundId, name: r.step.action, data: { args: r.step.args, refused: r.result } });
        },
      });
      this.faults = 0;
      if (out.kind === 'boundary') return { action: out.step.action, modelCalls: calls, sent: out.messages.slice(messages.length - 1) };
      await this.deps.sayMain(this.deps.line('main_no_decision', 'main_no_decision'), roundId);
      return { action: 'error', modelCalls: calls };
    } catch (err) {
      if (signal.aborted) return { action: 'aborted', modelCalls: calls };
      const code = stop.signal.aborted ? 'model_too_slow' : err instanceof ModelError ? err.code : 'main_model_failed';
      this.faults++;
      // The cause as far as it is known: a short run of faults is 「我有点卡住了」, settings only when it persists.
      const said = faultCode(code, this.faults, childSentence(code));
      this.deps.record({ kind: 'error', roundId, name: code, data: { message: String((err as Error)?.message ?? err), faultsInARow: this.faults, ...(said !== code ? { said } : {}) } });
      const line = this.deps.line(said, 'main_model_failed');
      await this.deps.sayMain(line, roundId);
      // Kept as far as it went with the line said as its reply: the next request starts with all the engine read.
      return { action: 'error', modelCalls: calls, sent: cutRound(partial, line) };
    } finally {
      acting();
      signal.removeEventListener('abort', onStop);
    }
  }

  /**
   * While the arcade is idle: the main agent's next request without the child's words yet (its
   * system prompt and history, exactly as `think` will send them) goes into a local engine's cache,
   * so the next chat turn prefills only the new words.
   */
  prewarm(games: readonly ArcadeGame[], history: readonly HistoryEntry[]): void {
    const model = this.deps.model();
    if (!model.prewarm) return;
    const { requests } = this.deps;
    const messages = buildMessages(games, history, requests.session, requests.busy, '', [], { gamesOnly: this.deps.gamesOnly?.() ?? false });
    void model.prewarm('main', messages.slice(0, -1), new AbortController().signal);
  }

  /** The tools legal now: no game → list/start/reply; a game running → also end_game and send_message. */
  private registry(words: string, roundId: string, games: readonly ArcadeGame[], mode: ChatMode, acting: () => void, speech: RoundSpeech): AgentTool[] {
    const { requests, sayMain } = this.deps;
    const { spoken, sayOne, replying } = speech;
    // A new step: whatever the last one wrote is over (said, or refused).
    replying.restart();
    const perform: Record<string, AgentTool['perform']> = {
      list_games: () => listGamesResult(games),
      start_game: async (args) => {
        const game = games.find((g) => g.declaration.id === args.game_id);
        if (!game) throw new ToolError(`没有这个游戏：${String(args.game_id)}`);
        // The running game's name said as an answer is an answer, not a restart.
        if (requests.session?.gameId === game.declaration.id && !clearlySwitches(words, games)) throw new ToolError(`「${game.declaration.title}」正在玩，小朋友的话是游戏里的回答：请用 send_message 交给游戏`);
        if (!game.available) await sayMain(unavailableText(game), roundId);
        else await requests.start(game, words, roundId);
      },
      end_game: () => requests.end(words, roundId),
      send_message: async () => {
        if (!requests.session) await sayMain(SAY.noGameToEnd, roundId);
        else await requests.messageWhenFree(words, roundId);
      },
      games_only: () => sayMain(gamesOnlyText(games), roundId),
      reply: async (args) => {
        const text = typeof args.text === 'string' && args.text.trim() ? args.text : replying.sent.length ? '' : describe('main_no_decision').child;
        const problem = replying.problemIn(text);
        if (problem) throw new ToolError(truthCorrection(problem.problem));
        const rest = replying.finish(text);
        if (rest) sayOne(rest);
        this.deps.remember((await Promise.all(spoken)).join(''));
      },
    };
    return mainTools(games, requests.session !== null, mode).map((spec) => ({
      ...spec,
      kind: spec.name === 'list_games' ? 'loop' : 'boundary',
      perform: (args) => {
        this.deps.record({ kind: 'main_tool', roundId, name: spec.name, data: { args } });
        // The round is decided: its deadline no longer applies (a game request keeps its own).
        if (spec.name !== 'list_games') acting();
        return perform[spec.name](args);
      },
      ...(spec.name === 'reply' ? { streamText: (text: string, attempt: number) => replying.update(text, attempt) } : {}),
    }));
  }

  /** The main agent's rules as this round's model: each step they take is in the trace (no model call). */
  private rules(roundId: string): ChatModel {
    return {
      label: '规则',
      step: async (req: StepRequest): Promise<Step> => {
        const step = mainRulesStep(req);
        this.deps.record({ kind: 'model_step', roundId, name: step.action, durationMs: 0, data: { byRules: true } });
        return step;
      },
    };
  }

  /** The model as this round uses it: counted and timed into the trace. */
  private counted(roundId: string, count: () => void): ChatModel {
    const d = this.deps;
    const inner = d.model();
    return {
      label: inner.label,
      step: async (req: StepRequest): Promise<Step> => {
        count();
        const started = d.now();
        const step = await inner.step(req);
        d.record({ kind: 'model_step', roundId, name: step.action, durationMs: d.now() - started, data: { promptChars: req.messages.reduce((n, m) => n + m.content.length, 0) } });
        return step;
      },
    };
  }
}
