/**
 * What the parent reads while a design rests for a reason of its own (no question, no draft to
 * look at): the same words in the conversation and on the Studio's screen. Pure.
 */
import { endSentence } from '../text/punctuation.ts';
import type { WaitingReason } from './phase-machine.ts';

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

