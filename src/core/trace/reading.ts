/**
 * A round of the trace as a parent reads it in 记录: what the child said (or tapped), every sentence
 * the robot said, what the game did in plain Chinese (each game says it in its own words:
 * `skills/<id>/summary.ts`), and how long it took. The developer's view (tool calls, A2A, JSON, ids)
 * stays the tree of ./tree.ts, under 技术细节. And the safety records as 安全提醒 lists them. Pure.
 */
import { childSentence, describeAny } from '../errors/catalogue.ts';
import type { SafetyCategory } from '../safety/rules.ts';
import type { GroupedTrace, ViewEvent, ViewRound } from './rounds.ts';

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
  const parent = describeAny(code).parent;
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

/** One line of 记录 → 安全提醒: a line the safety check stopped, or the child's words answered with care. */
export interface SafetyEntry {
  key: string;
  at: number;
  kind: 'blocked' | 'child_words';
  /** Who it was: 孩子说的话, 小方（主机器人）, or 游戏「<title>」. */
  who: string;
  category: SafetyCategory;
  /** What the child heard instead. */
  said: string;
  /** What was really written (a blocked reply in full), or the child's words. */
  original: string;
  rule: string;
  view: string;
  /** Which half of the check found it: the rules, or the learned classifier. */
  by: 'rules' | 'classifier';
}

/** The most entries 安全提醒 lists. */
const SAFETY_ENTRIES_SHOWN = 100;

/**
 * Every safety record of the trace as 安全提醒 lists it, newest first (at most 100). A blocked
 * reply is one entry: its first blocked sentence, then the rest of it that was not said either.
 */
export function safetyEntries(trace: GroupedTrace, titleOf: (gameId: string) => string): SafetyEntry[] {
  const all = [...trace.rounds.flatMap((r) => r.events.map((e) => ({ e, words: r.text }))), ...trace.orphans.map((e) => ({ e, words: '' }))]
    .filter(({ e }) => e.kind === 'safety')
    .sort((a, b) => a.e.at - b.e.at || (a.e.seq ?? 0) - (b.e.seq ?? 0));
  const replies: Record<string, SafetyEntry> = {};
  const out: SafetyEntry[] = [];
  for (const { e, words } of all) {
    const d = obj(e.data) ?? {};
    const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : '');
    const reply = `${e.requestId ?? e.roundId ?? ''}:${str('role')}`;
    if (e.name === 'suppressed') {
      const entry = replies[reply];
      if (entry) entry.original += str('original');
      continue;
    }
    if (e.name !== 'blocked' && e.name !== 'child_words') continue;
    const child = e.name === 'child_words';
    const entry: SafetyEntry = {
      key: `${e.seq ?? ''}-${e.at}`,
      at: e.at,
      kind: child ? 'child_words' : 'blocked',
      who: child ? '孩子说的话' : str('role') === 'game_agent' ? `游戏「${titleOf(str('gameId'))}」` : '小方（主机器人）',
      category: d.category as SafetyCategory,
      said: str('said'),
      original: child ? words : str('original'),
      rule: str('rule'),
      view: str('view'),
      by: str('by') === 'classifier' ? 'classifier' : 'rules',
    };
    if (!child) replies[reply] = entry;
    out.push(entry);
  }
  return out.sort((a, b) => b.at - a.at).slice(0, SAFETY_ENTRIES_SHOWN);
}
