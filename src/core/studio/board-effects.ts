/**
 * The board's part of a phase machine transition, applied all at once: the parent's decisions
 * (accept, reject, edit, author), the parent's words and the player's input become blackboard
 * writes, and each one a note for the conversation — what the parent sees, the exact line for the
 * manager, and the design trace. A refused write throws `BoardError` and nothing is applied. Pure.
 */
import * as bb from './blackboard.ts';
import { PARENT_WORDS_TAG } from './draft-check.ts';
import type { SkillPackage } from './package-loader.ts';
import type { Effect, PhaseEvent } from './phase-machine.ts';

export const PLAYER_INPUT_TAG = '运行.玩家输入';

export type BoardNote =
  /** A decision of the parent: a plain line (none for plumbing), the exact one for the manager. */
  | { kind: 'decision'; shown: string | null; forManager: string; data: Record<string, unknown> }
  /** Words the parent or the player said: in the conversation, to the manager with who said them. */
  | { kind: 'words'; text: string; forManager: string; log: 'user_input' | 'play_turn'; data: Record<string, unknown> };

export function applyBoardEffects(pkg: SkillPackage, board: bb.Blackboard, effects: readonly Effect[], event: PhaseEvent, at: number): { board: bb.Blackboard; notes: BoardNote[] } {
  const notes: BoardNote[] = [];
  const title = (tag: string) => pkg.tagDefs[tag]?.title ?? tag;
  const plain = (tag: string) => !pkg.tagDefs[tag]?.technical;
  const decision = (shown: string | null, forManager: string, data: Record<string, unknown>) => notes.push({ kind: 'decision', shown, forManager, data });
  // The parent's own words (revise) are already in the conversation: the rejections add no line.
  const worded = event.type === 'user_revise';
  for (const e of effects) {
    if (e.type === 'accept_tag') {
      board = bb.accept(board, e.tag, 'user', at);
      decision(plain(e.tag) ? `好，就用这个${title(e.tag)}。` : null, `采用 ${e.tag}`, { decision: 'accept', tag: e.tag });
    } else if (e.type === 'reject_tag') {
      board = bb.reject(board, e.tag, e.reason, 'user', at);
      decision(worded || !plain(e.tag) ? null : `${title(e.tag)}重做：${e.reason}`, `驳回 ${e.tag}，理由：${e.reason}`, { decision: 'reject', tag: e.tag, reason: e.reason });
    } else if (e.type === 'edit_tag') {
      board = bb.editAndAccept(board, e.tag, e.value, 'user', at);
      decision(plain(e.tag) ? `改了一下${title(e.tag)}。` : null, `修改并采用 ${e.tag}`, { decision: 'edit', tag: e.tag, value: e.value });
    } else if (e.type === 'author_tags') {
      for (const [tag, value] of Object.entries(e.values)) board = bb.recordUserFact(board, tag, value, at);
      const tags = Object.keys(e.values);
      const shown = tags.filter(plain).map(title);
      decision(shown.length ? `自己写好了${shown.join('、')}。` : null, `家长自己写了：${tags.join('、')}（已采用）`, { decision: 'author', tags });
    } else if (e.type === 'record_user_words') {
      const prev = bb.acceptedValue<string[]>(board, PARENT_WORDS_TAG) ?? [];
      board = bb.recordUserFact(board, PARENT_WORDS_TAG, [...prev, e.text], at);
      notes.push({ kind: 'words', text: e.text, forManager: `[家长] ${e.text}`, log: 'user_input', data: { text: e.text } });
    } else if (e.type === 'record_player_input') {
      board = bb.recordRuntimeFact(board, PLAYER_INPUT_TAG, e.text, at);
      notes.push({ kind: 'words', text: e.text, forManager: `[孩子] ${e.text}`, log: 'play_turn', data: { input: e.text } });
    }
  }
  return { board, notes };
}
