/**
 * Game readers: what a game's own rules read in a turn without doubt, as a pure function of what a
 * model would see — the event, the child's words, the state snapshot and this turn's tool calls and
 * results (demo-kit's TurnView) — to at most one tool call. A reader never guesses: words the
 * game's parsers cannot read as exactly one move (「一个」「两个数」「六十多」…) give nothing, and the
 * model decides. Readers also cover the continuation the rules prescribe after a result (the next
 * card, the next drawing, the end).
 *
 * A game's rules are its reader, the true line built from this turn's tool results (its truth.ts)
 * and its next prompt. `rulesStep` is the one composition of them: first the true line of the
 * results not said yet (a `say`), then the reader's call. The runtime pre-executes these steps
 * before any model call (src/games/skill-agent.ts, the Studio's phase runtime); the rules brain is
 * the same steps with the next prompt as its reply (`rulesPolicy`).
 */
import { errorOf } from '../agent/messages.ts';
import type { ScriptPolicy, Step } from '../llm/types.ts';
import { sentencesOf } from '../speech/split.ts';
import { call, readTurn, reply, type TurnView } from './demo-kit.ts';
import type { TurnResult } from './truth.ts';
import { alreadySaid } from './already-said.ts';

export type { TurnView };

/** What the rules read now: one tool call (never `say` or `reply`), or null. */
export type GameReader = (view: TurnView) => Step | null;

export interface GameRules {
  read: GameReader;
  /** The true line built from this turn's tool results (the game's truth.ts fallback), or null. */
  line(results: readonly TurnResult[]): string | null;
  /** What the rules say to end a turn whose line was said and the model added nothing in time (「再猜一个吧」). */
  nextPrompt(view: TurnView): string;
}

const SAY = 'say';

/** A robot tool's result that carries the robot's error (`device_completed: false`): not a refusal. */
const deviceResult = (r: unknown) => typeof r === 'object' && r !== null && (r as { device_completed?: unknown }).device_completed === false;

/** This turn's tool results that were not refused (the `say` steps aside). */
export function resultsOf(view: TurnView): TurnResult[] {
  return view.done.filter((d) => d.action !== SAY && d.result !== undefined && (!errorOf(d.result) || deviceResult(d.result))).map((d) => ({ name: d.action, args: d.args, result: d.result }));
}

/** What this turn's `say` steps said (accepted ones). */
export function saidIn(view: TurnView): string[] {
  return view.done.filter((d) => d.action === SAY && d.result !== undefined && !errorOf(d.result)).map((d) => String(d.args.text ?? ''));
}

/** The sentences of `line` not said yet in this turn (null when every one was). */
export function unsaidPart(line: string | null, said: readonly string[]): string | null {
  if (!line) return null;
  const rest = sentencesOf(line).filter((s) => s.trim() && !alreadySaid(s, said));
  return rest.length ? rest.join('') : null;
}

/** Whether this turn already tried `action` and was refused (a reader never repeats a refused call). */
function refusedBefore(view: TurnView, action: string): boolean {
  return view.done.some((d) => d.action === action && d.result !== undefined && errorOf(d.result) !== undefined && !deviceResult(d.result));
}

/**
 * The next step the rules take in this turn: the true line of the results not said yet (a `say`)
 * before the reader's next call, then that call. With `speakLast` (the runtime, before it hands over
 * to the model) the line is said even when the reader has nothing more: the rules speak first.
 * Null when the rules have nothing more to do.
 */
export function rulesStep(rules: GameRules, view: TurnView, speakLast = false): Step | null {
  let next = rules.read(view);
  if (next && (next.action === SAY || next.action === 'reply' || !view.legal.has(next.action) || refusedBefore(view, next.action))) next = null;
  const line = unsaidPart(rules.line(resultsOf(view)), saidIn(view));
  if (line && (next || speakLast) && view.legal.has(SAY)) return call(SAY, { text: line });
  return next;
}

/**
 * The rules brain of a game (演示脚本，无模型): the rules' steps, then a reply with the true line
 * not said yet — or, when everything true was said (the runtime spoke it first), the next prompt.
 */
export function rulesPolicy(rules: GameRules): ScriptPolicy {
  return (req) => {
    const view = readTurn(req);
    return rulesStep(rules, view) ?? reply(unsaidPart(rules.line(resultsOf(view)), saidIn(view)) ?? rules.nextPrompt(view));
  };
}
