/**
 * Reading a game agent's StepRequest the way a scripted "model" sees it (skills/<id>/demo.ts):
 * only the prompt — the last input message (the child's words and the state snapshot), and the
 * tool calls and responses of this turn. A demo policy never sees game internals (so never a secret).
 */
import { errorOf, isToolResult, readStep, readToolResult } from '../agent/messages.ts';
import type { Step, StepRequest } from '../llm/types.ts';
import { toldState } from './state-line.ts';
import { SAID, SAY_ACTION } from './game-prompt.ts';

export { errorOf };

interface ToolExchange {
  action: string;
  args: Record<string, unknown>;
  /** The tool's result (undefined when the step has no response yet). */
  result?: unknown;
}

export interface TurnView {
  event: 'start' | 'message' | 'end';
  userText: string;
  /** Tool calls already made in this turn, with their results. */
  done: ToolExchange[];
  /** The game's state as of this turn's input: every round's state line merged (state-line.ts). */
  state: Record<string, unknown>;
  /** Names of the actions legal now. */
  legal: Set<string>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function readTurn(req: StepRequest): TurnView {
  let state: Record<string, unknown> | undefined;
  // The turn starts at the last user message that is an event (not a tool response).
  let start = -1;
  let event: TurnView['event'] = 'message';
  let userText = '';
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== 'user' || isToolResult(m)) continue;
    const v = parseJson(m.content) as { event?: TurnView['event']; user_text?: string } | undefined;
    if (v && typeof v.event === 'string') {
      start = i;
      event = v.event;
      userText = v.user_text ?? '';
      state = toldState(req.messages.slice(0, i + 1));
      break;
    }
  }

  const done: ToolExchange[] = [];
  for (let i = start + 1; i < req.messages.length; i++) {
    const m = req.messages[i];
    const step = readStep(m);
    if (step) done.push({ action: step.action, args: step.args });
    const result = readToolResult(m);
    if (result && done.length > 0) {
      done[done.length - 1].result = result.result;
      // A line noted as said after the result is read as the `say` it stands for.
      if (result.said !== undefined) done.push({ action: SAY_ACTION, args: { text: result.said }, result: SAID });
    }
  }
  return { event, userText, done, state: state ?? {}, legal: new Set(req.tools.map((t) => t.name)) };
}

/** The last exchange of an action in this turn, if any. */
export function lastOf(view: TurnView, action: string): ToolExchange | undefined {
  return [...view.done].reverse().find((d) => d.action === action);
}

export function call(action: string, args: Record<string, unknown> = {}): Step {
  return { action, args };
}

export function reply(text: string): Step {
  return { action: 'reply', args: { text } };
}

/** Simple intent words a child uses (demo policies only). */
export const wantsHint = (t: string) => /提示|不知道|想不出|猜不到|帮帮我|线索/.test(t);
export const wantsStop = (t: string) => /不玩|不想玩|结束|退出|再见|拜拜|停/.test(t);
export const wantsSkip = (t: string) => /跳过|换一个|换一题|下一题|太难/.test(t);
