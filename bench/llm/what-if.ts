/**
 * What-if rewrites of recorded requests, to estimate a prompt-layout change before anyone makes
 * it (nothing here changes an agent).
 *
 * `turnStateInUserMessage`: a game agent's system prompt ends with the parts that change between
 * turns — "# 现在可用的动作" (the legal actions; they change with the phase) and "# 当前状态" (the
 * state snapshot; it changes almost every turn). Every new turn therefore breaks the reusable
 * prefix inside the system prompt, and everything after it (the remembered rounds) is prefilled
 * again. The rewrite keeps the system prompt to its stable part and puts the moved part at the top
 * of the turn's own user message. Options:
 * - `moved`: `'state'` (only the snapshot) or `'actions+state'`;
 * - `memory`: `'plain'` — remembered rounds keep the bare event, as the runtime stores them
 *   today — or `'as-sent'` — memory keeps each event with the part it was sent with.
 */
import type { ChatMessage, StepRequest } from '../../src/core/llm/types.ts';
import type { BenchSequence } from './measure.ts';

const ACTIONS_MARK = '\n\n# 现在可用的动作';
const STATE_MARK = '\n\n# 当前状态';
const isToolResponse = (m: ChatMessage) => m.role === 'user' && m.content.startsWith('<tool_response>');
const isEvent = (m: ChatMessage) => m.role === 'user' && !isToolResponse(m);

/** True when the sequence is a SkillAgent's (its system prompt ends with actions + state). */
export function hasTurnState(seq: BenchSequence): boolean {
  return (
    seq.steps.length > 0 &&
    seq.steps.every((s) => s.messages[0]?.role === 'system' && s.messages[0].content.includes(ACTIONS_MARK) && s.messages[0].content.includes(STATE_MARK))
  );
}

export interface TurnStateLayout {
  moved: 'state' | 'actions+state';
  memory: 'plain' | 'as-sent';
}

export function turnStateInUserMessage(seq: BenchSequence, layout: TurnStateLayout): BenchSequence {
  const mark = layout.moved === 'state' ? STATE_MARK : ACTIONS_MARK;
  // The moved part each turn was started with, by the turn's ordinal (k-th event message).
  // Sessions here stay under the 16-round memory window, so ordinals do not shift.
  const movedOfTurn: string[] = [];
  const steps = seq.steps.map((step): StepRequest => {
    const [system, ...rest] = step.messages;
    const at = system.content.lastIndexOf(mark);
    const stable = system.content.slice(0, at);
    const moved = system.content.slice(at + 2);
    const eventCount = rest.filter(isEvent).length;
    let ordinal = 0;
    const messages = rest.map((m) => {
      if (!isEvent(m)) return m;
      const k = ordinal++;
      const current = k === eventCount - 1;
      if (current) movedOfTurn[k] ??= moved;
      if (!current && layout.memory === 'plain') return m;
      return { ...m, content: `${movedOfTurn[k] ?? moved}\n\n${m.content}` };
    });
    return { ...step, messages: [{ role: 'system', content: stable }, ...messages] };
  });
  return { ...seq, variant: `${seq.variant ? `${seq.variant}, ` : ''}${layout.moved} → user msg, memory ${layout.memory}`, steps };
}

const BOARD_HEADER = '# 当前黑板';

/** True when the sequence is a Studio worker's (its first user message is the board view). */
export function hasBoardView(seq: BenchSequence): boolean {
  return seq.steps.length > 1 && seq.steps.every((s) => s.messages.some((m) => m.role === 'user' && m.content.startsWith(BOARD_HEADER)));
}

/** Reorders a board view's `## <tag>` sections: the design's tags (`设计.*`, fixed during play) first. */
export function designTagsFirstInView(content: string): string {
  if (!content.startsWith(BOARD_HEADER)) return content;
  const [header, ...sections] = content.split(/\n(?=## )/);
  const isDesign = (s: string) => s.startsWith('## 设计.');
  const sorted = [...sections.filter(isDesign), ...sections.filter((s) => !isDesign(s))].map((s) => s.replace(/\n+$/, ''));
  return `${header}\n${sorted.join('\n\n')}`;
}

/**
 * `designTagsFirst`: a Studio worker's board view lists its tags in the skill's `reads` order, so
 * a changing `运行.*` tag ahead of the long, fixed `设计.卡牌` breaks the reusable prefix early.
 */
export function designTagsFirst(seq: BenchSequence): BenchSequence {
  return {
    ...seq,
    variant: `${seq.variant ? `${seq.variant}, ` : ''}design tags first`,
    steps: seq.steps.map((s) => ({ ...s, messages: s.messages.map((m) => (m.role === 'user' ? { ...m, content: designTagsFirstInView(m.content) } : m)) })),
  };
}
