/**
 * The tree the trace screen shows for one round:
 * user → main agent → A2A request → game tools → replies → speech → device (with durations).
 */
import { eventEnd, type ViewEvent, type ViewRound } from './rounds.ts';
import type { TraceKind } from './types.ts';
import { CATEGORY_LABEL } from '../safety/replies.ts';
import type { SafetyCategory } from '../safety/rules.ts';

type NodeKind = TraceKind | 'round' | 'main' | 'group';

export interface TraceNode {
  key: string;
  kind: NodeKind;
  label: string;
  at: number;
  durationMs?: number;
  event?: ViewEvent;
  children: TraceNode[];
}

/** Sections under one A2A request, in the order the seed lists them. */
const REQUEST_SECTIONS: { title: string; kinds: TraceKind[] }[] = [
  { title: '游戏工具', kinds: ['game_tool', 'model_step'] },
  { title: '回复', kinds: ['reply'] },
  { title: '播报', kinds: ['speech'] },
  { title: '设备', kinds: ['device'] },
  { title: '安全', kinds: ['safety'] },
  { title: '错误', kinds: ['error', 'user_input', 'main_tool', 'a2a_request'] },
];

const ROUND_SECTIONS: { title: string; kinds: TraceKind[] }[] = [
  { title: '回复', kinds: ['reply'] },
  { title: '播报', kinds: ['speech'] },
  { title: '设备', kinds: ['device'] },
  { title: '游戏工具', kinds: ['game_tool'] },
  { title: '安全', kinds: ['safety'] },
  { title: '错误', kinds: ['error'] },
];

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.text === 'string') return o.text;
    if (o.reply && typeof o.reply === 'object') return text(o.reply);
    if (o.input && typeof o.input === 'object') return text(o.input);
  }
  return undefined;
}

function short(s: string, n = 40): string {
  const chars = Array.from(s);
  return chars.length > n ? `${chars.slice(0, n).join('')}…` : s;
}

/** A round opened by the app itself (e.g. ending a game interrupted by a reload) is not the child's words. */
const speaker = (e: ViewEvent): string => (e.source === 'app' ? '应用' : '用户');

function eventLabel(e: ViewEvent): string {
  const d = (e.data ?? {}) as Record<string, unknown>;
  const t = text(e.data);
  switch (e.kind) {
    case 'user_input':
      return `${speaker(e)}：「${short(t ?? '')}」`;
    case 'main_tool':
      return `主 Agent 工具 ${e.name ?? ''}`.trim();
    case 'model_step':
      return `模型步骤${e.name ? ` ${e.name}` : ''}`;
    case 'a2a_request': {
      const game = typeof d.gameId === 'string' ? d.gameId : e.name ?? '';
      const kind = typeof d.kind === 'string' ? d.kind : (d.input as { kind?: string } | undefined)?.kind;
      return `A2A 请求 → ${game}${kind ? `（${kind}）` : ''}${t ? `：「${short(t)}」` : ''}`;
    }
    case 'game_tool':
      return `游戏工具 ${e.name ?? ''}`.trim();
    case 'reply': {
      const session = (d.session ?? (d.reply as { session?: string } | undefined)?.session) as string | undefined;
      return `回复：「${short(t ?? '')}」${session === 'ended' ? '（结束）' : ''}`;
    }
    case 'speech':
      return `播报：「${short(t ?? '')}」`;
    case 'device':
      return `设备 ${e.name ?? ''}`.trim();
    case 'safety': {
      const label = CATEGORY_LABEL[d.category as SafetyCategory] ?? String(d.category ?? '');
      return e.name === 'child_words' ? `安全：孩子的话（${label}），已温和回答，没有交给模型` : `安全：拦下一句（${label}）${typeof d.said === 'string' && d.said ? `，改说「${short(d.said)}」` : ''}`;
    }
    case 'error':
      return `错误 ${e.name ?? ''}`.trim();
  }
}

function leaf(e: ViewEvent, i: number): TraceNode {
  return { key: `e${e.seq ?? i}-${e.at}`, kind: e.kind, label: eventLabel(e), at: e.at, durationMs: e.durationMs, event: e, children: [] };
}

function span(nodes: TraceNode[], from?: number): number | undefined {
  if (nodes.length === 0) return undefined;
  const start = from ?? Math.min(...nodes.map((n) => n.at));
  const end = Math.max(...nodes.map((n) => n.at + (n.durationMs ?? 0)));
  return end - start;
}

function sections(events: ViewEvent[], defs: typeof REQUEST_SECTIONS, keyPrefix: string, indexOf: Map<ViewEvent, number>): TraceNode[] {
  const out: TraceNode[] = [];
  const taken = new Set<ViewEvent>();
  for (const def of defs) {
    const list = events.filter((e) => def.kinds.includes(e.kind) && !taken.has(e));
    list.forEach((e) => taken.add(e));
    if (list.length === 0) continue;
    const children = list.map((e) => leaf(e, indexOf.get(e) ?? 0));
    out.push({ key: `${keyPrefix}:${def.title}`, kind: 'group', label: def.title, at: children[0].at, durationMs: span(children), children });
  }
  return out;
}

const isMainSide = (e: ViewEvent) =>
  !e.requestId && (e.kind === 'main_tool' || (e.kind === 'model_step' && !e.source.startsWith('game:')));

export function buildRoundTree(round: ViewRound): TraceNode {
  const indexOf = new Map(round.events.map((e, i) => [e, i] as const));
  const byRequest = new Map<string, ViewEvent[]>();
  for (const e of round.events) {
    if (!e.requestId || e.kind === 'a2a_request') continue;
    const list = byRequest.get(e.requestId) ?? [];
    list.push(e);
    byRequest.set(e.requestId, list);
  }

  const mainChildren: TraceNode[] = [];
  const seenRequests = new Set<string>();
  for (const e of round.events) {
    if (isMainSide(e)) mainChildren.push(leaf(e, indexOf.get(e) ?? 0));
    else if (e.kind === 'a2a_request') {
      const id = e.requestId ?? `anon${indexOf.get(e)}`;
      seenRequests.add(id);
      mainChildren.push(requestNode(e.at, eventLabel(e), id, byRequest.get(id) ?? [], indexOf, e));
    }
  }
  // Game records whose request event is not in this round (e.g. recorded by another page).
  for (const [id, list] of byRequest) {
    if (seenRequests.has(id)) continue;
    mainChildren.push(requestNode(list[0].at, `A2A 请求 ${id.slice(0, 8)}（未记录发送）`, id, list, indexOf));
  }
  mainChildren.sort((a, b) => a.at - b.at);

  const children: TraceNode[] = [];
  const input = round.events.find((e) => e.kind === 'user_input');
  if (input) children.push(leaf(input, indexOf.get(input) ?? 0));
  if (mainChildren.length > 0) {
    children.push({ key: `${round.id}:main`, kind: 'main', label: '主 Agent', at: mainChildren[0].at, durationMs: span(mainChildren), children: mainChildren });
  }
  const rest = round.events.filter((e) => !e.requestId && !isMainSide(e) && e.kind !== 'user_input' && e.kind !== 'a2a_request');
  children.push(...sections(rest, ROUND_SECTIONS, round.id, indexOf));

  return {
    key: round.id,
    kind: 'round',
    label: `${input ? speaker(input) : '用户'}：「${short(round.text)}」`,
    at: round.startedAt,
    durationMs: round.endedAt - round.startedAt,
    children,
  };
}

function requestNode(at: number, label: string, id: string, events: ViewEvent[], indexOf: Map<ViewEvent, number>, request?: ViewEvent): TraceNode {
  const children = sections(events, REQUEST_SECTIONS, `req:${id}`, indexOf);
  const end = Math.max(request ? eventEnd(request) : at, ...events.map(eventEnd));
  return { key: `req:${id}`, kind: 'a2a_request', label, at, durationMs: end - at, event: request, children };
}

/** 850 → "850 毫秒", 1234 → "1.2 秒", 65000 → "1 分 5 秒". */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} 毫秒`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} 秒`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} 分 ${s % 60} 秒`;
}
