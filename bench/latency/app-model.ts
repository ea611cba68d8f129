/**
 * The app's turn, modelled (not measured): the recorded sessions (run.ts) replayed through the
 * app's real turn budget (src/core/arcade/turn-budget.ts: T2, the margin a game keeps), on ONE engine
 * shared with main-agent chat turns, with robot action time, cut rounds, and — in the "after"
 * variant — the rules-first path as issue 24 describes it and the cache discipline of this branch.
 *
 * Per in-game turn (the child's words → what they hear):
 * - cueS: the thinking cue (shown in code at once);
 * - truthful line: when the first TRUE sentence about the turn's outcome can be spoken — before:
 *   the model's first sentence; after, for a turn the rules decide (its first step is a game tool
 *   the readers can pre-execute): the rules' line at once (RULES_LINE_S), the model only adds colour;
 * - firstModelSentence: when the model's own first sentence is ready;
 * - cut: the model's reply is not complete by T2 − GAME_REPLY_MARGIN_MS (the child hears the rules'
 *   fallback instead).
 * Engines: WebLLM's exact rule (every message but the last equals the previous request plus its
 * output; an aborted reply always resets) or llama.cpp's longest common prefix (the CPU engine).
 * Before: a cut round is not remembered (later requests lack it), a chat turn takes the same cache;
 * after: a cut round is remembered as far as it went. The CPU engine keeps the main agent's prompt
 * apart from the game's in both (measured: wllama's prompt cache); WebLLM has one conversation, so a
 * chat turn evicts the game's there.
 * What it leaves out: speaking time, the colour window, the Studio's sessions, the readers' own
 * coverage (a turn counts as rule-decidable when the model's first recorded step was a game tool).
 */
import type { ChatMessage, StepRequest } from '../../src/core/llm/types.ts';
import { DEFAULT_TURN_BUDGET, GAME_REPLY_MARGIN_MS } from '../../src/core/arcade/turn-budget.ts';
import { CHATML, continuation, type HeldConversation } from '../../src/core/llm/continuation.ts';
import { firstSentenceEnd, percentile, renderChatML, type Tokenizer, type TurnSteps } from './simulate.ts';
import type { DeviceProfile } from './profiles.ts';

export type CacheRule = 'webllm' | 'prefix';

/** The rules' line is built from the tool's result in code: one event-loop turn after the cue. */
export const RULES_LINE_S = 0.1;
/** The cue: shown in code the moment the words arrive. */
export const CUE_S = 0.05;
/** show_drawing on the on-screen robot (strokes drawn at the firmware's pace). */
export const ROBOT_ACTION_S: Record<string, number> = { show_drawing: 4 };
/** A chat turn with the main agent after every this many in-game turns. */
export const CHAT_EVERY = 3;
/** Tools whose result the game's rules read from the child's words (the readers of issue 24). */
const RULE_TOOLS = new Set(['submit_guess', 'get_hint', 'submit_answer', 'skip_question', 'answer', 'check_answer']);

interface Session {
  name: string;
  turns: Array<TurnSteps & { inGame: boolean; kind?: string }>;
}

const isInput = (m: ChatMessage) => m.role === 'user' && m.content.startsWith('{"event":');

/** One engine with the chosen cache rule and cache slots (a slot per agent when `slots` > 1). */
class Engine {
  private conv = new Map<string, { messages: ChatMessage[]; tokens: number[] } | null>();
  /** What the WebLLM engine (src/llm/webllm-engine.ts) holds per slot, for folding (`fold`). */
  private held = new Map<string, HeldConversation | null>();
  constructor(
    private readonly tok: Tokenizer,
    private readonly rule: CacheRule,
    private readonly slots: number,
    private readonly fold = false,
  ) {}
  private slot(agent: string): string {
    // Measured (bench/cpu-engine --qwen --slots): wllama 3.13 keeps the game's prompt across a chat step
    // even with one slot (its server's prompt cache), so the prefix rule keeps one cache per agent.
    return (this.slots > 1 || this.rule === 'prefix') && agent === 'main' ? 'main' : 'game';
  }
  /** What the engine holds for `agent`'s slot (to give it back after another agent's step). */
  hold(agent: string): { conv: { messages: ChatMessage[]; tokens: number[] } | null | undefined; held: HeldConversation | null | undefined } {
    const key = this.slot(agent);
    return { conv: this.conv.get(key), held: this.held.get(key) };
  }
  /** The hub's prewarm after a chat step: the WebLLM engine replays the game's conversation (src/llm/webllm-engine.ts `replay`). */
  giveBack(agent: string, kept: ReturnType<Engine['hold']>): void {
    const key = this.slot(agent);
    if (kept.conv !== undefined) this.conv.set(key, kept.conv);
    if (kept.held !== undefined) this.held.set(key, kept.held);
  }
  /** Tokens to prefill for this request, and whether it continued in place. */
  step(agent: string, asked: ChatMessage[], output: string, aborted = false): { prefill: number; inPlace: boolean } {
    const key = this.slot(agent);
    // WebLLM's engine sends several new messages (the rules' pre-executed steps) folded into one.
    const req = this.fold && this.rule === 'webllm' ? continuation(this.held.get(key) ?? null, asked, CHATML).send : asked;
    if (this.fold) this.held.set(key, aborted ? null : { asked, sent: req, reply: output });
    const prev = this.conv.get(key) ?? null;
    const prompt = this.tok.encode(renderChatML(req));
    let prefill = prompt.length;
    let inPlace = false;
    if (prev && this.rule === 'webllm') {
      const hist = req.slice(0, -1);
      if (hist.length === prev.messages.length && hist.every((m, i) => m.role === prev.messages[i].role && m.content === prev.messages[i].content)) {
        prefill = this.tok.encode(renderChatML(req.slice(-1))).length;
        inPlace = true;
      }
    } else if (prev) {
      let common = 0;
      while (common < prompt.length && common < prev.tokens.length && prompt[common] === prev.tokens[common]) common++;
      prefill = prompt.length - common;
      inPlace = common > prompt.length / 2;
    }
    const out = this.tok.encode(output);
    // WebLLM never continues an aborted reply; llama.cpp keeps what it read.
    this.conv.set(key, aborted && this.rule === 'webllm' ? null : { messages: [...req, { role: 'assistant', content: output }], tokens: [...prompt, ...(aborted ? [] : out)] });
    return { prefill, inPlace };
  }
}

/** The request without the messages of a forgotten round (the one whose input is `input`). */
function without(req: ChatMessage[], input: string): ChatMessage[] {
  const at = req.findIndex((m) => isInput(m) && m.content === input);
  if (at < 0) return req;
  let end = at + 1;
  while (end < req.length && !isInput(req[end])) end++;
  // The round being answered now is the last one: never cut it.
  if (end >= req.length) return req;
  return [...req.slice(0, at), ...req.slice(end)];
}

export interface AppFigures {
  cueS: number;
  truthfulLineP50S: number;
  truthfulLineP95S: number;
  firstModelSentenceP50S: number;
  turnsCutShare: number;
  startFirstWordsS: number;
  inPlaceShare: number;
  prefillTokensPerTurn: number;
  prefillAfterChatTokens: number;
}

export interface AppVariant {
  rulesFirst: boolean;
  rememberCut: boolean;
  slots: number;
  /**
   * A request that adds several messages after the held conversation (the input, then the rules'
   * pre-executed steps) is sent folded into one that renders the same prompt (src/core/llm/
   * continuation.ts), as the WebLLM engine does: WebLLM continues in place only when ONE is added.
   */
  fold?: boolean;
  /**
   * After a chat step, the hub asks again for the game's prewarm and the engine holds the game's
   * conversation again (read while the chat reply is spoken, off the turn: src/llm/model-hub.ts).
   */
  rewarm?: boolean;
}

export const BEFORE: AppVariant = { rulesFirst: false, rememberCut: false, slots: 1 };
export function afterFor(rule: CacheRule): AppVariant {
  return { rulesFirst: true, rememberCut: true, slots: rule === 'prefix' ? 2 : 1, fold: true, rewarm: true };
}

export function modelApp(sessions: Session[], chat: ChatMessage[][], profile: DeviceProfile, rule: CacheRule, v: AppVariant, tok: Tokenizer, answerMs = DEFAULT_TURN_BUDGET.answerMs): AppFigures {
  const limitS = (answerMs - GAME_REPLY_MARGIN_MS) / 1000;
  const truthful: number[] = [];
  const firstModel: number[] = [];
  const starts: number[] = [];
  const afterChat: number[] = [];
  let cut = 0;
  let inGame = 0;
  let steps = 0;
  let inPlace = 0;
  let prefill = 0;
  let chatN = 0;
  for (const s of sessions) {
    const engine = new Engine(tok, rule, v.slots, v.fold);
    const forgotten: string[] = [];
    let sinceChat = 0;
    let chatJustHappened = false;
    for (const turn of s.turns) {
      let t = 0;
      let first: number | null = null;
      let turnPrefill = 0;
      let aborted = false;
      const input = turn.steps[0]?.req.messages.findLast(isInput)?.content;
      const preExecuted = v.rulesFirst && turn.inGame && RULE_TOOLS.has(actionOf(turn.steps[0]?.output));
      for (const [k, { req, output }] of turn.steps.entries()) {
        if (preExecuted && k === 0) continue; // performed by the runtime, written into the transcript: not decoded
        let messages = req.messages;
        for (const f of forgotten) messages = without(messages, f);
        if (t > limitS) break; // the turn is over: no more requests of this round
        const cost = engine.step(req.agent, messages, output);
        const decodeStart = t + cost.prefill / profile.prefillTps;
        const end = firstSentenceEnd(output, true);
        const outTokens = tok.encode(output).length + 1;
        if (first === null && end !== null) first = decodeStart + (end >= output.length ? outTokens : tok.encode(output.slice(0, end)).length + 1) / profile.decodeTps;
        t = decodeStart + outTokens / profile.decodeTps + (ROBOT_ACTION_S[actionOf(output)] ?? 0);
        if (turn.inGame) {
          steps++;
          if (cost.inPlace) inPlace++;
          turnPrefill += cost.prefill;
        }
        if (t > limitS) aborted = true;
      }
      const firstModelS = first ?? t;
      if (!turn.inGame) {
        if (turn.kind === 'start') starts.push(v.rulesFirst ? RULES_LINE_S : firstModelS);
        continue;
      }
      inGame++;
      prefill += turnPrefill;
      if (chatJustHappened) afterChat.push(turnPrefill);
      chatJustHappened = false;
      firstModel.push(firstModelS);
      truthful.push(preExecuted ? RULES_LINE_S : Math.min(firstModelS, limitS));
      if (aborted) {
        cut++;
        if (!v.rememberCut && input) forgotten.push(input);
      }
      // A chat turn with the main agent on the same engine every few in-game turns.
      if (++sinceChat % CHAT_EVERY === 0 && chat.length) {
        const kept = v.rewarm ? engine.hold('game') : undefined;
        engine.step('main', chat[chatN++ % chat.length], '{"reply":{"text":"我是机器人小乐。"}}');
        if (kept) engine.giveBack('game', kept);
        chatJustHappened = true;
      }
    }
  }
  return {
    cueS: CUE_S,
    truthfulLineP50S: percentile(truthful, 50),
    truthfulLineP95S: percentile(truthful, 95),
    firstModelSentenceP50S: percentile(firstModel, 50),
    turnsCutShare: cut / Math.max(1, inGame),
    startFirstWordsS: percentile(starts, 50),
    inPlaceShare: inPlace / Math.max(1, steps),
    prefillTokensPerTurn: prefill / Math.max(1, inGame),
    prefillAfterChatTokens: afterChat.length ? afterChat.reduce((a, b) => a + b, 0) / afterChat.length : 0,
  };
}

function actionOf(output: string | undefined): string {
  try {
    const v = JSON.parse(output ?? '') as Record<string, unknown>;
    return typeof v.action === 'string' ? v.action : (Object.keys(v)[0] ?? '');
  } catch {
    return '';
  }
}

export type { StepRequest };
