/**
 * The tools of one model step of a game's turn (src/games/skill-turn.ts): the game's own tools,
 * `say` and the final `reply`. Both speak as they are written, through the turn's sentence streams,
 * each sentence checked before it is released; a sentence the checks refuse goes back to the model
 * (a tool error) or is replaced by the rules' line. After the colour window (muted) a step may only
 * speak, to no one: a game tool is not performed, and a line the checks refuse stops the step.
 */
import { ToolError, type AgentTool } from '../core/agent/tool-loop.ts';
import { REPLY_ACTION, REPLY_DESCRIPTION, SAID, SAY_ACTION, SAY_DESCRIPTION, TEXT } from '../core/games/game-prompt.ts';
import { mayRunMuted } from '../core/games/muted-round.ts';
import { truthCorrection, type TruthProblem } from '../core/games/truth.ts';
import { fitReplyText } from '../core/protocol/game-protocol.ts';
import { NOTHING_MORE, type SentenceStream } from '../core/speech/sentence-stream.ts';
import { UNSAFE, type UnsafeCheck, type UnsafeFinding } from './unsafe-line.ts';

/** A game tool: the runtime runs it as a loop tool with arguments already valid under `parameters`. */
export type GameTool = Omit<AgentTool, 'kind'>;

export interface TurnSpeech {
  saying: SentenceStream<TruthProblem>;
  replying: SentenceStream<TruthProblem>;
}

/** What the step's tools need from their turn. */
export interface StepToolsContext {
  /** The game's tools legal now. */
  gameTools(): readonly GameTool[];
  /** Whether the rules' line right after a result is noted in that result (AgentTool.notedInResult). */
  notedLines: boolean;
  speech: TurnSpeech;
  /** A sentence the checks refused: null → refused back to the model; a line → said instead ('' → the turn fails). */
  refused(p: TruthProblem, whole?: string): string | null;
  /** While muted: stops the step; null before the colour window. */
  mutedStop(): ((why: string) => void) | null;
  /** A line the safety check blocked before it was sent (for the parent's 安全提醒). */
  recordBlocked(original: string, finding: UnsafeFinding | null, said: string): void;
  /** The turn's safety check (what it found, for the record). */
  unsafe: UnsafeCheck;
}

/** A tool whose one argument, `text`, is spoken through `stream` while the model writes it; `perform` decides on the whole line. */
function speakingTool(
  stream: SentenceStream<TruthProblem>,
  tool: Pick<AgentTool, 'name' | 'description' | 'kind'> & { maxChars: number },
  perform: (text: string) => unknown,
): AgentTool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: TEXT(tool.maxChars),
    kind: tool.kind,
    streamText: (text, attempt) => stream.update(text, attempt),
    perform: (args) => perform(String(args.text)),
  };
}

function sayTool(c: StepToolsContext): AgentTool {
  const { saying } = c.speech;
  const say = speakingTool(saying, { name: SAY_ACTION, description: SAY_DESCRIPTION, maxChars: 120, kind: 'loop' }, (text) => {
    const problem = saying.problemIn(text);
    if (problem?.problem.claim.kind === UNSAFE) {
      const drop = c.mutedStop();
      if (drop) {
        // Muted: said to no one and not kept (the round stays as the rules took it).
        drop('a muted line the safety check would block');
        throw new ToolError('muted');
      }
      // Not said (recorded for the parent); the turn goes on to its reply.
      c.recordBlocked(problem.sentence, c.unsafe(problem.sentence), '');
      saying.restart();
      return { said: false, note: '这句话不适合小朋友，没有说出去；接着做这一轮的事' };
    }
    if (problem) {
      c.refused(problem.problem);
      throw new ToolError(truthCorrection(problem.problem));
    }
    saying.finish(text);
    return SAID;
  });
  // A line said is said (a line the checks refuse is the exception): a step after it may be asked
  // ahead, and the rules' line right after a result is noted in that result.
  return { ...say, expected: () => SAID, notedInResult: c.notedLines };
}

function replyTool(c: StepToolsContext): AgentTool {
  const { replying } = c.speech;
  return speakingTool(replying, { name: REPLY_ACTION, description: REPLY_DESCRIPTION, maxChars: 200, kind: 'boundary' }, (written) => {
    let text = fitReplyText(written);
    if (text === '' && replying.sent.length === 0) throw new ToolError('reply 需要一句话：text 是空的');
    const problem = replying.problemIn(text);
    if (problem) {
      // Refused back to the model, or — after the retries, or at once for an unsafe line — the rules' own line instead.
      const instead = c.refused(problem.problem, text);
      if (instead === null) throw new ToolError(truthCorrection(problem.problem));
      // '' when the rules have no line either: the turn fails (a fallback sentence) — nothing false is said.
      if (instead === '') return '';
      // The rules' line replaces what was written: only what was said already is not said again.
      replying.restart();
      text = instead;
    }
    return replying.finish(text) || NOTHING_MORE;
  });
}

/** After the colour window a step may only speak (to no one): a tool that would change the game is not performed. */
function guarded(t: GameTool, mutedStop: StepToolsContext['mutedStop']): AgentTool {
  return {
    ...t,
    kind: 'loop',
    perform: (args) => {
      const drop = mayRunMuted(t.name, [SAY_ACTION, REPLY_ACTION]) ? null : mutedStop();
      if (drop) {
        drop(`a muted step called ${t.name}`);
        throw new ToolError('muted');
      }
      return t.perform(args);
    },
  };
}

/** The registry of one step: the game's tools, `say` and `reply`. A new step: whatever the last one wrote is over (said, or refused). */
export function stepTools(c: StepToolsContext): AgentTool[] {
  c.speech.saying.restart();
  c.speech.replying.restart();
  const say = sayTool(c);
  const reply = replyTool(c);
  return [...c.gameTools().map((t) => guarded(t, c.mutedStop)), say, reply];
}
