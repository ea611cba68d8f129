/**
 * The main agent's model loop (seed 000 §职责): the agent tool loop over its tool registry —
 * `list_games` (a loop tool: its result goes back to the model) and the boundary tools that end the
 * round: `start_game(game_id)`, `end_game`, `send_message` (always the child's original words,
 * never the model's paraphrase) and `reply` (plain chat; with the parent's 「只玩游戏」 `games_only`
 * instead, a kind fixed sentence). The prompt and tool specs are in
 * src/core/arcade/prompt.ts.
 */
import { runToolLoop, ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import { buildMessages, listGamesResult, mainTools, type ChatMode } from '../core/arcade/prompt.ts';
import type { ArcadeGame, HistoryEntry, SpokenOutcome } from '../core/arcade/types.ts';
import { describe } from '../core/errors/catalogue.ts';
import { ModelError, type ChatModel, type Step, type StepRequest } from '../core/llm/types.ts';
import { SentenceStream } from '../core/speech/sentence-stream.ts';
import { SAY, gamesOnlyText, unavailableText } from './errors.ts';
import type { GameRequests } from './game-requests.ts';
import { childText } from './game-requests.ts';

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
  /** A line that is not what "再说一遍" repeats ("嗯，让我想想"). */
  sayAside(text: string, roundId: string): void;
  record(e: { kind: 'main_tool' | 'model_step' | 'error'; roundId: string; name: string; data?: unknown; durationMs?: number }): void;
  now(): number;
  /** Model steps per round before giving up (list_games then reply needs 2). */
  maxSteps: number;
  /** After this long waiting on one model step, say "嗯，让我想想" once (no dead air); 0 turns it off. */
  thinkingFillerMs: number;
  /** The parent's 「只玩游戏」: no free chat (read each round). */
  gamesOnly?: () => boolean;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface ModelRound {
  /** The tool the round ended with: 'reply' | 'start_game' | 'end_game' | 'send_message' | 'error' | 'aborted'. */
  action: string;
  modelCalls: number;
}

export class MainModelLoop {
  constructor(private readonly deps: ModelLoopDeps) {}

  /** The child's words decided by the model, step by step, until a boundary tool. */
  async think(words: string, roundId: string, games: readonly ArcadeGame[], history: readonly HistoryEntry[], signal: AbortSignal): Promise<ModelRound> {
    const { requests } = this.deps;
    let calls = 0;
    const model = this.counted(roundId, () => calls++);
    const mode = { gamesOnly: this.deps.gamesOnly?.() ?? false };
    const tools = (): AgentTool[] => this.registry(words, roundId, games, mode);
    try {
      const out = await runToolLoop({
        agent: 'main',
        model,
        messages: buildMessages(games, history, requests.session, requests.busy, words, [], mode),
        tools,
        maxSteps: this.deps.maxSteps,
        now: this.deps.now,
        signal,
        maxTokens: MAX_TOKENS,
        // A tool that ran recorded itself before it acted; a refused step is recorded here.
        onStep: (r) => {
          if (r.refused) this.deps.record({ kind: 'main_tool', roundId, name: r.step.action, data: { args: r.step.args, refused: r.result } });
        },
      });
      if (out.kind === 'boundary') return { action: out.step.action, modelCalls: calls };
      await this.deps.sayMain(describe('main_no_decision').child, roundId);
      return { action: 'error', modelCalls: calls };
    } catch (err) {
      if (signal.aborted) return { action: 'aborted', modelCalls: calls };
      const code = err instanceof ModelError ? err.code : 'main_model_failed';
      this.deps.record({ kind: 'error', roundId, name: code, data: { message: String((err as Error)?.message ?? err) } });
      await this.deps.sayMain(childText(code, 'main_model_failed'), roundId);
      return { action: 'error', modelCalls: calls };
    }
  }

  /** The tools legal now: no game → list/start/reply; a game running → also end_game and send_message. */
  private registry(words: string, roundId: string, games: readonly ArcadeGame[], mode: ChatMode): AgentTool[] {
    const { requests, sayMain } = this.deps;
    // The reply is spoken sentence by sentence as the model writes it; each resolves to what the child heard.
    const spoken: Array<Promise<string>> = [];
    const sayOne = (s: string) => spoken.push(this.deps.saySentence(s, roundId).then((o) => o?.said ?? s));
    const replying = new SentenceStream((s) => sayOne(s), true);
    const perform: Record<string, AgentTool['perform']> = {
      list_games: () => listGamesResult(games),
      start_game: async (args) => {
        const game = games.find((g) => g.declaration.id === args.game_id);
        if (!game) throw new ToolError(`没有这个游戏：${String(args.game_id)}`);
        if (!game.available) await sayMain(unavailableText(game), roundId);
        else await requests.start(game, words, roundId);
      },
      end_game: () => requests.end(words, roundId),
      send_message: async () => {
        if (!requests.session) await sayMain(SAY.noGameToEnd, roundId);
        else if (requests.busy) await sayMain(SAY.wait, roundId);
        else await requests.message(words, roundId);
      },
      games_only: () => sayMain(gamesOnlyText(games), roundId),
      reply: async (args) => {
        const text = typeof args.text === 'string' && args.text.trim() ? args.text : replying.sent.length ? '' : describe('main_no_decision').child;
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
        return perform[spec.name](args);
      },
      ...(spec.name === 'reply' ? { streamText: (text: string, attempt: number) => replying.update(text, attempt) } : {}),
    }));
  }

  /** The model as this round uses it: counted, timed into the trace, and with the thinking filler. */
  private counted(roundId: string, count: () => void): ChatModel {
    const d = this.deps;
    const inner = d.model();
    return {
      label: inner.label,
      step: async (req: StepRequest): Promise<Step> => {
        count();
        const started = d.now();
        const timer = d.thinkingFillerMs > 0 ? d.setTimer(() => d.sayAside(SAY.thinking, roundId), d.thinkingFillerMs) : null;
        try {
          const step = await inner.step(req);
          d.record({ kind: 'model_step', roundId, name: step.action, durationMs: d.now() - started, data: { promptChars: req.messages.reduce((n, m) => n + m.content.length, 0) } });
          return step;
        } finally {
          if (timer !== null) d.clearTimer(timer);
        }
      },
    };
  }
}
