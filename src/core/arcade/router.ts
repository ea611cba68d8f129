/**
 * Input routing of the main agent, before any model call: what a child's words are.
 * - a voice command ("大声点", "说慢一点"): applied to the speech settings, never a game turn;
 * - "再说一遍": the last sentence again;
 * - "停" / "不玩了": stop talking and end the running game (`game`: the words speak of a game —
 *   "不玩了" with no game running is told so, "停" just stops);
 * - words a young child should bring to a grown-up (a dangerous question, words of self-harm, the
 *   family's address): a caring answer, and the words go to no model (the child-safety check);
 * - a clear in-game utterance (fast path): straight to the game as `send_message`;
 * - anything else: the main agent's model decides.
 * Pure: a function of the words and the state.
 */
import type { SafetyCategory, SafetyVerdict } from '../safety/classify.ts';
import { caringFor } from '../safety/replies.ts';
import { globalIntent, isClearInGame, normalize, speaksOfEndingGame, voiceCommand, type VoiceCommand } from './intents.ts';
import type { ArcadeGame } from './types.ts';

export type Route =
  | { kind: 'ignore' }
  | { kind: 'voice'; command: VoiceCommand }
  | { kind: 'repeat' }
  | { kind: 'stop'; game: boolean }
  | { kind: 'care'; category: SafetyCategory; rule: string }
  | { kind: 'fast' }
  | { kind: 'model' };

export interface RouteContext {
  games: readonly ArcadeGame[];
  inGame: boolean;
  /** The running game's id (its own name said as an answer goes to it). */
  running?: string;
  /** Voice commands are understood (the app can change the speech settings). */
  voiceCommands: boolean;
  /** Clear in-game words skip the model. */
  fastPath: boolean;
  /** The child-safety check of the child's own words (src/core/safety/classify.ts), once loaded. */
  checkChild?: (words: string) => SafetyVerdict;
}

export function route(words: string, ctx: RouteContext): Route {
  const command = ctx.voiceCommands ? voiceCommand(words) : null;
  if (command) return { kind: 'voice', command };
  if (!normalize(words)) return { kind: 'ignore' };
  const intent = globalIntent(words, ctx.games);
  if (intent === 'stop') return { kind: 'stop', game: speaksOfEndingGame(words) };
  if (intent) return { kind: intent };
  const safety = ctx.checkChild?.(words);
  if (safety?.verdict === 'blocked' && caringFor(safety.category, safety.rule)) return { kind: 'care', category: safety.category, rule: safety.rule };
  if (ctx.fastPath && isClearInGame(words, ctx.games, ctx.inGame, ctx.running)) return { kind: 'fast' };
  return { kind: 'model' };
}
