/**
 * What the parent reads when a design waits: the question asked, the drafts to look at in plain
 * words, or — while it rests for a reason of its own — the same words in the conversation and on
 * the Studio's screen. Pure.
 */
import { endSentence } from '../text/punctuation.ts';
import type { Blackboard } from './blackboard.ts';
import type { SkillPackage } from './package-loader.ts';
import type { WaitingReason } from './phase-machine.ts';
import { summarize } from './tag-schema.ts';
import type { TranscriptItem } from './types.ts';

/** A failed step as the parent reads it: the why in brackets (what the helper was told) stays under 技术细节. */
function plainFailure(message: string): string {
  return message.replace(/（[^（）]*）$/, '').trim();
}

/**
 * What the parent reads while the design rests for a reason of its own (no question, no draft to
 * look at), in the conversation and on the screen alike; null for the other reasons.
 */
export function restingWords(reason: WaitingReason, stepTitle: (skill: string) => string): string | null {
  switch (reason.kind) {
    case 'burst_cap':
      return `我想了 ${reason.rounds} 步还没想好，先停下来。你可以再说说要求，或者点「接着想」。`;
    case 'helper_failed':
      return `「${stepTitle(reason.skill)}」这一步没做成：${endSentence(plainFailure(reason.message))}点「接着想」再试一次。`;
    case 'interrupted':
      return '上次还没想完就被打断了，点「接着想」继续。';
    default:
      return null;
  }
}


/** The drafts of a review in the parent's words: 「玩法：…，一共 3 轮」. */
export function draftSummary(pkg: SkillPackage, board: Blackboard, tags: readonly string[]): string {
  return tags
    .map((t) => {
      const def = pkg.tagDefs[t];
      if (!def || def.technical) return '';
      const sum = summarize(def, board.tags[t]?.value);
      return sum.text || def.title;
    })
    .filter(Boolean)
    .join('；');
}

/** What the parent is asked when the design starts to wait, as a line of the conversation (null: nothing to say). */
export function waitLine(reason: WaitingReason, pkg: SkillPackage, board: Blackboard, stepTitle: (skill: string) => string): Omit<TranscriptItem, 'at'> | null {
  if (reason.kind === 'agent_question') return { who: 'agent', text: reason.question };
  if (reason.kind === 'helper_question') return { who: 'helper', skill: reason.skill, text: reason.question };
  if (reason.kind === 'review_drafts') {
    if (!reason.tags.length) return null;
    const summary = draftSummary(pkg, board, reason.tags);
    return { who: 'helper', skill: reason.skill, text: `${endSentence(`${stepTitle(reason.skill)}想好了${summary ? `：${summary}` : ''}`)}行的话点「采用」，也可以直接说想怎么改。` };
  }
  const words = restingWords(reason, stepTitle);
  return words ? { who: 'system', text: words } : null;
}
