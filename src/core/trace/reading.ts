/**
 * A round of the trace as a parent reads it in 记录: what the child said (or tapped), every sentence
 * the robot said, what the game did in plain Chinese (each game says it in its own words:
 * `skills/<id>/summary.ts`), and how long it took. The developer's view (tool calls, A2A, JSON, ids)
 * stays the tree of ./tree.ts, under 技术细节. Pure.
 */
import { childSentence, describe } from '../errors/catalogue.ts';
import type { ViewEvent, ViewRound } from './rounds.ts';

/** One tool call of a game, as its trace record holds it. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
}

/** A game's plain-Chinese line for one of its tool calls, or undefined to say nothing about it. */
export type ToolSummary = (call: ToolCall) => string | undefined;

export interface RoundReading {
  /** `child`: the child's words; `tap`: a game card tapped; `app`: the app itself (e.g. after a reload). */
  who: 'child' | 'tap' | 'app';
  said: string;
  /** Every sentence the robot said in this round, in order. */
  robot: string[];
  /** What the game (or the app) did, in plain Chinese, in order. */
  happened: string[];
  durationMs: number;
}

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** The game a game-side record comes from (`game:<id>` sources). */
function gameOf(e: ViewEvent): string | undefined {
  return e.source.startsWith('game:') ? e.source.slice('game:'.length) : undefined;
}

/** What a parent reads of an error: the catalogue's explanation when it is in Chinese. */
function plainError(code: string): string {
  const parent = describe(code).parent;
  return /[\u4e00-\u9fff]/u.test(parent) ? `出了问题：${parent}` : '出了点问题（详见技术细节）';
}

export function readRound(round: ViewRound, summaries: Readonly<Record<string, ToolSummary>>): RoundReading {
  const input = round.events.find((e) => e.kind === 'user_input');
  const tapped = round.events.some((e) => e.kind === 'main_tool' && obj(e.data)?.tap === true);
  const who = input?.source === 'app' ? 'app' : tapped ? 'tap' : 'child';
  const said = who === 'tap' ? round.text.replace(/^我要玩/, '') : round.text;
  const robot: string[] = [];
  const happened: string[] = [];
  for (const e of round.events) {
    const d = obj(e.data);
    if (e.kind === 'speech' && e.name === 'spoken' && typeof d?.text === 'string') robot.push(d.text);
    else if (e.kind === 'game_tool' && d && obj(d.result) && obj(d.args) && !('error' in obj(d.result)!)) {
      const game = gameOf(e);
      const line = game && e.name ? summaries[game]?.({ name: e.name, args: obj(d.args)!, result: obj(d.result)! }) : undefined;
      if (line) happened.push(line);
    } else if (e.kind === 'error' && e.name && !d?.quiet && childSentence(e.name) !== undefined) happened.push(plainError(e.name));
  }
  return { who, said, robot, happened: [...new Set(happened)], durationMs: round.endedAt - round.startedAt };
}
