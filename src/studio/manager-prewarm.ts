/**
 * The Studio manager's next request starts with its conversation as kept (its fixed system prompt
 * and the rounds so far): read into a local engine's cache ahead of it (ChatModel.prewarm), as a
 * built-in game does after each turn — when a design session is opened, and after each play turn
 * of a hand-made game that leaves it running — so the next burst reads only the new words.
 */
import type { ChatModel } from '../core/llm/types.ts';
import { MANAGER_AGENT } from '../core/studio/manager-tools.ts';
import type { StudioSession } from './studio-session.ts';

export function prewarmManager(model: ChatModel, session: StudioSession): void {
  void model.prewarm?.(MANAGER_AGENT, session.snapshot().manager, new AbortController().signal).catch(() => undefined);
}
